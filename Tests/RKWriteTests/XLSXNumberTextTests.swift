// Number cells hold the shortest text that reads back as the same double (CXLSXNumbers), not
// printf's %.16G: read from the sheet's XML as ZIPFoundation inflates it.
import CXLSXNumbers
import CXLSXWriter
import Foundation
import RKTable
import XCTest
import ZIPFoundation

@testable import RKWrite

final class XLSXNumberTextTests: XCTestCase {
  /// Values and the text each must have in the sheet. %.16G would have written
  /// `0.3000000000000000` → `0.3` for the first and `39.075` for the second: other doubles.
  private let cases: [(value: Double, text: String)] = [
    (0.1 + 0.2, "0.30000000000000004"),
    (39.074999999999996, "39.074999999999996"),
    (42_991.612104988424, "42991.612104988424"),
    (1, "1"),
    (-0.0, "-0"),
    (-1.5, "-1.5"),
    (9.059, "9.059"),
    (1e-5, "1e-05"),
    (.leastNonzeroMagnitude, "5e-324"),
    (1e22, "1e+22"),
    (1.2345678901234568e20, "1.2345678901234568e+20"),
    (9_007_199_254_740_992, "9007199254740992"),
    (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
  ]

  func testNumberCells_ShortestRoundTripText_EveryStyle() throws {
    let scratch = try XLSXScratch()
    let path = scratch.path("numbers.xlsx")
    let schema = XLSXFixture.schema(
      "n", [("number", .number), ("seconds", .number), ("count", .integer)])
    let workbook = try XLSXWorkbook(path: path)
    let sheet = try workbook.addTableSheet(name: "n", schema: schema)
    let before = rk_xlsx_numbers_formatted()
    for (value, _) in cases {
      try sheet.write([.number(text: "\(value)", value: value), .seconds(1.5), .integer(7)])
    }
    try workbook.close()
    XCTAssertEqual(
      Int(rk_xlsx_numbers_formatted() - before), 3 * cases.count,
      "every number cell, plain and styled, written through the formatter")

    let values = try Self.cellValues(in: path, sheet: "xl/worksheets/sheet1.xml")
    // Each row: the number (a plain cell), then two styled ones: seconds and an integer.
    XCTAssertEqual(values.count, 3 * cases.count)
    for (index, expected) in cases.enumerated() {
      let text = values[3 * index]
      XCTAssertEqual(text, expected.text)
      let read = try XCTUnwrap(Double(text), text)
      XCTAssertEqual(read.bitPattern, expected.value.bitPattern, "\(text) reads back the same")
      XCTAssertEqual(values[3 * index + 1], "1.5")
      XCTAssertEqual(values[3 * index + 2], "7")
    }
  }

  func testCellsAroundTheNumber_ByteForByteWhatPrintfWrites() throws {
    // The same workbook twice, the second with every number left to printf (no formatter),
    // with numbers whose %.16G is already the shortest text: the sheets are the same bytes
    // (the cell reference, the style, the markup around the value).
    let scratch = try XLSXScratch()
    func write(_ name: String) throws -> [String: Data] {
      let path = scratch.path(name)
      let schema = XLSXFixture.schema(
        "t", [("text", .string), ("number", .number), ("seconds", .number), ("count", .integer)])
      let options = XLSXWorkbook.Options(created: Date(timeIntervalSince1970: 1_700_000_000))
      let workbook = try XLSXWorkbook(path: path, options: options)
      let sheet = try workbook.addTableSheet(name: "t", schema: schema)
      for index in 0..<2_000 {
        try sheet.write([
          .text("P\(index)"), .number(text: "\(index).25", value: Double(index) + 0.25),
          .seconds(Double(index % 60) + 0.5), .integer(Int64(index) - 1_000),
        ])
      }
      try workbook.close()
      var xml = [String: Data]()
      for part in try ZipContents.inflate(path) where part.name.hasPrefix("xl/worksheets/") {
        xml[part.name] = part.bytes
      }
      return xml
    }
    let ours = try write("ours.xlsx")
    rk_xlsx_set_number_formatter(nil)
    defer { rk_xlsx_set_number_formatter(XLSXNumberText.format) }
    let printf = try write("printf.xlsx")
    XCTAssertFalse(ours.isEmpty)
    XCTAssertEqual(Set(ours.keys), Set(printf.keys))
    for (name, bytes) in ours {
      XCTAssertTrue(bytes == printf[name], "\(name): the same bytes as printf's")
    }
  }

  func testNonFiniteNumber_LeftToPrintf() throws {
    // rkexport writes NaN and infinities as text cells; libxlsxwriter itself, asked for one,
    // still gets printf's spelling, as before.
    let scratch = try XLSXScratch()
    let path = scratch.path("infinite.xlsx")
    let workbook = try XCTUnwrap(workbook_new(path))
    let worksheet = try XCTUnwrap(workbook_add_worksheet(workbook, nil))
    XCTAssertEqual(worksheet_write_number(worksheet, 0, 0, .infinity, nil), LXW_NO_ERROR)
    XCTAssertEqual(worksheet_write_number(worksheet, 0, 1, 2.5, nil), LXW_NO_ERROR)
    XCTAssertEqual(workbook_close(workbook), LXW_NO_ERROR)
    XCTAssertEqual(
      try Self.cellValues(in: path, sheet: "xl/worksheets/sheet1.xml"), ["INF", "2.5"])
  }

  func testFormatter_DirectCalls() {
    var buffer = [CChar](repeating: 0, count: 48)
    func text(_ value: Double) -> String {
      let count = XLSXNumberText.format(value, &buffer, buffer.count)
      return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    XCTAssertEqual(text(100), "100")
    XCTAssertEqual(text(0.5), "0.5")
    XCTAssertEqual(text(-2.25e-300), "-2.25e-300")
    var small = [CChar](repeating: 0, count: 8)
    XCTAssertEqual(XLSXNumberText.format(1.5, &small, small.count), 0, "too small a buffer")
  }

  /// The `<v>` texts of one sheet, in order.
  static func cellValues(in path: String, sheet: String) throws -> [String] {
    let xml = try XCTUnwrap(
      ZipContents.inflate(path).first { $0.name == sheet }, "\(sheet) in \(path)")
    let text = String(decoding: xml.bytes, as: UTF8.self)
    var values = [String]()
    var rest = text[...]
    while let open = rest.range(of: "<v>"),
      let close = rest.range(of: "</v>", range: open.upperBound..<rest.endIndex)
    {
      values.append(String(rest[open.upperBound..<close.lowerBound]))
      rest = rest[close.upperBound...]
    }
    return values
  }
}
