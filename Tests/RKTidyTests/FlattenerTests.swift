// Task runs and steps rows, and the answers rows' shared columns.
import RKModel
import RKTable
import XCTest

@testable import RKTidy

final class FlattenerTests: XCTestCase {
  let flattener = Flattener()

  func testTaskRunRow_DeviceAndMetadata_ExactCells() {
    var taskRun = TaskRun(
      taskIdentifier: "survey", runUUID: "0A1B", startDate: t0, endDate: at(90.25),
      device: DeviceInfo(
        product: "iPhone12,1", platform: "iOS", osVersion: "17.2", osBuild: "21C62"),
      metadata: [
        Field("appVersion", .string("version 1.2, build 7")),
        Field("phoneInfo", .string("iPhone 6")),
      ],
      steps: [StepRecord(identifier: "intro"), StepRecord(identifier: "q1")],
      participantID: "P001", source: "P001/survey.archive")
    XCTAssertEqual(
      flattener.taskRunRow(taskRun),
      [
        .text("P001"), .text("survey"), .text("0A1B"), .instant(millisecondsSince1970: t0ms),
        .instant(millisecondsSince1970: t0ms + 90_250), .seconds(90.25), .integer(2),
        .text("P001/survey.archive"), .text("iPhone12,1"), .text("iOS"), .text("17.2"),
        .text("21C62"), .text("version 1.2, build 7"), .text(#"{"phoneInfo":"iPhone 6"}"#),
      ])
    taskRun.metadata = []
    XCTAssertEqual(flattener.taskRunRow(taskRun).last, .empty)
    XCTAssertEqual(flattener.taskRunRow(taskRun).count, ExportSchemas.taskRuns.columns.count)
  }

  func testTaskRunRow_MissingUUIDAndDates_EmptyCells() {
    let taskRun = TaskRun(taskIdentifier: "t", source: "x.json")
    XCTAssertEqual(
      flattener.taskRunRow(taskRun),
      [
        .text(""), .text("t"), .empty, .empty, .empty, .empty, .integer(0), .text("x.json"),
        .empty, .empty, .empty, .empty, .empty, .empty,
      ])
  }

  func testTaskRunRow_UnwritableInstants_EmptyNotTrap() {
    let taskRun = TaskRun(
      taskIdentifier: "t", startDate: Instant(secondsSinceReferenceDate: .nan),
      endDate: Instant(secondsSinceReferenceDate: 1e300))
    let row = flattener.taskRunRow(taskRun)
    XCTAssertEqual(Array(row[3...5]), [.empty, .empty, .empty])
  }

  func testStepRows_InstructionAndQuestion_IndexedFromOne() {
    var taskRun = makeRun([result("q1", .text, .text("hi"))])
    taskRun.steps.insert(StepRecord(identifier: "intro", startDate: t0, endDate: at(2.5)), at: 0)
    taskRun.steps[1].startDate = at(2.5)
    let rows = flattener.stepRows(taskRun)
    XCTAssertEqual(rows.count, 2)
    XCTAssertEqual(
      rows[0],
      [
        .text("P001"), .text("survey"), .text("RUN-1"), .integer(1), .text("intro"),
        .instant(millisecondsSince1970: t0ms), .instant(millisecondsSince1970: t0ms + 2500),
        .seconds(2.5), .text("P001/a.archive"),
      ])
    XCTAssertEqual(rows[1][3], .integer(2))
    XCTAssertEqual(rows[1][4], .text("q1"))
    XCTAssertEqual(rows[1][7], .empty, "no end date: no duration")
  }

  func testAnswerRows_InstructionStepOnly_NoRows() {
    let taskRun = TaskRun(
      taskIdentifier: "t", steps: [StepRecord(identifier: "intro", startDate: t0, endDate: at(1))])
    XCTAssertEqual(flattener.answerRows(taskRun), [])
    XCTAssertEqual(flattener.stepRows(taskRun).count, 1)
  }

  func testAnswerRows_Boolean_ExactRow() {
    let rows = flattener.answerRows(makeRun([result("smoker", .boolean, .boolean(true))]))
    XCTAssertEqual(
      rows,
      [
        [
          .text("P001"), .text("survey"), .text("RUN-1"), .text("smoker"), .text("smoker"),
          .text("boolean"), .text("answered"), .integer(1), .bool(true), .integer(1), .empty,
          .empty, ms(10), .instant(millisecondsSince1970: t0ms + 12_500), .seconds(2.5),
          .text("P001/a.archive"), .empty, .empty, .empty, .empty,
        ]
      ])
    let falseRow = flattener.answerRows(makeRun([result("smoker", .boolean, .boolean(false))]))[0]
    XCTAssertEqual(cell(falseRow, "value", in: ExportSchemas.answers), .bool(false))
    XCTAssertEqual(cell(falseRow, "value_number", in: ExportSchemas.answers), .integer(0))
  }

  func testAnswerRows_FormStep_StepAndItemIDs() {
    let form = StepRecord(
      identifier: "about_you",
      results: [
        result("age", .numeric, .numeric(NumberValue(41), unit: nil, displayUnit: nil)),
        result("name", .text, .text("Ann")),
      ])
    let rows = flattener.answerRows(
      TaskRun(taskIdentifier: "survey", steps: [form], participantID: "P1", source: "s"))
    XCTAssertEqual(rows.map { $0[3] }, [.text("about_you"), .text("about_you")])
    XCTAssertEqual(rows.map { $0[4] }, [.text("age"), .text("name")])
    XCTAssertEqual(rows.map { $0[8] }, [num("41", 41), .text("Ann")])
  }

  func testAnswerRows_ResultAndStepExtra_NotAnswers() {
    var record = result("q", .text, .text("x"))
    record.extra = [Field("questionText", .string("What?"))]
    var taskRun = makeRun([record])
    taskRun.steps[0].extra = [Field("userInfo", .dictionary([]))]
    let rows = flattener.answerRows(taskRun)
    XCTAssertEqual(rows.count, 1)
    XCTAssertEqual(rows[0][8], .text("x"))
  }

  func testAnswerRowCount_MixedAnswers_MatchesRows() {
    let taskRun = makeRun([
      result("a", .choice, .choices([.text("x"), .text("y"), .text("z")])),
      result("b", .choice, .choices([])),
      result("c", .text, .skipped),
      result("d", .multipleComponent, .components([.text("5"), .text("10")], separator: "'")),
    ])
    XCTAssertEqual(flattener.answerRows(taskRun).count, 7)
    XCTAssertEqual(flattener.answerRowCount(taskRun), 7)
  }

  func testAnswerRows_EveryRow_HasSchemaWidth() {
    let taskRun = makeRun([
      result("a", .choice, .choices([.number(NumberValue(1)), .null])),
      result("b", .file, .file(FileAnswer(path: "x.m4a", contentType: "audio/mp4"))),
    ])
    for row in flattener.answerRows(taskRun) {
      XCTAssertEqual(row.count, ExportSchemas.answers.columns.count)
    }
  }

  func testColumnText_EveryAnswerTypeAndStatus_IsItsRawValueAndPlain() {
    // The answers row writes these without quoting or a formula guard.
    func isPlain(_ text: String) -> Bool {
      text.first?.isLetter == true && text.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_") }
    }
    for type in AnswerType.allCases {
      XCTAssertEqual("\(type.columnText)", type.rawValue)
      XCTAssertTrue(isPlain(type.rawValue), type.rawValue)
    }
    for status in AnswerStatus.allCases {
      XCTAssertEqual("\(status.columnText)", status.rawValue)
      XCTAssertTrue(isPlain(status.rawValue), status.rawValue)
    }
    // The cell builder gets the same text cells as before.
    var builder = CellRowBuilder()
    builder.appendPlainText(AnswerType.timeOfDay.columnText)
    builder.endRow()
    XCTAssertEqual(builder.rows, [[.text("time_of_day")]])
  }
}
