// Tables past the row limit continue on new sheets; sheets written in turn keep every row.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class XLSXContinuationTests: XCTestCase {
  private let schema = XLSXFixture.schema("answers", [("row", .integer), ("text", .string)])

  func testContinuation_RowLimitFive_TenRowsOnThreeSheets() throws {
    let scratch = try XLSXScratch()
    // Five rows per sheet: the header and four data rows, as 1,048,576 would be in Excel.
    let workbook = try XLSXWorkbook(
      path: scratch.path("c.xlsx"), options: .init(maxRowsPerSheet: 5))
    let sheet = try workbook.addTableSheet(name: "answers", schema: schema)
    for index in 1...10 { try sheet.write([.integer(Int64(index)), .text("t\(index)")]) }
    try workbook.close()

    XCTAssertEqual(sheet.sheetNames, ["answers", "answers (2)", "answers (3)"])
    XCTAssertEqual(sheet.rowCount, 10)
    let book = try XLSXScratch.readBack(scratch.path("c.xlsx"))
    XCTAssertEqual(book.sheetNames, ["answers", "answers (2)", "answers (3)"])
    let expectedRows = [1...4, 5...8, 9...10]
    for (read, rows) in zip(book.sheets, expectedRows) {
      XCTAssertEqual(read.rows[0].map { $0?.value }, [.text("row"), .text("text")])
      XCTAssertEqual(read.rows.dropFirst().map { $0[0]?.value }, rows.map { .number(Double($0)) })
      XCTAssertEqual(read.freeze, "A2")
      XCTAssertEqual(read.filter, "A1:B\(rows.count + 1)")
    }
    let note = try XCTUnwrap(book.sheets[1].notes["A1"])
    XCTAssertTrue(note.contains("Continued from sheet \"answers\""), note)
    XCTAssertTrue(note.contains("rows 5 onwards"), note)
    XCTAssertEqual(
      workbook.warnings,
      [
        XLSXWarning(
          sheet: "answers", row: 5, column: nil, columnName: nil,
          kind: .tableContinued(continuation: "answers (2)")),
        XLSXWarning(
          sheet: "answers (2)", row: 5, column: nil, columnName: nil,
          kind: .tableContinued(continuation: "answers (3)")),
      ])
  }

  func testContinuation_ExactlyFullSheet_NoContinuation() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(
      path: scratch.path("f.xlsx"), options: .init(maxRowsPerSheet: 5))
    let sheet = try workbook.addTableSheet(name: "answers", schema: schema)
    for index in 1...4 { try sheet.write([.integer(Int64(index)), .empty]) }
    try workbook.close()

    XCTAssertEqual(try XLSXScratch.readBack(scratch.path("f.xlsx")).sheetNames, ["answers"])
    XCTAssertEqual(workbook.warnings, [])
  }

  func testInterleaved_ThreeSheetsInTurn_EveryRowKept() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("i.xlsx"))
    let names = ["task_runs", "steps", "answers"]
    let sheets = try names.map { try workbook.addTableSheet(name: $0, schema: schema) }
    for index in 1...300 {
      for (sheet, name) in zip(sheets, names) {
        try sheet.write([.integer(Int64(index)), .text("\(name)-\(index)")])
      }
    }
    try workbook.close()

    let book = try XLSXScratch.readBack(scratch.path("i.xlsx"))
    for name in names {
      let rows = try XCTUnwrap(book.sheet(name)).rows.dropFirst()
      XCTAssertEqual(rows.map { $0[1]?.value }, (1...300).map { .text("\(name)-\($0)") })
    }
  }
}
