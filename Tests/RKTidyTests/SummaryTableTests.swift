// summary.csv: the contract header and the cells of hand-counted rows.
import RKModel
import RKTable
import RKTidy
import XCTest

final class SummaryTableTests: XCTestCase {
  func testSummarySchema_Header_StartsWithDesignContractColumns() {
    // design.md §4, summary.csv, in order; then the documented duration and task columns.
    XCTAssertEqual(
      SummaryTable.schema.columnNames,
      [
        "task_id", "step_id", "item_id", "answer_type", "n_runs", "n_presented", "n_answered",
        "n_skipped", "n_dont_know", "complete_rate", "mean", "sd", "min", "p25", "median", "p75",
        "max", "answer_duration_median_s", "step_duration_median_s", "step_duration_p90_s",
        "task_n_participants", "task_duration_median_s",
      ])
  }

  func testSummaryRows_ScaleQuestion_HasHandCountedCells() throws {
    let rows = SummaryTable.rows(for: statistics(StatisticsFixture.survey()))
    XCTAssertEqual(rows.count, 4)
    let q1 = try XCTUnwrap(rows.first)
    XCTAssertEqual(
      q1,
      [
        .text("survey"), .text("s1"), .text("q1"), .text("scale"),
        .integer(3), .integer(3), .integer(2), .integer(0), .integer(1),
        .number(text: "0.6666666666666666", value: 2.0 / 3),
        .number(text: "4", value: 4), .number(text: "1.4142135623730951", value: 2.0.squareRoot()),
        .number(text: "3", value: 3), .number(text: "3.5", value: 3.5),
        .number(text: "4", value: 4), .number(text: "4.5", value: 4.5),
        .number(text: "5", value: 5),
        .seconds(5), .seconds(20), .seconds(28),
        .integer(2), .seconds(100),
      ])
  }

  func testSummaryRows_TextQuestion_LeavesNumericCellsEmpty() throws {
    let rows = SummaryTable.rows(for: statistics(StatisticsFixture.survey()))
    let mood = try XCTUnwrap(rows.last)
    XCTAssertEqual(mood[2], .text("mood"))
    XCTAssertEqual(Array(mood[10...16]), Array(repeating: .empty, count: 7))
    XCTAssertEqual(mood[9], .number(text: "0.3333333333333333", value: 1.0 / 3))
  }

  func testSummaryRows_SingleValue_LeavesSdEmpty() throws {
    let run = StatisticsFixture.run(
      source: "a", steps: [("s1", [("q1", .scale, .scale(NumberValue(7)))])])
    let row = try XCTUnwrap(SummaryTable.rows(for: statistics([run])).first)
    XCTAssertEqual(row[10], .number(text: "7", value: 7))
    XCTAssertEqual(row[11], .empty)
    XCTAssertEqual(row[20], .empty)  // no participant id known
  }

  func testSummaryRows_TaskWithoutResults_GetsOneTaskRow() throws {
    let run = TaskRun(
      taskIdentifier: "consent", steps: [StepRecord(identifier: "intro")], participantID: "P9")
    let rows = SummaryTable.rows(for: statistics([run]))
    XCTAssertEqual(rows.count, 1)
    let row = try XCTUnwrap(rows.first)
    XCTAssertEqual(row.count, SummaryTable.schema.columns.count)
    XCTAssertEqual(Array(row[0...4]), [.text("consent"), .empty, .empty, .empty, .integer(1)])
    XCTAssertEqual(row[20], .integer(1))
  }

  func testSummaryRows_EveryRow_HasOneCellPerColumn() {
    let rows = SummaryTable.rows(for: statistics(StatisticsFixture.survey()))
    XCTAssertTrue(rows.allSatisfy { $0.count == SummaryTable.schema.columns.count })
  }

  private func statistics(_ runs: [TaskRun]) -> [TaskStatistics] {
    var collector = StatisticsCollector()
    for run in runs { collector.add(run) }
    return collector.statistics()
  }
}
