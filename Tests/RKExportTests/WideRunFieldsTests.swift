// The wide tables' run columns, copied from each run's rendered task_runs row in a CSV-only
// export, against the same columns formatted from cells (an export with --xlsx) and by hand.
import Foundation
import XCTest

final class WideRunFieldsTests: XCTestCase {
  /// A participant folder that needs quotes (and, with --excel-safe, a guard), a run without
  /// end date or UUID, in a zone that is not UTC: the wide CSV is the same bytes
  /// whether its run columns were copied (CSV only) or formatted from cells (with a workbook),
  /// and each run column holds what task_runs.csv holds.
  func testWideRunColumns_CopiedFromTaskRuns_SameAsFormattedFromCells() throws {
    let dir = try Workdir()
    let tricky = "=P1,\"x\""
    try dir.write("in/\(tricky)/a.json", bytes: Array(Self.run(uuid: Self.uuid, end: true).utf8))
    try dir.write("in/\(tricky)/b.json", bytes: Array(Self.run(uuid: nil, end: false).utf8))
    try dir.write(
      "in/P2/c.json",
      bytes: Array(Self.run(uuid: "1D3F6B82-AC4E-4A7B-9F32-8E5D4C3B2A10", end: true).utf8))
    for flags in [["--excel-safe", "--tz", "America/New_York"], []] {
      let csvOnly = try dir.run(["in", "--out", "csv"] + flags)
      XCTAssertEqual(csvOnly.status, 0, csvOnly.stderr)
      let withWorkbook = try dir.run(["in", "--out", "xlsx", "--xlsx"] + flags)
      XCTAssertEqual(withWorkbook.status, 0, withWorkbook.stderr)
      let copied = try Data(contentsOf: dir.root.appendingPathComponent("csv/wide/check_in.csv"))
      let formatted = try Data(
        contentsOf: dir.root.appendingPathComponent("xlsx/wide/check_in.csv"))
      XCTAssertEqual(
        String(decoding: copied, as: UTF8.self), String(decoding: formatted, as: UTF8.self),
        "flags \(flags)")

      let wide = try dir.readCSV("csv/wide/check_in.csv")
      let runs = try dir.readCSV("csv/task_runs.csv")
      let runColumns = [
        "participant_id", "task_run_uuid", "task_start", "task_end", "task_duration_s",
      ]
      XCTAssertEqual(Array(wide[0].prefix(5)), runColumns)
      XCTAssertEqual(wide.count, 4, "a header and three runs")
      for row in wide.dropFirst() {
        let match = runs.dropFirst().filter {
          $0[2] == row[1] && $0[0] == row[0] && $0[3] == row[2]
        }
        XCTAssertEqual(match.count, 1, "the run of \(row)")
        for (index, name) in runColumns.enumerated() {
          let column = runs[0].firstIndex(of: name) ?? -1
          XCTAssertEqual(row[index], match.first?[column], "\(name), flags \(flags)")
        }
        XCTAssertEqual(row[5], "7", "the answer follows the run columns")
      }
      let guarded = flags.isEmpty ? tricky : "'" + tricky
      let first = wide.first { $0[1] == Self.uuid }
      if flags.isEmpty {
        XCTAssertEqual(
          first.map { Array($0.prefix(5)) },
          [guarded, Self.uuid, "2017-03-10T16:02:05.000Z", "2017-03-10T16:02:52.250Z", "47.25"])
      } else {
        XCTAssertEqual(
          first.map { Array($0.prefix(5)) },
          [
            guarded, Self.uuid, "2017-03-10T11:02:05.000-05:00", "2017-03-10T11:02:52.250-05:00",
            "47.25",
          ])
      }
      let open = wide.first { $0[1].isEmpty }
      XCTAssertEqual(open.map { [$0[0], $0[3], $0[4]] }, [guarded, "", ""], "no end, no duration")
      // The raw line: the quoted fields as written (quotes doubled, guard inside the quotes).
      let text = String(decoding: copied, as: UTF8.self)
      let quotedParticipant = flags.isEmpty ? "\"=P1,\"\"x\"\"\"" : "\"'=P1,\"\"x\"\"\""
      XCTAssertTrue(text.contains(quotedParticipant + "," + Self.uuid + ",2017-03-10T"), text)
    }
  }

  /// One task of 3,000 runs: with two jobs its wide table is split between the two writing
  /// threads (`WideShare`), the second half kept aside (over 64 KiB, so through the scratch
  /// file) and joined after the first. The file is the same bytes as with one job, every run
  /// once, in input order.
  func testWideTable_SplitBetweenTwoThreads_SameBytesAsOneThread() throws {
    let dir = try Workdir()
    let runCount = 3_000
    for index in 0..<runCount {
      let uuid = String(format: "0C2E5A71-9B3D-4F6A-8E21-%012X", index)
      try dir.write(
        "in/P\(index % 7)/run-\(String(format: "%05d", index)).json",
        bytes: Array(Self.run(uuid: uuid, end: index % 5 != 0).utf8))
    }
    let one = try dir.run(["in", "--out", "one", "--jobs", "1"])
    XCTAssertEqual(one.status, 0, one.stderr)
    let two = try dir.run(["in", "--out", "two", "--jobs", "2"])
    XCTAssertEqual(two.status, 0, two.stderr)
    let oneWide = try Data(contentsOf: dir.root.appendingPathComponent("one/wide/check_in.csv"))
    let twoWide = try Data(contentsOf: dir.root.appendingPathComponent("two/wide/check_in.csv"))
    XCTAssertGreaterThan(twoWide.count, 2 * 64 * 1024)
    XCTAssertTrue(oneWide == twoWide, "the split table differs from one thread's")
    let rows = try dir.readCSV("two/wide/check_in.csv")
    XCTAssertEqual(rows.count, runCount + 1)
    let uuids = rows.dropFirst().map { $0[1] }
    XCTAssertEqual(Set(uuids).count, runCount, "every run once")
    let runs = try dir.readCSV("two/task_runs.csv").dropFirst().map { $0[2] }
    XCTAssertEqual(uuids, Array(runs), "in the order of task_runs.csv")
  }

  private static let uuid = "0C2E5A71-9B3D-4F6A-8E21-7D4C3B2A1F09"

  /// A ResearchKit JSON task result with one scale answer.
  private static func run(uuid: String?, end: Bool) -> String {
    let uuidField = uuid.map { #""taskRunUUID":"\#($0)","# } ?? ""
    let endField = end ? #""endDate":"2017-03-10T08:02:52.250-0800","# : ""
    return """
      {"_class":"ORKTaskResult",\(endField)"identifier":"check_in",\(uuidField)\
      "startDate":"2017-03-10T08:02:05-0800","results":[{"_class":"ORKStepResult",\
      "identifier":"mood","startDate":"2017-03-10T08:02:10-0800",\
      "endDate":"2017-03-10T08:02:19-0800","results":[{"_class":"ORKScaleQuestionResult",\
      "identifier":"mood","questionType":1,"scaleAnswer":7,\
      "startDate":"2017-03-10T08:02:10-0800","endDate":"2017-03-10T08:02:19-0800"}]}]}
      """
  }
}
