// choices.csv: option order, zero-count options and the percent denominator.
import RKModel
import RKTable
import RKTidy
import XCTest

final class ChoicesTableTests: XCTestCase {
  func testChoicesSchema_Header_IsDesignContract() {
    XCTAssertEqual(
      ChoicesTable.schema.columnNames,
      ["task_id", "step_id", "item_id", "option", "count", "percent"])
  }

  func testChoicesRows_NoDefinition_ListsSeenOptionsByText() {
    // q2: run A chose a and c, run B chose a, run C skipped → 2 answered runs.
    let rows = ChoicesTable.rows(for: statistics(StatisticsFixture.survey()))
    XCTAssertEqual(
      rows,
      [
        row("a", count: 2, percent: "100", 100),
        row("c", count: 1, percent: "50", 50),
      ])
  }

  func testChoicesRows_Definition_AddsZeroCountOptionsInDefinitionOrder() {
    let definition = TaskDefinition(
      taskIdentifier: "survey",
      questions: [
        QuestionDefinition(
          stepIdentifier: "s2", itemIdentifier: "q2",
          options: [ChoiceOption(value: "c"), ChoiceOption(value: "b"), ChoiceOption(value: "a")])
      ])
    let rows = ChoicesTable.rows(
      for: statistics(StatisticsFixture.survey(), definitions: [definition]))
    XCTAssertEqual(
      rows,
      [
        row("c", count: 1, percent: "50", 50),
        row("b", count: 0, percent: "0", 0),
        row("a", count: 2, percent: "100", 100),
      ])
  }

  func testChoicesRows_Boolean_ListsTrueAndFalse() {
    let run = StatisticsFixture.run(
      source: "a", steps: [("s2", [("q2", .boolean, .boolean(false))])])
    XCTAssertEqual(
      ChoicesTable.rows(for: statistics([run])),
      [row("true", count: 0, percent: "0", 0), row("false", count: 1, percent: "100", 100)])
  }

  func testChoicesRows_NumericOptions_SortNumericallyWithNullLast() {
    let values: [ChoiceValue] = [.number(NumberValue(10)), .number(NumberValue(9)), .null]
    let runs = [
      StatisticsFixture.run(source: "a", steps: [("s2", [("q2", .choice, .choices(values))])]),
      StatisticsFixture.run(
        source: "b", steps: [("s2", [("q2", .choice, .choices([.number(NumberValue(9))]))])]),
      StatisticsFixture.run(
        source: "c", steps: [("s2", [("q2", .choice, .choices([.number(NumberValue(-1))]))])]),
    ]
    let rows = ChoicesTable.rows(for: statistics(runs))
    // 3 answered runs: 9 chosen twice (200/3 %), −1, 10 and null once each (100/3 %).
    XCTAssertEqual(
      rows.map { $0[3] }, [.text("-1"), .text("9"), .text("10"), .empty])
    XCTAssertEqual(
      rows.map { $0[5] },
      [
        .number(text: "33.333333333333336", value: 100.0 / 3),
        .number(text: "66.66666666666667", value: 200.0 / 3),
        .number(text: "33.333333333333336", value: 100.0 / 3),
        .number(text: "33.333333333333336", value: 100.0 / 3),
      ])
  }

  func testChoicesRows_NobodyAnswered_LeavesPercentEmpty() {
    let run = StatisticsFixture.run(source: "a", steps: [("s2", [("q2", .boolean, .skipped)])])
    XCTAssertEqual(
      ChoicesTable.rows(for: statistics([run])).map { $0[5] }, [.empty, .empty])
  }

  private func row(_ option: String, count: Int64, percent: String, _ value: Double) -> [Cell] {
    [
      .text("survey"), .text("s2"), .text("q2"), .text(option), .integer(count),
      .number(text: percent, value: value),
    ]
  }

  private func statistics(
    _ runs: [TaskRun], definitions: [TaskDefinition] = []
  ) -> [TaskStatistics] {
    var collector = StatisticsCollector(definitions: definitions)
    for run in runs { collector.add(run) }
    return collector.statistics()
  }
}
