// writeDurably: the whole file under its name, or the older file untouched; never a temporary.
import Foundation
import XCTest

@testable import RKPipeline

final class WriteDurablyTests: XCTestCase {
  private var folder = ""

  override func setUpWithError() throws {
    folder = try makeTemporaryFolder("durably")
  }

  override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

  private struct ProducerFailed: Error {}

  func testWriteDurably_ChunksPastSeveralFlushes_WholeFileInOrder() throws {
    // 20 MiB in 1 MiB chunks: background flushes are asked for twice while writing.
    let path = folder + "/state.json"
    try writeDurably(to: path) { write in
      for index in 0..<20 { try write([UInt8](repeating: UInt8(index), count: 1 << 20)) }
    }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    XCTAssertEqual(bytes.count, 20 << 20)
    for index in 0..<20 {
      XCTAssertEqual(Set(bytes[(index << 20)..<((index + 1) << 20)]), [UInt8(index)])
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["state.json"])
  }

  func testWriteDurably_ProducerThrowsAfterFlushes_OlderFileKeptNoTemporary() throws {
    let path = folder + "/state.json"
    try writeDurably(Array("old".utf8), to: path)
    XCTAssertThrowsError(
      try writeDurably(to: path) { write in
        for _ in 0..<10 { try write([UInt8](repeating: 0x61, count: 1 << 20)) }
        throw ProducerFailed()
      })
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["state.json"])
  }
}
