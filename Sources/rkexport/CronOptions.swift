// Flags for unattended, repeated runs: incremental state, date window, logging, time limits.
import ArgumentParser
import Foundation
import RKModel
import RKPipeline

extension LogFormat: ExpressibleByArgument {}

struct CronOptions: ParsableArguments {
  /// Exit status when another run holds the output folder's lock.
  static let lockedStatus: Int32 = 4

  @Option(
    help: ArgumentHelp(
      "Remember what was exported in this file; later runs read only new or changed inputs "
        + "and write them to <out>/delta-<UTC time>/.",
      valueName: "file"))
  var state: String?

  @Flag(
    help: ArgumentHelp(
      "With --state, add the new rows to the existing CSVs instead of writing a delta folder "
        + "(rows of changed inputs are replaced; all inputs are re-read for the wide tables "
        + "and statistics)."))
  var append = false

  @Option(
    help: ArgumentHelp(
      "Export only task runs that ended at or after this date (YYYY-MM-DD, UTC midnight) or "
        + "instant (ISO 8601, e.g. 2024-01-31T02:00:00Z).",
      valueName: "date"))
  var since: String?

  @Option(
    name: .customLong("log-format"),
    help: ArgumentHelp("How events are written on stderr: text lines or one JSON object per line."))
  var logFormat: LogFormat = .text

  @Option(
    name: .customLong("file-timeout"),
    help: ArgumentHelp(
      "Seconds one input may take to read before it is reported failed (0: no limit).",
      valueName: "seconds"))
  var fileTimeout: Double = 60

  @Flag(help: "Print nothing but errors (no progress bar, warnings or summary).")
  var quiet = false

  func validate() throws {
    // An empty name (`--state "$STATE"` with the variable unset) would read nothing and fail
    // only when the finished state is renamed, after the whole export.
    if state?.isEmpty == true {
      throw ValidationError("--state needs a file name (it was given an empty one).")
    }
    if let state { try refuseUnwritableName(state, option: "--state") }
    if append && state == nil {
      throw ValidationError("--append needs --state <file> to know which rows are already there.")
    }
    if let since, CronOptions.parseInstant(since) == nil {
      throw ValidationError(
        "--since '\(since)' is not a date; use YYYY-MM-DD or an ISO 8601 instant such as "
          + "2024-01-31T02:00:00Z.")
    }
    guard fileTimeout >= 0, fileTimeout.isFinite else {
      throw ValidationError("--file-timeout must be 0 or more seconds, got \(fileTimeout).")
    }
  }

  /// `2024-01-31` (UTC midnight), `2024-01-31T02:00:00Z`, with fractional seconds or an offset.
  static func parseInstant(_ text: String) -> Instant? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    if text.count == 10, let date = formatter.date(from: text) {
      return Instant(secondsSince1970: date.timeIntervalSince1970)
    }
    for options: ISO8601DateFormatter.Options in [
      [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
    ] {
      formatter.formatOptions = options
      if let date = formatter.date(from: text) {
        return Instant(secondsSince1970: date.timeIntervalSince1970)
      }
    }
    return nil
  }
}
