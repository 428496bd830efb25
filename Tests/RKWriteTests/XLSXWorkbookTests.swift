// Workbook life cycle: properties, atomic output, errors at close, use after close.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class XLSXWorkbookTests: XCTestCase {
  private let schema = XLSXFixture.schema("t", [("a", .string)])

  func testProperties_TitleCreatedVersionZone_Stored() throws {
    let scratch = try XLSXScratch()
    let zone = try XCTUnwrap(TimeZoneRule(identifier: "Europe/Zurich"))
    let options = XLSXWorkbook.Options(
      title: "rkexport results", created: Date(timeIntervalSince1970: 1_577_934_245),
      rkexportVersion: "0.1.0", timeZone: zone)
    let workbook = try XLSXWorkbook(path: scratch.path("p.xlsx"), options: options)
    _ = try workbook.addTableSheet(name: "t", schema: schema)
    try workbook.close()

    let book = try XLSXScratch.readBack(scratch.path("p.xlsx"))
    XCTAssertEqual(book.title, "rkexport results")
    // 1,577,934,245 s after 1970 is 2020-01-02T03:04:05Z.
    XCTAssertEqual(book.created, "2020-01-02T03:04:05")
    XCTAssertEqual(
      book.description, "Written by rkexport 0.1.0. Date-time cells are in Europe/Zurich.")
    XCTAssertEqual(book.custom, ["rkexport_version": "0.1.0", "time_zone": "Europe/Zurich"])
  }

  func testSheetTemporaryFiles_InTheOutputsFolder_NotTheSystemTemporaryFolder() throws {
    // libxlsxwriter keeps each sheet's rows in an unlinked temporary file (GBs for a large
    // export): beside the output, on its disk, not in /tmp (maybe small, or a tmpfs in RAM).
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("t.xlsx"))
    let sheet = try workbook.addTableSheet(name: "t", schema: schema)
    for index in 0..<3 { try sheet.write([.text("row \(index)")]) }
    let unlinked = try Self.openUnlinkedFiles()
    let inFolder = unlinked.filter { $0.hasPrefix(scratch.folder.path + "/") }
    XCTAssertFalse(inFolder.isEmpty, "the sheet's temporary file, open and unlinked: \(unlinked)")
    XCTAssertTrue(
      unlinked.filter { $0.hasPrefix("/tmp/tmp") }.isEmpty, "none in /tmp: \(unlinked)")
    try workbook.close()
    XCTAssertEqual(try scratch.contents(), ["t.xlsx"])
  }

  /// Paths of the files this process holds open after they were unlinked.
  private static func openUnlinkedFiles() throws -> [String] {
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    return descriptors.compactMap { name -> String? in
      guard
        let target = try? FileManager.default.destinationOfSymbolicLink(
          atPath: "/proc/self/fd/" + name), target.hasSuffix(" (deleted)")
      else { return nil }
      return String(target.dropLast(" (deleted)".count))
    }
  }

  func testClose_Success_OnlyTheOutputFileRemains() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("results.xlsx"))
    let sheet = try workbook.addTableSheet(name: "t", schema: schema)
    try sheet.write([.text("x")])
    XCTAssertEqual(try scratch.contents().count, 1)
    XCTAssertFalse(try scratch.contents().contains("results.xlsx"), "written under a temp name")
    try workbook.close()
    XCTAssertEqual(try scratch.contents(), ["results.xlsx"])
  }

  func testInit_MissingFolder_ThrowsOutputFile() throws {
    let scratch = try XLSXScratch()
    let path = scratch.path("missing/results.xlsx")
    XCTAssertThrowsError(try XLSXWorkbook(path: path)) { error in
      let failure = error as? XLSXError
      XCTAssertEqual(failure?.code, .outputFile)
      XCTAssertEqual(failure?.path, path)
      XCTAssertTrue(failure?.description.contains("No such file or directory") ?? false)
    }
  }

  func testClose_FolderRemovedBeforeClose_ThrowsAndLeavesNothing() throws {
    let scratch = try XLSXScratch()
    let folder = scratch.folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("results.xlsx").path
    let workbook = try XLSXWorkbook(path: path)
    try workbook.addTableSheet(name: "t", schema: schema).write([.text("x")])
    // The folder vanishes (unmounted, deleted) while rows are written: close must say so.
    try FileManager.default.removeItem(at: folder)
    XCTAssertThrowsError(try workbook.close()) { error in
      let failure = error as? XLSXError
      XCTAssertEqual(failure?.code, .creatingXLSXFile)
      XCTAssertEqual(failure?.path, path)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
  }

  func testClose_Twice_ThrowsWorkbookClosed() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("c.xlsx"))
    let sheet = try workbook.addTableSheet(name: "t", schema: schema)
    try workbook.close()
    XCTAssertThrowsError(try workbook.close()) { error in
      XCTAssertEqual((error as? XLSXError)?.code, .workbookClosed)
    }
    XCTAssertThrowsError(try sheet.write([.text("late")])) { error in
      XCTAssertEqual((error as? XLSXError)?.code, .workbookClosed)
    }
  }

  func testDeinit_WithoutClose_LeavesNoFile() throws {
    let scratch = try XLSXScratch()
    do {
      let workbook = try XLSXWorkbook(path: scratch.path("abandoned.xlsx"))
      try workbook.addTableSheet(name: "t", schema: schema).write([.text("x")])
    }
    XCTAssertEqual(try scratch.contents(), [])
  }

  func testAddTableSheet_DuplicateAndInvalidNames_Repaired() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("n.xlsx"))
    let wanted = ["answers", "Answers", "wide/survey", "'x'"]
    let names = try wanted.map { try workbook.addTableSheet(name: $0, schema: schema).name }
    try workbook.close()

    XCTAssertEqual(names, ["answers", "Answers ~2", "wide_survey", "x"])
    XCTAssertEqual(try XLSXScratch.readBack(scratch.path("n.xlsx")).sheetNames, names)
  }

  func testAddTableSheet_NoColumns_ThrowsIndexOutOfRange() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("e.xlsx"))
    XCTAssertThrowsError(
      try workbook.addTableSheet(name: "e", schema: TableSchema(name: "e", columns: []))
    ) { error in
      XCTAssertEqual((error as? XLSXError)?.code, .worksheetIndexOutOfRange)
    }
    try workbook.close()
  }
}
