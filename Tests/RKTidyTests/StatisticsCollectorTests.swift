// The collector on a three-run survey whose every count was worked out by hand (see `survey`).
import RKModel
import RKTidy
import XCTest

final class StatisticsCollectorTests: XCTestCase {
  func testCollector_Survey_CountsTaskRunsParticipantsAndDuration() throws {
    let task = try XCTUnwrap(collect(StatisticsFixture.survey()).first)
    XCTAssertEqual(task.taskIdentifier, "survey")
    XCTAssertEqual(task.runCount, 3)
    XCTAssertEqual(task.participantCount, 2)
    XCTAssertEqual(task.medianDurationSeconds, 100)  // durations 100, 50, 300
  }

  func testCollector_Survey_OrdersQuestionsByFirstRun() throws {
    let task = try XCTUnwrap(collect(StatisticsFixture.survey()).first)
    XCTAssertEqual(task.questions.map(\.itemIdentifier), ["q1", "q2", "age", "mood"])
  }

  func testCollector_ScaleQuestion_CountsStatusesAndSummarisesValues() throws {
    let q1 = try question("q1", in: collect(StatisticsFixture.survey()))
    XCTAssertEqual(q1.answerType, .scale)
    XCTAssertEqual(
      [q1.runCount, q1.presentedCount, q1.answeredCount, q1.skippedCount, q1.dontKnowCount],
      [3, 3, 2, 0, 1])
    XCTAssertEqual(try XCTUnwrap(q1.completeRate), 2.0 / 3, accuracy: 0)
    let numbers = try XCTUnwrap(q1.numbers)
    XCTAssertEqual(numbers.count, 2)
    XCTAssertEqual(numbers.mean, 4)
    XCTAssertEqual(numbers.standardDeviation, 2.0.squareRoot())  // values 3 and 5
    XCTAssertEqual([numbers.minimum, numbers.p25, numbers.median], [3, 3.5, 4])
    XCTAssertEqual([numbers.p75, numbers.maximum], [4.5, 5])
  }

  func testCollector_ScaleQuestion_TakesDurationsFromAnswerAndStep() throws {
    let q1 = try question("q1", in: collect(StatisticsFixture.survey()))
    XCTAssertEqual(q1.answerDurationMedianSeconds, 5)  // 4 and 6 s; run C has no dates
    XCTAssertEqual(q1.stepDurationMedianSeconds, 20)  // step s1: 10, 20, 30 s
    XCTAssertEqual(q1.stepDurationP90Seconds, 28)  // index 1.8: 20 + 10 × 0.8
  }

  func testCollector_FormItemMissingFromRun_IsNotPresented() throws {
    let age = try question("age", in: collect(StatisticsFixture.survey()))
    XCTAssertEqual([age.presentedCount, age.notPresentedCount, age.answeredCount], [2, 1, 2])
    XCTAssertEqual(age.numbers?.mean, 35)
    let mood = try question("mood", in: collect(StatisticsFixture.survey()))
    XCTAssertEqual([mood.presentedCount, mood.answeredCount, mood.skippedCount], [2, 1, 1])
    XCTAssertNil(mood.numbers)
    XCTAssertEqual(mood.options, [])
  }

  func testCollector_EmptySelection_CountsAsSkipped() throws {
    let q2 = try question("q2", in: collect(StatisticsFixture.survey()))
    XCTAssertEqual([q2.presentedCount, q2.answeredCount, q2.skippedCount], [3, 2, 1])
  }

  func testCollector_ReversedOrder_GivesSameStatistics() {
    let runs = StatisticsFixture.survey()
    XCTAssertEqual(collect(runs), collect(runs.reversed()))
  }

  func testCollector_QuestionOnlyInLaterRun_FollowsEarliestRunsQuestions() throws {
    let later = StatisticsFixture.run(
      source: "b", steps: [("s0", [("new", .scale, .scale(NumberValue(1)))])])
    let earlier = StatisticsFixture.run(
      source: "a", steps: [("s1", [("q1", .scale, .scale(NumberValue(2)))])])
    for runs in [[later, earlier], [earlier, later]] {
      let task = try XCTUnwrap(collect(runs).first)
      XCTAssertEqual(task.questions.map(\.itemIdentifier), ["q1", "new"])
    }
  }

  func testCollector_Definition_OrdersDefinedQuestionsFirst() throws {
    let definition = TaskDefinition(
      taskIdentifier: "survey",
      questions: [
        QuestionDefinition(stepIdentifier: "s3", itemIdentifier: "mood"),
        QuestionDefinition(stepIdentifier: "s3", itemIdentifier: "age"),
      ])
    let task = try XCTUnwrap(collect(StatisticsFixture.survey(), definitions: [definition]).first)
    XCTAssertEqual(task.questions.map(\.itemIdentifier), ["mood", "age", "q1", "q2"])
  }

  func testCollector_RepeatedQuestionInOneRun_CountsRunOnceAndEveryValue() throws {
    let run = StatisticsFixture.run(
      source: "a",
      steps: [
        ("s1", [("q1", .scale, .skipped)]),
        ("s1", [("q1", .scale, .scale(NumberValue(7)))]),
      ])
    let q1 = try question("q1", in: collect([run]))
    XCTAssertEqual([q1.presentedCount, q1.answeredCount, q1.skippedCount], [1, 1, 0])
    XCTAssertEqual(q1.numbers?.count, 1)
  }

  func testCollector_RepeatedChoiceInOneRun_BestStatusAndEachOptionOncePerRun() throws {
    // Run a: don't know, then a, a and null, then a and b. Run b: c, then skipped (answered
    // stays). Run c: skipped, then don't know. Counted by hand: presented 3; answered a, b;
    // don't know c; options a 1, b 1, c 1, null 1 (never 2 within a run).
    func choices(_ values: [ChoiceValue]) -> Answer { .choices(values) }
    let runs = [
      StatisticsFixture.run(
        source: "a", participant: "P1",
        steps: [
          ("s", [("q", .choice, .dontKnow)]),
          ("s", [("q", .choice, choices([.text("a"), .text("a"), .null]))]),
          ("s", [("q", .choice, choices([.text("a"), .text("b")]))]),
        ]),
      StatisticsFixture.run(
        source: "b", participant: "P2",
        steps: [
          ("s", [("q", .choice, choices([.text("c")]))]), ("s", [("q", .choice, .skipped)]),
        ]),
      StatisticsFixture.run(
        source: "c", participant: "P1",
        steps: [("s", [("q", .choice, .skipped)]), ("s", [("q", .choice, .dontKnow)])]),
    ]
    for order in [runs, runs.reversed()] {
      let tasks = collect(order)
      XCTAssertEqual(tasks.first?.participantCount, 2)
      let q = try question("q", in: tasks)
      XCTAssertEqual(
        [q.presentedCount, q.answeredCount, q.dontKnowCount, q.skippedCount], [3, 2, 1, 0])
      XCTAssertEqual(q.options.map(\.value), ["a", "b", "c", nil])
      XCTAssertEqual(q.options.map(\.count), [1, 1, 1, 1])
    }
  }

  func testCollector_TwelveTasksTakenInTurns_EachRunCountedForItsOwnTask() throws {
    // More tasks than the collector compares before hashing (8): runs of task k answer k.
    var runs: [TaskRun] = []
    for round in 0..<3 {
      for task in 0..<12 {
        runs.append(
          StatisticsFixture.run(
            task: "t\(task)", source: "r\(round)-\(task)", participant: "P\(round)",
            steps: [("s", [("q", .scale, .scale(NumberValue(task)))])]))
      }
    }
    let tasks = collect(runs)
    XCTAssertEqual(tasks.count, 12)
    for task in tasks {
      let number = try XCTUnwrap(Int(task.taskIdentifier.dropFirst()))
      XCTAssertEqual(task.runCount, 3)
      XCTAssertEqual(task.participantCount, 3)
      let q = try XCTUnwrap(task.questions.first)
      XCTAssertEqual([q.numbers?.minimum, q.numbers?.maximum], [Double(number), Double(number)])
      XCTAssertEqual(q.numbers?.count, 3)
    }
  }

  func testCollector_RepeatedBooleanInOneRun_CountsEachValueOncePerRun() throws {
    let run = StatisticsFixture.run(
      source: "a",
      steps: [
        ("s", [("yes", .boolean, .boolean(true))]), ("s", [("yes", .boolean, .boolean(true))]),
        ("s", [("yes", .boolean, .boolean(false))]),
      ])
    let yes = try question("yes", in: collect([run]))
    XCTAssertEqual(yes.options.map(\.value), ["true", "false"])
    XCTAssertEqual(yes.options.map(\.count), [1, 1])
    XCTAssertEqual([yes.presentedCount, yes.answeredCount], [1, 1])
  }

  func testCollector_NonFiniteNumber_IsAnsweredButNotSummarised() throws {
    let run = StatisticsFixture.run(
      source: "a",
      steps: [
        (
          "s1",
          [
            (
              "q1", .numeric,
              .numeric(
                NumberValue(.nan), unit: nil,
                displayUnit: nil)
            )
          ]
        )
      ])
    let q1 = try question("q1", in: collect([run]))
    XCTAssertEqual(q1.answeredCount, 1)
    XCTAssertNil(q1.numbers)
  }

  func testCollector_DateAndTimeAnswers_SummariseInDocumentedUnits() throws {
    let date = DateAnswer(instant: Instant(secondsSince1970: 1_463_427_265.5))
    let run = StatisticsFixture.run(
      source: "a",
      steps: [
        ("s1", [("when", .date, .date(date))]),
        ("s2", [("wake", .timeOfDay, .timeOfDay(TimeOfDay(hour: 7, minute: 30)))]),
        ("s3", [("rest", .timeInterval, .timeInterval(90))]),
      ])
    let stats = collect([run])
    XCTAssertEqual(try question("when", in: stats).numbers?.mean, 1_463_427_265.5)
    XCTAssertEqual(try question("wake", in: stats).numbers?.mean, 27_000)  // 7 × 3600 + 30 × 60
    XCTAssertEqual(try question("rest", in: stats).numbers?.mean, 90)
  }

  func testCollector_AnswerDurations_KeptWhetherOrNotTheAnswerIsANumber() throws {
    // A text answer (no numeric value) timed 8 s and 12 s; a numeric answer without dates.
    func run(_ source: String, text: String, seconds: Double, age: Int) -> TaskRun {
      let mood = ResultRecord(
        identifier: "mood", className: "ORKTextQuestionResult", answerType: .text,
        answer: .text(text), startDate: StatisticsFixture.at(0),
        endDate: StatisticsFixture.at(seconds))
      let years = StatisticsFixture.result(
        ("age", .numeric, .numeric(NumberValue(age), unit: nil, displayUnit: nil)))
      return TaskRun(
        taskIdentifier: "survey", runUUID: source.uppercased(),
        steps: [StepRecord(identifier: "s1", results: [mood, years])],
        participantID: "P1", source: source)
    }
    let stats = collect([
      run("a", text: "ok", seconds: 8, age: 30), run("b", text: "fine", seconds: 12, age: 40),
    ])
    let mood = try question("mood", in: stats)
    XCTAssertNil(mood.numbers)
    XCTAssertEqual(mood.answerDurationMedianSeconds, 10)  // 8 and 12 s
    let age = try question("age", in: stats)
    XCTAssertEqual(age.numbers?.mean, 35)  // 30 and 40
    XCTAssertNil(age.answerDurationMedianSeconds)
  }

  func testCollector_NoRuns_GivesNoTasks() {
    XCTAssertEqual(StatisticsCollector().statistics(), [])
  }

  // MARK: - Helpers

  private func collect<S: Sequence>(
    _ runs: S, definitions: [TaskDefinition] = []
  ) -> [TaskStatistics] where S.Element == TaskRun {
    var collector = StatisticsCollector(definitions: definitions)
    for run in runs { collector.add(run) }
    return collector.statistics()
  }

  private func question(_ item: String, in tasks: [TaskStatistics]) throws -> QuestionStatistics {
    try XCTUnwrap(tasks.flatMap(\.questions).first { $0.itemIdentifier == item })
  }
}

// MARK: - Fixture

enum StatisticsFixture {
  typealias Item = (id: String, type: AnswerType, answer: Answer)

  /// A run of task `task` whose steps hold the given results (no dates).
  static func run(
    task: String = "survey", source: String, participant: String = "",
    steps: [(id: String, items: [Item])]
  ) -> TaskRun {
    TaskRun(
      taskIdentifier: task, runUUID: source.uppercased(),
      steps: steps.map { step in
        StepRecord(identifier: step.id, results: step.items.map(result))
      },
      participantID: participant, source: source)
  }

  static func result(_ item: Item) -> ResultRecord {
    ResultRecord(
      identifier: item.id, className: "ORKQuestionResult", answerType: item.type,
      answer: item.answer)
  }

  static func at(_ seconds: Double) -> Instant { Instant(secondsSince1970: seconds) }

  /// Three runs of "survey":
  /// - A (P1, 0–100 s): s1 0–10 q1 scale 3 (0–4 s); s2 q2 choices a, c; s3 age 30, mood skipped.
  /// - B (P1, 0–50 s): s1 0–20 q1 scale 5 (0–6 s); s2 q2 choice a; no s3 (not presented).
  /// - C (P2, 0–300 s): s1 0–30 q1 don't know; s2 q2 empty selection; s3 age 40, mood "ok".
  static func survey() -> [TaskRun] {
    func scale(_ value: Int, from: Double, to: Double) -> ResultRecord {
      ResultRecord(
        identifier: "q1", className: "ORKScaleQuestionResult", answerType: .scale,
        answer: .scale(NumberValue(value)), startDate: at(from), endDate: at(to))
    }
    func choice(_ values: [String]) -> ResultRecord {
      result(("q2", .choice, .choices(values.map { .text($0) })))
    }
    func age(_ years: Int) -> ResultRecord {
      result(("age", .numeric, .numeric(NumberValue(years), unit: "years", displayUnit: nil)))
    }
    let runA = TaskRun(
      taskIdentifier: "survey", runUUID: "A", startDate: at(0), endDate: at(100),
      steps: [
        StepRecord(
          identifier: "s1", startDate: at(0), endDate: at(10),
          results: [scale(3, from: 0, to: 4)]),
        StepRecord(identifier: "s2", results: [choice(["a", "c"])]),
        StepRecord(identifier: "s3", results: [age(30), result(("mood", .text, .skipped))]),
      ],
      participantID: "P1", source: "P1/a")
    let runB = TaskRun(
      taskIdentifier: "survey", runUUID: "B", startDate: at(0), endDate: at(50),
      steps: [
        StepRecord(
          identifier: "s1", startDate: at(0), endDate: at(20),
          results: [scale(5, from: 0, to: 6)]),
        StepRecord(identifier: "s2", results: [choice(["a"])]),
      ],
      participantID: "P1", source: "P1/b")
    let runC = TaskRun(
      taskIdentifier: "survey", runUUID: "C", startDate: at(0), endDate: at(300),
      steps: [
        StepRecord(
          identifier: "s1", startDate: at(0), endDate: at(30),
          results: [result(("q1", .scale, .dontKnow))]),
        StepRecord(identifier: "s2", results: [choice([])]),
        StepRecord(identifier: "s3", results: [age(40), result(("mood", .text, .text("ok")))]),
      ],
      participantID: "P2", source: "P2/c")
    return [runA, runB, runC]
  }
}
