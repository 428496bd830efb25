// Everything one export run needs to know, gathered by the command line or a library caller.
import RKModel
import RKTable
import RKTidy
import RKWrite

/// How hard `results.xlsx` is compressed (`--xlsx-compression`).
public typealias XLSXCompression = XLSXWorkbook.Compression

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
  /// How hard `results.xlsx` is compressed: `.fast` (zlib level 1) unless asked otherwise.
  public var xlsxCompression: XLSXCompression = .fast
  /// Survey definition files (SurveyNative questions JSON) that label and interpret answers.
  public var surveyDefinitions: [String]
  /// The `--state` file of incremental runs; nil exports everything every time.
  public var statePath: String?
  /// With a state: add new rows to the existing CSVs instead of writing a delta folder.
  public var append = false
  /// Export only task runs that ended at or after this instant (start when no end).
  public var since: Instant?
  /// Seconds one input may take to parse before it is reported failed.
  public var fileTimeoutSeconds = 60.0
  /// Pseudonymous participant ids and dropped free text, for sharing (off by default).
  public var privacy = PrivacyOptions()
  /// Prefix CSV text cells starting with `=`, `+`, `-`, `@` with `'` (off by default: R and
  /// pandas users want the data unchanged).
  public var excelSafe = false
  /// Start every CSV with a UTF-8 byte order mark (for Excel on Windows).
  public var byteOrderMark = false

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
  /// Inputs left alone because --state shows them unchanged (or only touched).
  public var filesUnchanged = 0
  /// Task runs left out by --since.
  public var runsBeforeSince = 0
  /// Warnings about suspicious data (dates, duplicate run UUIDs), all kinds counted, those
  /// past the 50 a kind the log shows too.
  public var dataWarnings = 0
  /// True when --state showed nothing new and nothing was written.
  public var nothingNew = false
  /// The delta folder this run wrote (incremental run without --append), else nil.
  public var deltaDirectory: String?
  /// Problems that are not per-input failures (e.g. XLSX truncation), one line each.
  public var warnings: [String] = []

  public init() {}

  /// design.md §4: 0 all inputs read, 1 some failed (the rest exported), 3 nothing exported.
  public var exitStatus: Int32 {
    if filesFailed == 0 { return 0 }
    return filesOK == 0 && filesSkipped == 0 ? 3 : 1
  }
}
