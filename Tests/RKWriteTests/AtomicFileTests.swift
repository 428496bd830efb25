// Atomic outputs: the final name appears only on commit; abandon leaves the old file alone.
import Foundation
import XCTest

@testable import RKWrite

final class AtomicFileTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")

  override func setUpWithError() throws { folder = try makeScratchFolder() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  private func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  func testAtomicFile_Commit_RenamesAndLeavesNoTemporary() throws {
    let path = folder.appendingPathComponent("out.csv").path
    let file = try AtomicFile(path: path)
    XCTAssertTrue(file.temporaryPath.hasPrefix(folder.path + "/.out.csv."))
    XCTAssertTrue(file.temporaryPath.hasSuffix(".tmp"))
    try file.write(Array("a,b\n".utf8))
    XCTAssertFalse(FileManager.default.fileExists(atPath: path), "not visible before commit")
    try file.commit()
    XCTAssertEqual(try names(), ["out.csv"])
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "a,b\n")
  }

  /// A name starting with a combining mark (a task named by a lone accent: found by fuzzing):
  /// the slash before it and the mark are one Character, and the temporary file went into a
  /// folder named `.wide` that does not exist; the export failed.
  func testAtomicFile_NameStartingWithCombiningMark_InItsFolder() throws {
    let path = folder.path + "/\u{301}x.csv"
    let file = try AtomicFile(path: path)
    // By bytes: `hasPrefix` compares Characters, and `.` joins the mark after it.
    XCTAssertTrue(
      file.temporaryPath.utf8.starts(with: (folder.path + "/.\u{301}x.csv.").utf8),
      file.temporaryPath)
    try file.write(Array("a\n".utf8))
    try file.commit()
    XCTAssertEqual(try names(), ["\u{301}x.csv"])
  }

  func testAtomicFile_LargerThanFlushChunks_CommitsEveryByteInOrder() throws {
    // A flush starts on another thread every 8 MiB while writing; the committed file must
    // still be whole.
    let path = folder.appendingPathComponent("big.csv").path
    let file = try AtomicFile(path: path)
    let piece = 3 << 20
    for index in 0..<7 { try file.write([UInt8](repeating: UInt8(index), count: piece)) }
    try file.commit()
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    XCTAssertEqual(bytes.count, 7 * piece)
    for index in 0..<7 {
      XCTAssertEqual(Set(bytes[(index * piece)..<((index + 1) * piece)]), [UInt8(index)])
    }
  }

  func testAtomicFile_FlushBegunBetweenWrites_CommitsEveryByteInOrder() throws {
    let path = folder.appendingPathComponent("out.csv").path
    let file = try AtomicFile(path: path)
    var expected = ""
    for index in 0..<50 {
      let line = "row \(index)\n"
      try file.write(Array(line.utf8))
      expected += line
      file.beginFlush()
      if index % 7 == 0 { file.beginFlush() }  // asking again while one waits is harmless
    }
    try file.commit()
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), expected)
    XCTAssertEqual(try names(), ["out.csv"])
  }

  func testAtomicFile_FlushBegunThenAbandoned_KeepsOlderFileAndNoTemporary() throws {
    let path = folder.appendingPathComponent("out.csv").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    let file = try AtomicFile(path: path)
    try file.write([UInt8](repeating: 0x61, count: 1 << 20))
    file.beginFlush()
    file.abandon()
    XCTAssertEqual(try names(), ["out.csv"])
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n")
  }

  func testBackgroundFlush_DescriptorThatCannotBeFlushed_ReportsTheFirstError() throws {
    // fdatasync on a pipe fails with EINVAL: the error must reach `finish()` (and through it
    // `AtomicFile.commit()`), since a later fsync of the same file may not report it again.
    var ends: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&ends), 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let flusher = BackgroundFlush(descriptor: ends[1])
    flusher.wrote(1)  // a request with nothing written since the last one asks for nothing
    flusher.request()
    flusher.wrote(1)
    flusher.request()
    XCTAssertEqual(flusher.finish(), EINVAL)
    XCTAssertEqual(flusher.finish(), EINVAL, "kept, not consumed")
  }

  func testBackgroundFlush_NothingRequested_FinishesWithoutError() {
    XCTAssertEqual(BackgroundFlush(descriptor: -1).finish(), 0)
  }

  func testAtomicFile_Abandon_KeepsOlderFile() throws {
    let path = folder.appendingPathComponent("out.csv").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    let file = try AtomicFile(path: path)
    try file.write(Array("new\n".utf8))
    file.abandon()
    file.abandon()
    XCTAssertEqual(try names(), ["out.csv"])
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n")
    XCTAssertThrowsError(try file.commit())
  }

  func testAtomicFile_Commit_ReplacesOlderFile() throws {
    let path = folder.appendingPathComponent("out.csv").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    let file = try AtomicFile(path: path)
    try file.write(Array("new\n".utf8))
    try file.commit()
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new\n")
    XCTAssertEqual(try names(), ["out.csv"])
  }

  func testAtomicFile_DroppedWithoutCommit_RemovesTemporary() throws {
    do {
      let file = try AtomicFile(path: folder.appendingPathComponent("x.csv").path)
      try file.write(Array("x".utf8))
      XCTAssertEqual(try names().count, 1)
    }
    XCTAssertEqual(try names(), [])
  }

  func testAtomicFile_ForeignWriterOnTemporaryPath_CommitMovesIt() throws {
    let path = folder.appendingPathComponent("book.xlsx").path
    let file = try AtomicFile(path: path)
    try file.closeDescriptor()
    try "zip bytes".write(toFile: file.temporaryPath, atomically: false, encoding: .utf8)
    try file.commit()
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "zip bytes")
    XCTAssertEqual(try names(), ["book.xlsx"])
  }
}
