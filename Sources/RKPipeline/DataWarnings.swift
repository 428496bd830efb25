// Suspicious but readable data: each run is checked and a warning names the file and the reason.
import Foundation
import RKModel

/// Checks each exported task run for dates that cannot be right and for run UUIDs seen before.
///
/// - end before start;
/// - a task start or end later than the run's clock plus `futureTolerance` (10 minutes, for
///   phones whose clocks run a little ahead);
/// - a task start or end before 2014-01-01 (ResearchKit appeared in 2015: such dates come from
///   a reset clock);
/// - a task run UUID already exported from another file, in this run or an earlier one known
///   to `--state`. Both runs are kept everywhere (long tables and wide tables, one row each):
///   dropping either would lose data silently, and which copy is right is the study's call.
///
/// At most `limitPerKind` warnings of each kind are reported; the rest are counted.
struct DataWarnings {
  static let earliestPlausible = Instant(secondsSince1970: 1_388_534_400)  // 2014-01-01Z
  static let futureTolerance = 600.0
  static let limitPerKind = 50

  let latestPlausible: Instant
  private var seenUUIDs: [String: String]
  private var counts: [String: Int] = [:]

  /// `knownUUIDs` maps run UUIDs exported earlier (from the state file) to their source file.
  init(now: Date, knownUUIDs: [String: String]) {
    latestPlausible = Instant(
      secondsSince1970: now.timeIntervalSince1970 + DataWarnings.futureTolerance)
    seenUUIDs = knownUUIDs
  }

  /// The warnings for one run: (kind, message naming the file).
  mutating func check(_ run: TaskRun) -> [LogEvent] {
    var events: [LogEvent] = []
    let file = run.source
    if let start = run.startDate, let end = run.endDate, end < start {
      events += event("end_before_start", file, "task run ends before it starts")
    }
    let dates = [run.startDate, run.endDate].compactMap { $0 }
    if dates.contains(where: { $0 > latestPlausible }) {
      events += event("date_in_future", file, "task run dated in the future")
    }
    if dates.contains(where: { $0 < DataWarnings.earliestPlausible }) {
      events += event("date_before_2014", file, "task run dated before 2014 (a reset clock?)")
    }
    if let uuid = run.runUUID, !uuid.isEmpty {
      if let first = seenUUIDs[uuid], first != file {
        events += event(
          "duplicate_task_run", file,
          "task run \(uuid) was already exported from \(first); both are kept")
      } else {
        seenUUIDs[uuid] = file
      }
    }
    return events
  }

  /// One line per kind that went over the limit: how many were not printed.
  func omitted() -> [LogEvent] {
    counts.sorted { $0.key < $1.key }.compactMap { kind, count in
      guard count > DataWarnings.limitPerKind else { return nil }
      let more = count - DataWarnings.limitPerKind
      return LogEvent(
        kind, level: .warning, message: "\(grouped(more)) more \(kind) warnings not shown",
        fields: [("omitted", .integer(more))])
    }
  }

  private mutating func event(_ kind: String, _ file: String, _ text: String) -> [LogEvent] {
    counts[kind, default: 0] += 1
    guard counts[kind, default: 0] <= DataWarnings.limitPerKind else { return [] }
    return [
      LogEvent(
        "warning", level: .warning, message: "\(file): \(text)",
        fields: [("kind", .text(kind)), ("path", .text(file))])
    ]
  }
}
