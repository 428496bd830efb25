// Wide tables: not presented vs skipped, option columns, merged question order, final rows.
import RKModel
import RKTable
import XCTest

@testable import RKTidy

final class WidePivotTests: XCTestCase {
  private let runColumns = [
    "participant_id", "task_run_uuid", "task_start", "task_end", "task_duration_s",
  ]

  private func runCells(_ uuid: String) -> [Cell] {
    [.text("P001"), .text(uuid), ms(0), ms(60), .seconds(60)]
  }

  private func finalRows(_ pivot: WidePivot, _ partials: [WidePartialRow]) -> [[Cell]] {
    partials.compactMap { pivot.finalRow($0) }
  }

  func testRegister_TasksTakenInTurnsBeyondTheRecentFew_EachCountedAsItself() throws {
    // Twelve tasks in turn, three rounds: more than the few the pivot compares before its table,
    // so tasks leave that list and come back; each must still get exactly its own runs.
    let pivot = WidePivot()
    for round in 0..<3 {
      for number in 0..<12 {
        _ = pivot.add(
          makeRun(
            [result("q\(number)", .scale, .scale(NumberValue(round)))], uuid: "R\(round)-\(number)",
            task: "task\(number)"))
      }
      // The first task again right after the last: found among the recent ones.
      _ = pivot.add(makeRun([result("q0", .scale, .scale(NumberValue(9)))], task: "task0"))
    }
    XCTAssertEqual(pivot.taskIDs.count, 12)
    for number in 0..<12 {
      XCTAssertEqual(pivot.runCount(taskID: "task\(number)"), number == 0 ? 6 : 3, "task\(number)")
      let schema = try XCTUnwrap(pivot.finalSchema(taskID: "task\(number)"))
      XCTAssertEqual(schema.columnNames.last, "q\(number)")
    }
  }

  /// Runs of a branching task skip questions an earlier run had: the question at each place is
  /// still found by comparing keys a few places on (and by its key, never another's).
  func testRecentOrdinal_QuestionsSkipped_FoundFurtherOnUpToTheLookAhead() {
    let task = WideTask(taskID: "branching", definition: nil)
    let keys = (0..<10).map { QuestionKey(step: "s\($0)", item: "q\($0)") }
    task.countRun()
    var ordinals: [Int] = []
    for (index, key) in keys.enumerated() {
      XCTAssertNil(task.recentOrdinal(at: index, key: key))
      let ordinal = task.register(key, after: ordinals.last)
      task.noteRecent(ordinal, at: index, key: key)
      ordinals.append(ordinal)
    }
    // A run without q1, then without q2…q4: each later question found where it sat.
    task.countRun()
    let skipping = [0, 2, 3, 4, 8, 9]
    for (index, number) in skipping.enumerated() {
      XCTAssertEqual(
        task.recentOrdinal(at: index, key: keys[number]), ordinals[number], "q\(number)")
    }
    // Four skipped at once: beyond the look-ahead, left to the lookup by key.
    task.countRun()
    XCTAssertEqual(task.recentOrdinal(at: 0, key: keys[0]), ordinals[0])
    XCTAssertNil(task.recentOrdinal(at: 1, key: keys[5]))
    // Never another question's ordinal, and nothing found before this run's place.
    XCTAssertNil(task.recentOrdinal(at: 2, key: QuestionKey(step: "s2", item: "other")))
    XCTAssertNil(task.recentOrdinal(at: 3, key: keys[1]))
  }

  func testWide_NotPresentedSkippedAndOptions_BlankNeverZero() throws {
    let pivot = WidePivot()
    let first = pivot.add(
      makeRun(
        [
          result("q1", .boolean, .boolean(true)),
          result("q2", .choice, .choices([.text("a"), .text("c")])),
          result("q3", .text, .skipped),
        ], uuid: "R1"))
    let second = pivot.add(
      makeRun(
        [
          result("q1", .boolean, .boolean(false)),
          result("q4", .text, .text("x")),
          result("q2", .choice, .choices([])),
        ], uuid: "R2"))
    let third = pivot.add(
      makeRun([result("q2", .choice, .choices([.text("c")]))], uuid: "R3"))
    let schema = try XCTUnwrap(pivot.finalSchema(taskID: "survey"))
    // q4 was first seen after q1, so it goes between q1 and q2.
    XCTAssertEqual(schema.columnNames, runColumns + ["q1", "q4", "q2", "q2.a", "q2.c", "q3"])
    XCTAssertEqual(schema.name, "wide/survey")
    XCTAssertEqual(
      finalRows(pivot, [first, second, third]),
      [
        runCells("R1") + [.bool(true), .empty, .text("a;c"), .integer(1), .integer(1), .empty],
        runCells("R2") + [.bool(false), .text("x"), .empty, .empty, .empty, .empty],
        runCells("R3") + [.empty, .empty, .text("c"), .integer(0), .integer(1), .empty],
      ])
  }

  func testWide_ColumnTypes_FromValueKinds() throws {
    let pivot = WidePivot()
    _ = pivot.add(
      makeRun([
        result("smoker", .boolean, .boolean(true)),
        result("weight", .numeric, .numeric(NumberValue(70), unit: "kg", displayUnit: nil)),
        result("when", .date, .date(DateAnswer(instant: t0, isDateOnly: false))),
        result("note", .text, .text("n")),
        result("multi", .choice, .choices([.number(NumberValue(1))])),
      ]))
    let schema = try XCTUnwrap(pivot.finalSchema(taskID: "survey"))
    XCTAssertEqual(
      schema.columns.map(\.type),
      [.string, .string, .datetime, .datetime, .number]
        + [.boolean, .number, .datetime, .string, .string, .integer])
  }

  func testWide_OptionOrder_DefinitionThenNumbersThenTexts() throws {
    let definition = TaskDefinition(
      taskIdentifier: "survey",
      questions: [
        QuestionDefinition(
          stepIdentifier: "mood", itemIdentifier: "mood",
          options: [ChoiceOption(value: "none"), ChoiceOption(value: "some")])
      ])
    let pivot = WidePivot(definitions: [definition])
    let partial = pivot.add(
      makeRun([
        result(
          "mood", .choice,
          .choices([.text("b"), .number(NumberValue(10)), .text("a"), .number(NumberValue(2))]))
      ]))
    let schema = try XCTUnwrap(pivot.finalSchema(taskID: "survey"))
    XCTAssertEqual(
      Array(schema.columnNames.dropFirst(5)),
      ["mood", "mood.none", "mood.some", "mood.2", "mood.10", "mood.a", "mood.b"])
    XCTAssertEqual(
      Array((pivot.finalRow(partial) ?? []).dropFirst(5)),
      [.text("b;10;a;2"), .integer(0), .integer(0)] + Array(repeating: .integer(1), count: 4))
  }

  func testWide_SingleChoiceQuestionType_NoOptionColumns() throws {
    let pivot = WidePivot()
    let partial = pivot.add(
      makeRun([result("pain", .choice, .choices([.number(NumberValue(3))]), questionType: 2)]))
    let schema = try XCTUnwrap(pivot.finalSchema(taskID: "survey"))
    XCTAssertEqual(Array(schema.columnNames.dropFirst(5)), ["pain"])
    XCTAssertEqual(schema.columns.last?.type, .number)
    XCTAssertEqual(pivot.finalRow(partial)?.last, num("3", 3))
  }

  func testWide_NewOpeningQuestion_BeforeFirstKnownOne() {
    let pivot = WidePivot()
    _ = pivot.add(makeRun([result("q2", .text, .text("a")), result("q3", .text, .text("b"))]))
    _ = pivot.add(makeRun([result("q1", .text, .text("c")), result("q2", .text, .text("d"))]))
    _ = pivot.add(makeRun([result("q9", .text, .text("e"))]))
    XCTAssertEqual(
      pivot.finalSchema(taskID: "survey")?.columnNames.dropFirst(5), ["q1", "q2", "q3", "q9"])
  }

  func testWide_DontKnow_Blank() {
    let pivot = WidePivot()
    let partial = pivot.add(makeRun([result("age", .numeric, .dontKnow)]))
    XCTAssertEqual(pivot.finalRow(partial)?.last, .empty)
    XCTAssertEqual(pivot.finalSchema(taskID: "survey")?.columnNames.last, "age")
  }

  func testWide_SameQuestionTwiceInRun_LaterAnswerWins() {
    let pivot = WidePivot()
    let partial = pivot.add(
      makeRun([result("q", .text, .text("first")), result("q", .text, .text("second"))]))
    XCTAssertEqual(pivot.finalSchema(taskID: "survey")?.columns.count, 6)
    XCTAssertEqual(pivot.finalRow(partial)?.last, .text("second"))
  }

  func testWide_PartialRow_SpoolCellsRoundTrip() {
    let pivot = WidePivot()
    let partial = pivot.add(makeRun([result("q", .text, .text("v"))]))
    XCTAssertEqual(partial.spoolCells.first, .text("survey"))
    XCTAssertEqual(WidePartialRow(spoolCells: partial.spoolCells), partial)
    XCTAssertNil(WidePartialRow(spoolCells: [.integer(1)]))
    XCTAssertNil(pivot.finalRow(WidePartialRow(taskID: "other", cells: runCells("R"))))
  }

  func testWide_TasksSeparate_OwnColumnsAndRunCounts() {
    let pivot = WidePivot()
    _ = pivot.add(makeRun([result("a", .text, .text("1"))], task: "t1"))
    _ = pivot.add(makeRun([result("b", .text, .text("2"))], task: "t2"))
    _ = pivot.add(makeRun([result("c", .text, .text("3"))], task: "t2"))
    XCTAssertEqual(pivot.taskIDs, ["t1", "t2"])
    XCTAssertEqual(pivot.runCount(taskID: "t2"), 2)
    XCTAssertEqual(pivot.finalSchema(taskID: "t1")?.columnNames.last, "a")
    XCTAssertEqual(pivot.finalSchema(taskID: "t2")?.columnNames.suffix(2), ["b", "c"])
  }

  func testWide_FinalColumns_KeepExactIDs() throws {
    let pivot = WidePivot()
    _ = pivot.add(makeRun([result("q\nx", .choice, .choices([.text("o,1")]))]))
    let columns = try XCTUnwrap(pivot.finalColumns(taskID: "survey"))
    XCTAssertEqual(
      columns[5],
      WideColumn(
        name: "q_x", role: .answer, stepID: "q\nx", itemID: "q\nx", answerType: .choice))
    XCTAssertEqual(
      columns[6],
      WideColumn(
        name: "q_x.o,1", role: .option, stepID: "q\nx", itemID: "q\nx", option: "o,1",
        answerType: .choice))
  }

  func testWide_QuestionsInChangingOrder_ValuesInTheirOwnColumns() throws {
    let pivot = WidePivot()
    let partials = [
      pivot.add(makeRun([result("a", .text, .text("1")), result("b", .text, .text("2"))])),
      pivot.add(makeRun([result("b", .text, .text("3")), result("a", .text, .text("4"))])),
      pivot.add(
        makeRun([
          result("a", .text, .text("5")), result("c", .text, .text("6")),
          result("b", .text, .text("7")),
        ])),
    ]
    let schema = try XCTUnwrap(pivot.finalSchema(taskID: "survey"))
    XCTAssertEqual(schema.columnNames.suffix(3), ["a", "c", "b"])
    XCTAssertEqual(
      finalRows(pivot, partials).map { Array($0.suffix(3)) },
      [
        [.text("1"), .empty, .text("2")], [.text("4"), .empty, .text("3")],
        [.text("5"), .text("6"), .text("7")],
      ])
  }
}

final class WideRowPlanTests: XCTestCase {
  /// The final row a plan gives, built from its sources as a writer would.
  private func plannedRow(_ pivot: WidePivot, _ partial: WidePartialRow) -> [Cell]? {
    guard let plan = pivot.rowPlan(taskID: partial.taskID) else { return nil }
    var sources: [CellSource] = [.zero]  // a reused array of another width
    plan.sources(cellCount: partial.cells.count, into: &sources) { index in
      if case .integer(let key) = partial.cells[index] { return key } else { return nil }
    }
    XCTAssertEqual(sources.count, plan.columnCount)
    return sources.map { source in
      if let index = source.cellIndex { return partial.cells[index] }
      return source == .zero ? .integer(0) : .empty
    }
  }

  func testWideRowPlan_OptionsAndRepeats_SameCellsAsFinalRow() throws {
    let pivot = WidePivot()
    let partials = [
      pivot.add(
        makeRun(
          [
            result("q1", .choice, .choices([.text("a"), .text("c")])),
            result("q2", .text, .text("first")), result("q2", .text, .text("second")),
          ], uuid: "R1")),
      pivot.add(makeRun([result("q1", .choice, .choices([.text("b")]))], uuid: "R2")),
      pivot.add(makeRun([result("q3", .text, .skipped)], uuid: "R3")),
    ]
    for partial in partials {
      XCTAssertEqual(plannedRow(pivot, partial), pivot.finalRow(partial))
    }
    XCTAssertEqual(
      plannedRow(pivot, partials[1])?.suffix(6),
      [.text("b"), .integer(0), .integer(1), .integer(0), .empty, .empty])
  }

  func testWideRowPlan_DamagedKeys_Skipped() throws {
    let pivot = WidePivot()
    _ = pivot.add(makeRun([result("q", .text, .text("v"))], uuid: "R1"))
    let plan = try XCTUnwrap(pivot.rowPlan(taskID: "survey"))
    var sources: [CellSource] = []
    // A negative key, a question out of range, an option out of range, a missing key.
    let keys: [Int64?] = [-1, 99 << 32, 1 << 32 | 7, nil]
    plan.sources(cellCount: 5 + 2 * keys.count + 1, into: &sources) { index in
      keys[(index - 5) / 2]
    }
    XCTAssertEqual(sources, [.cell(0), .cell(1), .cell(2), .cell(3), .cell(4), .empty])
    XCTAssertNil(pivot.rowPlan(taskID: "other"))
  }
}

/// The CSV export's one pass over a run's answers: its rows and its wide share, as made apart.
final class WideShareInOnePassTests: XCTestCase {
  func testRowsAndWideShareInOnePass_SameAsApart_EveryAnswerKind() {
    // Every kind of answer, including those whose answers.csv value and wide value could part:
    // several values (packed as joined option texts), a generic result (its row's JSON names
    // its class, the wide value does not), a date-only answer (its local day), nulls.
    let generic = ResultRecord(
      identifier: "web", className: "ORKWebViewStepResult", answerType: .other,
      answer: .fields([Field("result", .string("ok")), Field("n", .number(NumberValue(3)))]),
      startDate: at(1), endDate: at(2))
    let run = makeRun([
      result("yes", .boolean, .boolean(true)),
      result("one", .choice, .choices([.text("a")]), questionType: 2),
      result("several", .choice, .choices([.text("a"), .number(NumberValue(2)), .null])),
      result("none", .choice, .choices([])),
      result("scale", .scale, .scale(NumberValue(7))),
      result("weight", .numeric, .numeric(NumberValue(70.5), unit: "kg", displayUnit: nil)),
      result("note", .text, .text("line one\nline \"two\"")),
      result(
        "day", .date,
        .date(
          DateAnswer(
            instant: at(0), timeZone: TimeZoneInfo(name: "Asia/Tokyo"), isDateOnly: true))),
      result("when", .date, .date(DateAnswer(instant: at(5)))),
      result("clock", .timeOfDay, .timeOfDay(TimeOfDay(hour: 7, minute: 30))),
      result("wait", .timeInterval, .timeInterval(90)),
      result(
        "where", .location,
        .location(LocationAnswer(latitude: 52.5, longitude: 13.4, address: "Berlin"))),
      result("parts", .multipleComponent, .components([.text("1"), .text("2")], separator: "/")),
      result("photo", .file, .file(FileAnswer(path: "a.jpg", contentType: "image/jpeg"))),
      result("skip", .text, .skipped),
      result("unsure", .text, .dontKnow),
      generic,
    ])
    let flattener = Flattener(timeZone: .utc)
    var builder = CellRowBuilder(columnCount: 0)
    let (rowCount, together) = flattener.appendAnswerRowsAndContribution(run, to: &builder)
    XCTAssertEqual(builder.rows, flattener.answerRows(run))
    XCTAssertEqual(rowCount, builder.rows.count)
    let apart = RunContribution(run, flattener: flattener)
    XCTAssertEqual(together.taskID, apart.taskID)
    XCTAssertEqual(together.runCells, apart.runCells)
    XCTAssertEqual(together.pairCount, apart.pairCount)
    var togetherPairs: [Cell] = []
    var apartPairs: [Cell] = []
    WidePivot().register(together) { togetherPairs += [.integer($0), $1] }
    WidePivot().register(apart) { apartPairs += [.integer($0), $1] }
    XCTAssertEqual(togetherPairs, apartPairs)
    XCTAssertEqual(togetherPairs.count, 2 * together.pairCount)
    XCTAssertEqual(together.results.count, 17)
    for (one, other) in zip(together.results, apart.results) {
      XCTAssertEqual(one.key, other.key)
      XCTAssertEqual(one.packed, other.packed, one.key.item)
      XCTAssertEqual(one.kinds, other.kinds, one.key.item)
      XCTAssertEqual(
        [one.isChoice, one.allowsSeveral, one.isAnswered],
        [other.isChoice, other.allowsSeveral, other.isAnswered], one.key.item)
      XCTAssertEqual(one.options.map(\.text), other.options.map(\.text), one.key.item)
      XCTAssertEqual(one.options.map(\.number), other.options.map(\.number), one.key.item)
    }
    // The generic result's wide value is its fields' JSON without the class (the row's has it).
    let web = together.results.last
    XCTAssertEqual(web?.packed, .text(#"{"result":"ok","n":3}"#))
    XCTAssertNotEqual(
      builder.rows.last.flatMap { cell($0, "value", in: ExportSchemas.answers) }, web?.packed)
  }
}
