// Table sheets read back through openpyxl: cell types, dates, header, filter, widths.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class XLSXTableSheetTests: XCTestCase {
  private let mixed = XLSXFixture.schema(
    "answers",
    [
      ("participant_id", .string), ("value_number", .number), ("value_index", .integer),
      ("flag", .boolean), ("answer_start", .datetime), ("answer_duration_s", .number),
      ("unit", .string), ("value", .string),
    ])

  func testTableSheet_MixedCells_TypesKept() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("mixed.xlsx"))
    let sheet = try workbook.addTableSheet(name: "answers", schema: mixed)
    // 2016-05-16T19:34:25.846Z: a sub-second instant from the ResearchKit sample archives.
    try sheet.write([
      .text("007"), .number(text: "3.25", value: 3.25), .integer(42), .bool(true),
      .instant(millisecondsSince1970: 1_463_427_265_846), .seconds(1.5), .empty, .text("=1+1"),
    ])
    try workbook.close()

    let book = try XLSXScratch.readBack(scratch.path("mixed.xlsx"))
    let rows = try XCTUnwrap(book.sheet("answers")).rows
    XCTAssertEqual(rows.count, 2)
    XCTAssertEqual(rows[0].map { $0?.value }, mixed.columnNames.map { .text($0) })
    XCTAssertEqual(rows[1][0], XLSXFixture.text("007"))
    XCTAssertEqual(rows[1][1], XLSXFixture.number(3.25))
    XCTAssertEqual(rows[1][2], XLSXFixture.number(42, "0"))
    // Booleans carry a TRUE/FALSE number format so LibreOffice shows them as Excel does.
    XCTAssertEqual(rows[1][3], ReadCell("b", .bool(true), "\"TRUE\";\"TRUE\";\"FALSE\""))
    XCTAssertEqual(
      rows[1][4], ReadCell("d", .text("2016-05-16T19:34:25.846000"), "yyyy-mm-dd hh:mm:ss.000"))
    XCTAssertEqual(rows[1][5], XLSXFixture.number(1.5, "0.000"))
    XCTAssertNil(rows[1][6])
    // Text that looks like a formula stays text: no formula injection.
    XCTAssertEqual(rows[1][7], XLSXFixture.text("=1+1"))
  }

  func testTableSheet_ZurichZone_WallClockTimeAndZoneNote() throws {
    let scratch = try XLSXScratch()
    let zone = try XCTUnwrap(TimeZoneRule(identifier: "Europe/Zurich"))
    let workbook = try XLSXWorkbook(path: scratch.path("z.xlsx"), options: .init(timeZone: zone))
    let schema = TableSchema(
      name: "runs", columns: [Column("task_start", .datetime, "When the task began.")])
    let sheet = try workbook.addTableSheet(name: "runs", schema: schema)
    // Zurich is UTC+2 in summer (CEST) and UTC+1 in winter (CET).
    // 2016-05-16T19:34:25.846Z, then 2016-01-10T12:00:00.001Z.
    try sheet.write([.instant(millisecondsSince1970: 1_463_427_265_846)])
    try sheet.write([.instant(millisecondsSince1970: 1_452_427_200_001)])
    try workbook.close()

    let read = try XCTUnwrap(XLSXScratch.readBack(scratch.path("z.xlsx")).sheet("runs"))
    XCTAssertEqual(read.rows[1][0]?.value, .text("2016-05-16T21:34:25.846000"))
    XCTAssertEqual(read.rows[2][0]?.value, .text("2016-01-10T13:00:00.001000"))
    let note = try XCTUnwrap(read.notes["A1"])
    XCTAssertTrue(note.contains("task_start: When the task began."), note)
    XCTAssertTrue(note.contains("Europe/Zurich"), note)
  }

  func testTableSheet_Header_BoldFrozenFilteredOverRows() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("h.xlsx"))
    let schema = XLSXFixture.schema("s", [("a", .string), ("b", .string), ("c", .string)])
    let sheet = try workbook.addTableSheet(name: "steps", schema: schema)
    for index in 1...3 { try sheet.write([.text("r\(index)"), .empty, .empty]) }
    try workbook.close()

    let read = try XCTUnwrap(XLSXScratch.readBack(scratch.path("h.xlsx")).sheet("steps"))
    XCTAssertEqual(read.freeze, "A2")
    XCTAssertEqual(read.filter, "A1:C4")
    XCTAssertEqual(read.headerBold, [true, true, true])
    XCTAssertEqual(read.rows.map { $0[0]?.value }, ["a", "r1", "r2", "r3"].map { .text($0) })
  }

  func testTableSheet_Widths_FromHeaderAndRowsCapped() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("w.xlsx"))
    let schema = XLSXFixture.schema(
      "s", [("participant_id", .string), ("value", .string), ("task_start", .datetime)])
    let sheet = try workbook.addTableSheet(name: "s", schema: schema)
    try sheet.write([
      .text("P001"), .text(String(repeating: "x", count: 100)), .instant(millisecondsSince1970: 0),
    ])
    try workbook.close()

    let widths = try XCTUnwrap(XLSXScratch.readBack(scratch.path("w.xlsx")).sheet("s")).widths
    // Header of 14 characters + 3 for the filter button; text capped at 60; dates need 23.
    XCTAssertEqual(try XCTUnwrap(widths["A"]), 17, accuracy: 1)
    XCTAssertEqual(try XCTUnwrap(widths["B"]), 60, accuracy: 1)
    XCTAssertEqual(try XCTUnwrap(widths["C"]), 23, accuracy: 1)
  }

  func testTableSheet_TextOverCellLimit_CutWithMarkerAndWarning() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("t.xlsx"))
    let schema = XLSXFixture.schema("answers", [("item_id", .string), ("value", .string)])
    let sheet = try workbook.addTableSheet(name: "answers", schema: schema)
    try sheet.write([.text("q1"), .text("short")])
    try sheet.write([.text("q2"), .text(String(repeating: "a", count: 40_000))])
    try workbook.close()

    let read = try XCTUnwrap(XLSXScratch.readBack(scratch.path("t.xlsx")).sheet("answers"))
    let marker = "…[truncated]"
    let expected = String(repeating: "a", count: 32_767 - marker.count) + marker
    XCTAssertEqual(read.rows[2][1], XLSXFixture.text(expected))
    XCTAssertEqual(
      workbook.warnings,
      [
        XLSXWarning(
          sheet: "answers", row: 3, column: 2, columnName: "value",
          kind: .textTruncated(originalLength: 40_000))
      ])
  }

  func testTableSheet_ValuesExcelCannotHold_KeptAsText() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("v.xlsx"))
    let schema = XLSXFixture.schema(
      "s", [("n", .number), ("i", .integer), ("t", .datetime), ("d", .number)])
    let sheet = try workbook.addTableSheet(name: "s", schema: schema)
    // 1850-01-01T00:00:00Z is -3,786,825,600 s: before Excel's first valid date (1900-03-01).
    try sheet.write([
      .number(text: "NaN", value: .nan), .integer(1_234_567_890_123_456_789),
      .instant(millisecondsSince1970: -3_786_825_600_000), .seconds(.infinity),
    ])
    try workbook.close()

    let row = try XCTUnwrap(XLSXScratch.readBack(scratch.path("v.xlsx")).sheet("s")).rows[1]
    XCTAssertEqual(row[0], XLSXFixture.text("NaN"))
    XCTAssertEqual(row[1], XLSXFixture.text("1234567890123456789"))
    XCTAssertEqual(row[2], XLSXFixture.text("1850-01-01T00:00:00.000Z"))
    XCTAssertEqual(row[3], XLSXFixture.text("inf"))
  }

  func testTableSheet_RowOfWrongWidth_ThrowsParameterValidation() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("r.xlsx"))
    let sheet = try workbook.addTableSheet(
      name: "s", schema: XLSXFixture.schema("s", [("a", .string), ("b", .string)]))
    XCTAssertThrowsError(try sheet.write([.text("only one")])) { error in
      XCTAssertEqual((error as? XLSXError)?.code, .parameterValidation)
      XCTAssertEqual((error as? XLSXError)?.row, 2)
    }
    try workbook.close()
  }

  func testTableSheet_EscapeLookalikesAndNUL_StoredAsOOXMLEscapes() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("e.xlsx"))
    let sheet = try workbook.addTableSheet(
      name: "s", schema: XLSXFixture.schema("s", [("value", .string)]))
    for text in ["_x0041_", "a\u{0}b", "cr\r", "_x12_"] { try sheet.write([.text(text)]) }
    try workbook.close()

    // openpyxl shows inline strings undecoded: the stored form, per ECMA-376 ST_Xstring.
    let rows = try XCTUnwrap(XLSXScratch.readBack(scratch.path("e.xlsx")).sheet("s")).rows
    XCTAssertEqual(
      rows.dropFirst().map { $0[0]?.value },
      ["_x005F_x0041_", "a_x0000_b", "cr_x000D_", "_x005F_x12_"].map { .text($0) })
  }

  func testCellWrite_RowAboveCurrent_ThrowsIndexOutOfRangeWithPlace() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("o.xlsx"))
    let sheet = try workbook.addTableSheet(
      name: "answers", schema: XLSXFixture.schema("answers", [("item_id", .string)]))
    try sheet.write([.text("q1")])
    try sheet.write([.text("q2")])
    // Constant-memory mode has flushed row 2; libxlsxwriter refuses it (error 23) instead of
    // writing, and the refusal must surface rather than lose the cell.
    let late = XLSXRows(encoding: [[.text("late")]], timeZone: .utc)
    let writeLate = {
      try late.text.withUnsafeBufferPointer {
        try sheet.write(late.entries[0], text: $0, row: 1, on: sheet.segments[0])
      }
    }
    XCTAssertThrowsError(try writeLate()) {
      let failure = $0 as? XLSXError
      XCTAssertEqual(failure?.code, .worksheetIndexOutOfRange)
      XCTAssertEqual(failure?.sheet, "answers")
      XCTAssertEqual(failure?.row, 2)
      XCTAssertEqual(failure?.column, 1)
      XCTAssertEqual(failure?.columnName, "item_id")
    }
    try workbook.close()
  }
}
