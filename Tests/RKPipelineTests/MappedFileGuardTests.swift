// A mapped --state file cut short by another program: a message and exit status 3, no crash.
import CMapGuard
import Foundation
import XCTest

@testable import RKPipeline

final class MappedFileGuardTests: XCTestCase {
  private var path = ""

  override func setUpWithError() throws {
    path = uniqueTemporaryPath("mapped", suffix: ".json")
    // Three pages, so that a read in the third lies past the end once the file is cut short.
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: path, contents: Data(repeating: 0x20, count: 3 * 4096)))
  }

  override func tearDown() { try? FileManager.default.removeItem(atPath: path) }

  func testMappedFile_CutShortWhileMapped_MessageNamesFileAndExitStatus3() throws {
    let file = try XCTUnwrap(MappedFile(path: path))
    XCTAssertEqual(file.bytes[9000], 0x20)
    let writer = open(path, O_WRONLY | O_CLOEXEC)
    XCTAssertGreaterThanOrEqual(writer, 0)
    var ends: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&ends), 0)
    let bytes = file.bytes
    let child = fork()
    if child == 0 {
      // The child: only system calls and a load from the mapping (no allocation after fork).
      _ = dup2(ends[1], STDERR_FILENO)
      _ = ftruncate(writer, 4096)
      let byte = bytes[9000]  // past the new end: SIGBUS, which the guard turns into exit 3
      _exit(byte == 0x20 ? 0 : 1)
    }
    close(ends[1])
    close(writer)
    XCTAssertGreaterThan(child, 0)
    var output = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(ends[0], &chunk, chunk.count)
      guard count > 0 else { break }
      output += chunk[0..<count]
    }
    close(ends[0])
    var status: Int32 = 0
    XCTAssertEqual(waitpid(child, &status, 0), child)
    // WIFEXITED and WEXITSTATUS, which Swift does not import (they are macros).
    XCTAssertEqual(status & 0x7F, 0, "the child exited, not killed by a signal")
    XCTAssertEqual((status >> 8) & 0xFF, 3)
    XCTAssertEqual(
      String(decoding: output, as: UTF8.self),
      "rkexport: \(path): the file was cut short by another program while this run was "
        + "reading it; nothing was exported (run again)\n")
  }

  func testMapGuard_Slots_RegisteredUntilUnregisteredAndReused() {
    let storage = [UInt8](repeating: 0, count: 64)
    storage.withUnsafeBytes { bytes in
      let first = rk_map_guard_register(bytes.baseAddress, 64, "first")
      let second = rk_map_guard_register(bytes.baseAddress, 64, "second")
      XCTAssertGreaterThanOrEqual(first, 0)
      XCTAssertGreaterThanOrEqual(second, 0)
      XCTAssertNotEqual(first, second)
      rk_map_guard_unregister(first)
      let again = rk_map_guard_register(bytes.baseAddress, 64, "again")
      XCTAssertEqual(again, first, "a freed slot is taken again")
      rk_map_guard_unregister(again)
      rk_map_guard_unregister(second)
      XCTAssertEqual(rk_map_guard_register(nil, 64, "nothing mapped"), -1)
      XCTAssertEqual(rk_map_guard_register(bytes.baseAddress, 0, "empty"), -1)
    }
  }
}
