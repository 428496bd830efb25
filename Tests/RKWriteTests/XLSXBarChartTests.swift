// Chart sheets: one bar chart per question over rows of the choices sheet.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class XLSXBarChartTests: XCTestCase {
  private let choices = XLSXFixture.schema(
    "choices",
    [
      ("task_id", .string), ("step_id", .string), ("item_id", .string), ("option", .string),
      ("count", .integer), ("percent", .number),
    ])

  private func writeChoices(_ sheet: XLSXTableSheet) throws {
    let rows: [(String, String, Int64)] = [
      ("mood", "good", 5), ("mood", "fair", 3), ("mood", "poor", 1),
      ("sleep", "yes", 7), ("sleep", "no", 2),
    ]
    for (item, option, count) in rows {
      try sheet.write([
        .text("survey"), .text(item), .text(item), .text(option), .integer(count), .empty,
      ])
    }
  }

  func testBarChartSheet_TwoQuestions_ChartsReferenceTheirRows() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("charts.xlsx"))
    let sheet = try workbook.addTableSheet(name: "choices", schema: choices)
    try writeChoices(sheet)
    let name = try workbook.addBarChartSheet(
      name: "Charts",
      charts: [
        XLSXBarChart(
          title: "mood", data: sheet, categoryColumn: "option", valueColumn: "count", rows: 0..<3),
        XLSXBarChart(
          title: "=sleep", data: sheet, categoryColumn: "option", valueColumn: "count",
          rows: 3..<5),
      ])
    try workbook.close()

    XCTAssertEqual(name, "Charts")
    let book = try XLSXScratch.readBack(scratch.path("charts.xlsx"))
    XCTAssertEqual(book.sheetNames, ["choices", "Charts"])
    XCTAssertEqual(book.charts.count, 2)
    // Data rows 0..<3 are sheet rows 2–4; option is column D, count column E.
    XCTAssertEqual(book.charts[0].ranges, ["choices!$D$2:$D$4", "choices!$E$2:$E$4"])
    XCTAssertEqual(book.charts[1].ranges, ["choices!$D$5:$D$6", "choices!$E$5:$E$6"])
    XCTAssertEqual(book.charts[0].titles, ["mood"])
    // A title starting with "=" stays text instead of becoming a formula.
    XCTAssertEqual(book.charts[1].titles, [" =sleep"])
    XCTAssertEqual(book.charts[0].barDirection, ["bar"])
  }

  func testBarChartSheet_UnknownColumn_ThrowsParameterValidation() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("bad.xlsx"))
    let sheet = try workbook.addTableSheet(name: "choices", schema: choices)
    try writeChoices(sheet)
    let chart = XLSXBarChart(
      title: "mood", data: sheet, categoryColumn: "option", valueColumn: "n", rows: 0..<3)
    XCTAssertThrowsError(try workbook.addBarChartSheet(name: "Charts", charts: [chart])) {
      XCTAssertEqual(($0 as? XLSXError)?.code, .parameterValidation)
    }
    try workbook.close()
  }

  func testBarChartSheet_RowsAcrossContinuation_ThrowsParameterValidation() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(
      path: scratch.path("split.xlsx"), options: .init(maxRowsPerSheet: 3))
    let sheet = try workbook.addTableSheet(name: "choices", schema: choices)
    try writeChoices(sheet)
    // Two data rows per sheet: rows 1 and 2 sit on different sheets.
    let chart = XLSXBarChart(
      title: "mood", data: sheet, categoryColumn: "option", valueColumn: "count", rows: 1..<3)
    XCTAssertThrowsError(try workbook.addBarChartSheet(name: "Charts", charts: [chart])) {
      XCTAssertEqual(($0 as? XLSXError)?.code, .parameterValidation)
    }
    try workbook.close()
  }
}
