// The workbook's deflate level and threads: the zip's own records say which level each entry
// got, both levels and any thread count store the same bytes, and an independent reader
// inflates them.
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

  func testClose_AnyThreadCount_SameFileEveryEntryDeflatedInBlocks() throws {
    let scratch = try XLSXScratch()
    var files = [Data]()
    for threads in [1, 2, 3] {
      let path = try writeWorkbook(in: scratch, compression: .fast, threads: threads) {
        XCTAssertEqual(
          $0.core.entriesDeflatedInBlocks, try ZipDirectory.entries(of: $0.path).count,
          "\(threads) threads: every entry deflated in blocks")
      }
      files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    XCTAssertTrue(files[0] == files[1], "1 and 2 threads: the same bytes")
    XCTAssertTrue(files[0] == files[2], "1 and 3 threads: the same bytes")
  }

  func testClose_FourWorkbooksAtOnce_EachWhole() throws {
    // The shim keeps its entry per closing thread: four workbooks closed at the same time
    // (each thread with its own workers) come out the same as one closed alone. (A race
    // check: with the entry shared between threads it crashed in about half the runs.)
    let scratch = try XLSXScratch()
    let alone = try Data(
      contentsOf: URL(fileURLWithPath: writeWorkbook(in: scratch, compression: .fast)))
    let paths = (0..<4).map { scratch.path("together-\($0).xlsx") }
    nonisolated(unsafe) var failures = [Error?](repeating: nil, count: paths.count)
    let schema = self.schema
    DispatchQueue.concurrentPerform(iterations: paths.count) { index in
      do {
        try Self.fill(path: paths[index], schema: schema, compression: .fast, threads: 2).close()
      } catch {
        failures[index] = error
      }
    }
    for failure in failures { XCTAssertNil(failure) }
    for path in paths {
      XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: path)) == alone, path)
    }
  }

  func testClose_InBlocks_InflatesToWhatTheLibraryDeflatesItself() throws {
    // Threads 0 is libxlsxwriter's own way (minizip deflating each entry whole). The blocks
    // must hold the same bytes: the central directories agree on sizes and CRC-32s, and
    // ZIPFoundation (zlib's inflate, CRC-32 checked) reads every entry back to the same bytes.
    let scratch = try XLSXScratch()
    for compression in XLSXWorkbook.Compression.allCases {
      let library = try writeWorkbook(in: scratch, compression: compression, threads: 0) {
        XCTAssertEqual($0.core.entriesDeflatedInBlocks, 0)
      }
      let blocks = try writeWorkbook(in: scratch, compression: compression, threads: 2)
      let libraryEntries = try ZipDirectory.entries(of: library)
      let blockEntries = try ZipDirectory.entries(of: blocks)
      XCTAssertEqual(libraryEntries.map(\.name), blockEntries.map(\.name))
      for (one, other) in zip(libraryEntries, blockEntries) {
        XCTAssertEqual(one.uncompressedSize, other.uncompressedSize, one.name)
        XCTAssertEqual(one.crc32, other.crc32, one.name)
        XCTAssertEqual(one.flags & 0b110, other.flags & 0b110, "\(one.name): same level flagged")
        // Blocks restart the matcher every 128 KB (primed with the 32 KB before): a few
        // bytes more, never a worse level.
        XCTAssertLessThan(
          Double(other.compressedSize), Double(one.compressedSize) * 1.02 + 64, one.name)
      }
      let libraryParts = try ZipContents.inflate(library)
      let blockParts = try ZipContents.inflate(blocks)
      XCTAssertEqual(libraryParts.map(\.name), blockParts.map(\.name))
      for (one, other) in zip(libraryParts, blockParts) {
        XCTAssertTrue(one.bytes == other.bytes, "\(compression) \(one.name): the same bytes")
      }
      let sheet = try XCTUnwrap(blockParts.first { $0.name == "xl/worksheets/sheet1.xml" })
      XCTAssertGreaterThan(sheet.bytes.count, 4 * 131_072, "a sheet of several blocks")
    }
  }

  /// A workbook of 20,000 rows of repetitive text and numbers, with a fixed creation time so
  /// two of them differ only by their compression; `check` looks at it once closed.
  private func writeWorkbook(
    in scratch: XLSXScratch, compression: XLSXWorkbook.Compression,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount,
    check: (XLSXWorkbook) throws -> Void = { _ in }
  ) throws -> String {
    let path = scratch.path("\(compression.rawValue)-\(UUID().uuidString).xlsx")
    let workbook = try Self.fill(
      path: path, schema: schema, compression: compression, threads: threads)
    try workbook.close()
    XCTAssertTrue(workbook.compressionApplied, "every entry at the level asked for")
    try check(workbook)
    return path
  }
}

extension XLSXCompressionTests {
  /// The 20,000 rows of `writeWorkbook`, not closed yet.
  static func fill(
    path: String, schema: TableSchema, compression: XLSXWorkbook.Compression, threads: Int
  ) throws -> XLSXWorkbook {
    let options = XLSXWorkbook.Options(
      created: Date(timeIntervalSince1970: 1_700_000_000), compression: compression,
      compressionThreads: threads)
    let workbook = try XLSXWorkbook(path: path, options: options)
    let sheet = try workbook.addTableSheet(name: "t", schema: schema)
    for index in 0..<20_000 {
      try sheet.write([
        .text("P\(index % 97)"), .text("answer \(index % 13) of the daily check-in"),
        .number(text: String(Double(index) / 7), value: Double(index) / 7),
      ])
    }
    return workbook
  }
}
