// Flags shared by `export` and `stats`: what to read and how to interpret it.
import ArgumentParser
import Foundation
import RKPipeline
import RKTable

struct InputOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Files, folders or zips to read; folders are walked recursively.", valueName: "input"))
  var inputs: [String]

  @Option(
    name: .customLong("participant-pattern"),
    help: ArgumentHelp(
      "Regular expression on each file's path below its input root; its first capture group is "
        + "the participant id (default: the first folder below the root).",
      valueName: "regex"))
  var participantPattern: String?

  @Option(
    name: .customLong("survey-definition"),
    help: ArgumentHelp(
      "A SurveyNative questions file that labels answers and tells not-presented from skipped.",
      valueName: "file"))
  var surveyDefinitions: [String] = []

  @Option(
    help: ArgumentHelp(
      "Threads that parse inputs (default: the number of cores; with --xlsx one fewer, so the "
        + "thread writing the workbook has a core of its own).", valueName: "n"))
  var jobs: Int?

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs).") }
    if let participantPattern {
      do {
        _ = try ParticipantRule(pattern: participantPattern)
      } catch {
        throw ValidationError(
          "--participant-pattern '\(participantPattern)' is not a valid regular expression.")
      }
    }
  }

  /// The parser threads: `--jobs`, else one per core, less one for the workbook thread when a
  /// workbook is written (it is the longest task; parsers competing for its core slow it).
  func parserThreads(writingWorkbook: Bool) -> Int {
    if let jobs { return jobs }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    return max(1, writingWorkbook ? cores - 1 : cores)
  }

  func participantRule() throws -> ParticipantRule {
    guard let participantPattern else { return ParticipantRule() }
    return try ParticipantRule(pattern: participantPattern)
  }
}
