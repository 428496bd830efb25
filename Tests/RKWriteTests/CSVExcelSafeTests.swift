// --excel-safe: exact bytes of guarded text cells, untouched numbers, and off by default.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class CSVExcelSafeTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")

  override func setUpWithError() throws { folder = try makeScratchFolder() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  private func writtenBytes(_ names: [String], _ rows: [[Cell]], excelSafe: Bool) throws -> [UInt8]
  {
    let path = folder.appendingPathComponent("t.csv").path
    let schema = TableSchema(name: "t", columns: names.map { Column($0, .string, "test column") })
    let writer = try CSVWriter(path: path, schema: schema, excelSafe: excelSafe)
    for row in rows { try writer.write(row) }
    try writer.finish()
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func testExcelSafe_FormulaTriggers_GetQuotePrefixExactBytes() throws {
    let bytes = try writtenBytes(
      ["a", "b", "c", "d", "e", "f"],
      [
        [
          .text("=1+1"), .text("+cmd"), .text("-2+3+cmd|' /C calc'!A0"), .text("@SUM(A1)"),
          .text("\tx"), .text("\ry"),
        ]
      ], excelSafe: true)
    // Cell 3 holds no comma or quote-needing byte, `'` is not special in RFC 4180; cell 6 is
    // quoted because it holds a CR.
    let expected = "a,b,c,d,e,f\n'=1+1,'+cmd,'-2+3+cmd|' /C calc'!A0,'@SUM(A1),'\tx,\"'\ry\"\n"
    XCTAssertEqual(bytes, Array(expected.utf8))
  }

  func testExcelSafe_GuardedTextWithComma_IsQuotedAfterPrefix() throws {
    let bytes = try writtenBytes(
      ["a"], [[.text("=HYPERLINK(\"http://x\",\"y\")")]], excelSafe: true)
    XCTAssertEqual(bytes, Array("a\n\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\n".utf8))
  }

  func testExcelSafe_NumberCells_StayNumbers() throws {
    let bytes = try writtenBytes(
      ["n", "i", "s", "b"],
      [[.number(text: "-5", value: -5), .integer(-12), .seconds(-0.25), .bool(false)]],
      excelSafe: true)
    XCTAssertEqual(bytes, Array("n,i,s,b\n-5,-12,-0.25,false\n".utf8))
  }

  func testExcelSafe_PlainDecimalText_IsKept() throws {
    let bytes = try writtenBytes(
      ["a", "b", "c", "d", "e"],
      [[.text("-5"), .text("+3.25"), .text("-1e-3"), .text("-.5"), .text("-5.")]],
      excelSafe: true)
    XCTAssertEqual(bytes, Array("a,b,c,d,e\n-5,+3.25,-1e-3,-.5,-5.\n".utf8))
  }

  func testExcelSafe_NumberLikeButNotNumber_IsGuarded() {
    let guarded = ["-", "+", "-e5", "-1e", "-1-1", "-5 ", "-1,5", "+41 79 123", "-.", "--1"]
    for text in guarded {
      XCTAssertEqual(CSVWriter.excelSafeText(text), "'" + text, text)
    }
  }

  func testExcelSafe_OrdinaryText_IsUnchanged() {
    for text in ["", "abc", " =1", "a=b", "'=1", "P001", "2016-05-16", "é=1"] {
      XCTAssertEqual(CSVWriter.excelSafeText(text), text, text)
    }
  }

  func testExcelSafe_HeaderFromInput_IsGuarded() throws {
    let bytes = try writtenBytes(
      ["participant_id", "=q1"], [[.text("P001"), .empty]], excelSafe: true)
    XCTAssertEqual(bytes, Array("participant_id,'=q1\nP001,\n".utf8))
  }

  func testExcelSafe_Off_WritesTextUnchanged() throws {
    let bytes = try writtenBytes(["=q1"], [[.text("=1+1")], [.text("@x")]], excelSafe: false)
    XCTAssertEqual(bytes, Array("=q1\n=1+1\n@x\n".utf8))
  }

  func testExcelSafe_DefaultInit_IsOff() throws {
    let path = folder.appendingPathComponent("d.csv").path
    let writer = try CSVWriter(path: path, schema: TableSchema(name: "d", columns: []))
    XCTAssertFalse(writer.excelSafe)
    writer.abandon()
  }
}
