// Runs fed through contributions: questions and steps found by position must never be mixed up.
import RKModel
import RKTidy
import XCTest

final class RunContributionStatisticsTests: XCTestCase {
  /// A step holding one scale question `q<step number>`, lasting `seconds`.
  private func step(_ number: Int, value: Int, seconds: Double) -> StepRecord {
    StepRecord(
      identifier: "s\(number)", startDate: at(0), endDate: at(seconds),
      results: [
        ResultRecord(
          identifier: "q\(number)", className: "ORKScaleQuestionResult", answerType: .scale,
          answer: .scale(NumberValue(value)))
      ])
  }

  private func run(_ source: String, _ steps: [StepRecord]) -> TaskRun {
    TaskRun(taskIdentifier: "t", runUUID: source, steps: steps, source: source)
  }

  /// Steps in changing order, and a step first seen in the third run.
  private var runs: [TaskRun] {
    [
      run("a", [step(1, value: 1, seconds: 1), step(2, value: 2, seconds: 2)]),
      run("b", [step(2, value: 3, seconds: 20), step(1, value: 4, seconds: 10)]),
      run(
        "c",
        [
          step(1, value: 5, seconds: 100), step(3, value: 6, seconds: 3),
          step(2, value: 7, seconds: 200),
        ]),
      run("d", [step(1, value: 8, seconds: 1000), step(2, value: 9, seconds: 2000)]),
    ]
  }

  private func collect(_ runs: [TaskRun]) -> [TaskStatistics] {
    var collector = StatisticsCollector()
    for run in runs { collector.add(RunContribution(run, flattener: Flattener(timeZone: .utc))) }
    return collector.statistics()
  }

  func testContribution_ReorderedAndNewSteps_ValuesStayWithTheirQuestion() throws {
    let questions = try XCTUnwrap(collect(runs).first).questions
    // Row order: by the earliest run holding the question ("a" for q1, q2; "c" for q3).
    XCTAssertEqual(questions.map(\.itemIdentifier), ["q1", "q2", "q3"])
    XCTAssertEqual(questions.map { $0.numbers?.median }, [4.5, 5, 6])  // 1 4 5 8 | 2 3 7 9 | 6
    XCTAssertEqual(questions.map(\.presentedCount), [4, 4, 1])
    // Step medians: s1 of 1 10 100 1000, s2 of 2 20 200 2000, s3 of 3.
    XCTAssertEqual(questions.map(\.stepDurationMedianSeconds), [55, 110, 3])
  }

  func testContribution_ForStatisticsAlone_SameStatisticsAsTheFullOne() {
    // Every answer kind (the survey fixture: scale, choices, numeric, text, skipped, don't
    // know, empty selection) plus this file's runs, as `rkexport stats` and an export add them.
    let all = StatisticsFixture.survey() + runs
    var alone = StatisticsCollector()
    for run in all { alone.add(RunContribution(statisticsOf: run)) }
    XCTAssertEqual(alone.statistics(), collect(all))
    XCTAssertFalse(collect(all).isEmpty)
  }

  func testContribution_AnyRunOrder_SameStatistics() {
    let expected = collect(runs)
    XCTAssertEqual(collect(runs.reversed()), expected)
    XCTAssertEqual(collect([runs[2], runs[0], runs[3], runs[1]]), expected)
  }

  func testContribution_LongRunWithRepeats_CountsRunOnceAndEveryValue() throws {
    // Over 32 results: repeats are found through a table instead of a scan.
    let steps = (0..<40).map { index in step(index % 5, value: index, seconds: 1) }
    let questions = try XCTUnwrap(collect([run("long", steps)]).first).questions
    XCTAssertEqual(questions.map(\.itemIdentifier), ["q0", "q1", "q2", "q3", "q4"])
    XCTAssertEqual(questions.map(\.presentedCount), [1, 1, 1, 1, 1])
    XCTAssertEqual(questions.map { $0.numbers?.count }, [8, 8, 8, 8, 8])
    XCTAssertEqual(questions.first?.numbers?.minimum, 0)
    XCTAssertEqual(questions.first?.numbers?.maximum, 35)
  }

  func testContribution_SameQuestionNamesInTwoTasksAndAnotherType_KeptApart() throws {
    // Runs of two tasks with the same step and item names, alternating; then a run of "t"
    // whose q1 answers as text at the same place: each is a question of its own.
    func runOf(_ task: String, _ source: String, value: Int) -> TaskRun {
      TaskRun(
        taskIdentifier: task, runUUID: source, steps: [step(1, value: value, seconds: 1)],
        source: source)
    }
    var text = run("e", [step(1, value: 0, seconds: 1)])
    text.steps[0].results[0].answerType = .text
    text.steps[0].results[0].answer = .text("x")
    let tasks = collect([
      runOf("t", "a", value: 1), runOf("u", "b", value: 10), runOf("t", "c", value: 3),
      runOf("u", "d", value: 30), text,
    ])
    XCTAssertEqual(tasks.map(\.taskIdentifier), ["t", "u"])
    let t = try XCTUnwrap(tasks.first).questions
    XCTAssertEqual(t.map(\.itemIdentifier), ["q1", "q1"])
    XCTAssertEqual(t.map(\.answerType), [.scale, .text])
    XCTAssertEqual(t.map { $0.numbers?.median }, [2, nil])
    XCTAssertEqual(t.map(\.presentedCount), [2, 1])
    XCTAssertEqual(try XCTUnwrap(tasks.last).questions.map { $0.numbers?.median }, [20])
  }
}
