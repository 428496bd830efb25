// The workbook's deflate level: the zip's own records say which one each entry got, and the
// two levels store the same bytes.
import Foundation
import RKTable
import XCTest

@testable import RKImport
@testable import RKWrite

final class XLSXCompressionTests: XCTestCase {
  private let schema = XLSXFixture.schema(
    "t", [("id", .string), ("note", .string), ("n", .number)])

  func testClose_Fast_EveryEntryDeflatedAndFlaggedSuperFast() throws {
    let scratch = try XLSXScratch()
    let path = try writeWorkbook(in: scratch, compression: .fast)
    let entries = try ZipDirectory.entries(of: path)
    XCTAssertGreaterThan(entries.count, 5, "a workbook has its parts, sheets and properties")
    for entry in entries {
      XCTAssertEqual(entry.method, 8, "\(entry.name): deflated")
      // APPNOTE 4.4.4, method 8: bits 1 and 2 both set = "super fast", zlib level 1.
      XCTAssertEqual(entry.flags & 0b110, 0b110, "\(entry.name): flagged super fast")
    }
  }

  func testClose_Standard_EveryEntryAtTheLibrarysDefaultLevel() throws {
    let scratch = try XLSXScratch()
    let path = try writeWorkbook(in: scratch, compression: .standard)
    let entries = try ZipDirectory.entries(of: path)
    XCTAssertGreaterThan(entries.count, 5)
    for entry in entries {
      XCTAssertEqual(entry.method, 8, "\(entry.name): deflated")
      // Bits 1 and 2 clear = "normal": minizip's record of level 6, what libxlsxwriter asks.
      XCTAssertEqual(entry.flags & 0b110, 0, "\(entry.name): flagged normal")
    }
  }

  func testClose_FastAndStandard_SameBytesStoredFastOnesLarger() throws {
    let scratch = try XLSXScratch()
    let fast = try ZipDirectory.entries(of: writeWorkbook(in: scratch, compression: .fast))
    let standard = try ZipDirectory.entries(of: writeWorkbook(in: scratch, compression: .standard))
    XCTAssertEqual(fast.map(\.name), standard.map(\.name))
    for (one, other) in zip(fast, standard) {
      // Same length and CRC-32 of the uncompressed bytes: the level changed nothing stored.
      XCTAssertEqual(one.uncompressedSize, other.uncompressedSize, one.name)
      XCTAssertEqual(one.crc32, other.crc32, one.name)
    }
    let sheet = try XCTUnwrap(fast.first { $0.name == "xl/worksheets/sheet1.xml" })
    let sheetStandard = try XCTUnwrap(standard.first { $0.name == "xl/worksheets/sheet1.xml" })
    XCTAssertGreaterThan(sheet.uncompressedSize, 500_000, "large enough for the levels to differ")
    XCTAssertGreaterThan(sheet.compressedSize, sheetStandard.compressedSize)
  }

  func testClose_AfterAFastWorkbook_ThisThreadsNextZipIsNotLeveled() throws {
    // The level is the closing thread's and is reset after the close: a standard workbook
    // closed next on the same thread is flagged normal.
    let scratch = try XLSXScratch()
    _ = try writeWorkbook(in: scratch, compression: .fast)
    let entries = try ZipDirectory.entries(
      of: writeWorkbook(in: scratch, compression: .standard))
    XCTAssertTrue(entries.allSatisfy { $0.flags & 0b110 == 0 })
  }

  /// A workbook of 20,000 rows of repetitive text and numbers, with a fixed creation time so
  /// two of them differ only by their compression.
  private func writeWorkbook(in scratch: XLSXScratch, compression: XLSXWorkbook.Compression)
    throws -> String
  {
    let path = scratch.path("\(compression.rawValue)-\(UUID().uuidString).xlsx")
    let options = XLSXWorkbook.Options(
      created: Date(timeIntervalSince1970: 1_700_000_000), compression: compression)
    let workbook = try XLSXWorkbook(path: path, options: options)
    let sheet = try workbook.addTableSheet(name: "t", schema: schema)
    for index in 0..<20_000 {
      try sheet.write([
        .text("P\(index % 97)"), .text("answer \(index % 13) of the daily check-in"),
        .number(text: String(Double(index) / 7), value: Double(index) / 7),
      ])
    }
    try workbook.close()
    XCTAssertTrue(workbook.compressionApplied, "every entry at the level asked for")
    return path
  }
}

/// The central directory of a written zip, read by the scanner the importer checks zips with.
enum ZipDirectory {
  static func entries(of path: String) throws -> [ZipDirectoryRecord] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return try ZipCentralDirectory.scan(length: Int64(bytes.count), limits: ZipLimits()) {
      offset, count in
      let start = Int(offset)
      guard start >= 0, count >= 0, start + count <= bytes.count else { return nil }
      return Array(bytes[start..<(start + count)])
    }
  }
}
