// The display paths of zip items found at import: every number gives back its path, whether the
// paths and their ends went to the scratch files or stayed in memory.
import Foundation
import RKTestSupport
import XCTest

@testable import RKPipeline

final class ZipItemPathsTests: XCTestCase {
  /// Paths of every length from 0 to 40 bytes, non-ASCII ones among them.
  private let paths = (0..<5_000).map { number in
    "P\(number % 7)/upload\(number).zip!/" + String(repeating: "é", count: number % 13)
  }

  private func check(_ store: ZipItemPaths, file: StaticString = #filePath, line: UInt = #line) {
    for (index, path) in paths.enumerated() {
      XCTAssertEqual(store.path(1_000 + index), path, file: file, line: line)
    }
    // Numbers never given: the plan's own, and past the last.
    XCTAssertEqual(store.path(999), "", file: file, line: line)
    XCTAssertEqual(store.path(1_000 + paths.count), "", file: file, line: line)
  }

  func testPaths_WrittenInSmallPieces_EveryNumberGivesItsPath() throws {
    let directory = try makeTemporaryFolder("zip-items")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // 100 bytes and 7 ends at a time: both files are written hundreds of times, and a
    // path's start and end are often read from different places (file and memory).
    let store = ZipItemPaths(
      directory: directory, firstNumber: 1_000, flushSize: 100, endsPerFlush: 7)
    for (index, path) in paths.enumerated() {
      XCTAssertEqual(store.add(path), 1_000 + index)
      // Read back as they come too (the consumer asks while adding).
      if index % 997 == 0 { XCTAssertEqual(store.path(1_000 + index), path) }
    }
    // The files are unlinked: the folder stays empty.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
    check(store)
  }

  func testPaths_NoScratchFile_KeptInMemory() {
    let store = ZipItemPaths(
      directory: "/nonexistent/rkexport", firstNumber: 1_000, flushSize: 100, endsPerFlush: 7)
    for (index, path) in paths.enumerated() { XCTAssertEqual(store.add(path), 1_000 + index) }
    check(store)
  }
}
