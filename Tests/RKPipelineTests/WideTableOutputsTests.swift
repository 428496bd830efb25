// How the wide CSVs are shared out between two writing threads, and how a spooled row's task
// id finds its table.
import XCTest

@testable import RKPipeline

final class WideTableOutputsTests: XCTestCase {
  func testShareOut_LongestFirstToTheLighterPart() {
    // 900 → part 0; 500 → 1; 400 → 1 (500 < 900); 300 → 0 (900 = 900: the lower part);
    // 10 → 1 (900 < 1200).
    XCTAssertEqual(
      WideTableOutputs.shareOut([400, 900, 10, 500, 300], parts: 2), [1, 0, 1, 1, 0])
    XCTAssertEqual(WideTableOutputs.shareOut([5, 5, 5, 5], parts: 2), [0, 1, 0, 1])
    XCTAssertEqual(WideTableOutputs.shareOut([7, 3], parts: 1), [0, 0])
    XCTAssertEqual(WideTableOutputs.shareOut([], parts: 2), [])
  }

  func testShareOut_EveryTableInOnePartWithinRange() {
    for count in 1...40 {
      let rows = (0..<count).map { ($0 * 7919) % 1000 }
      let parts = WideTableOutputs.shareOut(rows, parts: 2)
      XCTAssertEqual(parts.count, count)
      XCTAssertTrue(parts.allSatisfy { $0 == 0 || $0 == 1 })
      let load0 = zip(rows, parts).filter { $0.1 == 0 }.map(\.0).reduce(0, +)
      let load1 = zip(rows, parts).filter { $0.1 == 1 }.map(\.0).reduce(0, +)
      // Greedy longest-first: the parts differ by at most the longest table.
      XCTAssertLessThanOrEqual(abs(load0 - load1), rows.max() ?? 0, "\(count) tables")
    }
  }

  func testTableLookup_FewAndManyTables_FindByBytes() {
    for count in [1, TableLookup.smallCount, TableLookup.smallCount + 1, 200] {
      var index: [String: Int] = [:]
      for table in 0..<count { index["task_\(table)_ü"] = table }
      let lookup = TableLookup(index)
      for (taskID, table) in index {
        let found = Array(taskID.utf8).withUnsafeBufferPointer { lookup.table($0) }
        XCTAssertEqual(found, table, "\(count) tables, \(taskID)")
      }
      for absent in ["", "task_", "task_0_ü_", "TASK_0_ü"] {
        XCTAssertNil(Array(absent.utf8).withUnsafeBufferPointer { lookup.table($0) }, absent)
      }
    }
    XCTAssertNil(Array("x".utf8).withUnsafeBufferPointer { TableLookup([:]).table($0) })
  }
}
