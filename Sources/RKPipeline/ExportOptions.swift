// Everything one export run needs to know, gathered by the command line or a library caller.
import RKTable

/// The settings of one export run.
public struct ExportOptions: Sendable {
  /// Files, folders and zips to read.
  public var inputs: [String]
  /// Folder the outputs are written into (created when missing).
  public var outputDirectory: String
  /// The zone instants are written in (UTC by default).
  public var timeZone: TimeZoneRule
  public var participantRule: ParticipantRule
  /// Threads that parse inputs (the writer has its own thread).
  public var jobs: Int
  /// Also write `results.xlsx`.
  public var writeXLSX: Bool
  /// Survey definition files (SurveyNative questions JSON) that label and interpret answers.
  public var surveyDefinitions: [String]

  public init(
    inputs: [String], outputDirectory: String = "rkexport-out", timeZone: TimeZoneRule = .utc,
    participantRule: ParticipantRule = ParticipantRule(), jobs: Int = 2, writeXLSX: Bool = false,
    surveyDefinitions: [String] = []
  ) {
    self.inputs = inputs
    self.outputDirectory = outputDirectory
    self.timeZone = timeZone
    self.participantRule = participantRule
    self.jobs = jobs
    self.writeXLSX = writeXLSX
    self.surveyDefinitions = surveyDefinitions
  }
}

/// What a run did, for the closing summary line and the exit status.
public struct ExportReport: Sendable, Equatable {
  public var filesRead = 0
  public var filesOK = 0
  public var filesFailed = 0
  public var filesSkipped = 0
  public var taskRuns = 0
  public var answers = 0
  public var seconds = 0.0
  /// Files written, relative to the output folder, in the order written.
  public var outputs: [String] = []
  /// Problems that are not per-input failures (e.g. XLSX truncation), one line each.
  public var warnings: [String] = []

  public init() {}

  /// design.md §4: 0 all inputs read, 1 some failed (the rest exported), 3 nothing exported.
  public var exitStatus: Int32 {
    if filesFailed == 0 { return 0 }
    return filesOK == 0 && filesSkipped == 0 ? 3 : 1
  }
}
