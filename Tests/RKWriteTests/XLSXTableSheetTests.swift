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
    XCTAssertEqual(rows[1][3], ReadCell("b", .bool(true)))
    XCTAssertEqual(
      rows[1][4], ReadCell("d", .text("2016-05-16T19:34:25.846000"), "yyyy-mm-dd hh:mm:ss.000"))
    XCTAssertEqual(rows[1][5], XLSXFixture.number(1.5, "0.000"))
    XCTAssertNil(rows[1][6])
    // Text that looks like a formula stays text: no formula injection.
    XCTAssertEqual(rows[1][7], XLSXFixture.text("=1+1"))
  }
}
