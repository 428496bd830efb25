// Subfolders looked at ahead on other threads: every look, in the paths' order, and never more
// than a few chunks ahead of the walk (memory stays flat in wide trees).
import Foundation
import XCTest

@testable import RKImport

final class FolderLookaheadTests: XCTestCase {
  /// Counts the looks made, from any thread.
  private final class Count: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }

  func testLookahead_EveryLookInOrder_FewChunksAhead() {
    for total in [0, 1, 7, 8, 9, 50, 203] {
      let looked = Count()
      let paths = (0..<total).map { "folder-\($0)" }
      let lookahead = FolderLookahead(paths: paths) { path in
        looked.add()
        // The path's number, to tell the looks apart.
        let number = UInt64(path.dropFirst("folder-".count))!
        return FolderLook(
          identity: .init(device: 1, inode: number), isBridge: number % 3 == 0, listing: nil)
      }
      let size = FolderLookahead.chunkSize
      for index in 0..<total {
        let look = lookahead.next()
        XCTAssertEqual(look.identity, .init(device: 1, inode: UInt64(index)), "\(total)")
        XCTAssertEqual(look.isBridge, index % 3 == 0)
        // The chunk taken from and at most `chunksAhead` more started.
        let chunks = index / size + 1 + FolderLookahead.chunksAhead
        XCTAssertLessThanOrEqual(looked.value, chunks * size, "\(total) at \(index)")
      }
      // Every chunk was waited for: every look made, none twice.
      XCTAssertEqual(looked.value, total)
    }
  }
}
