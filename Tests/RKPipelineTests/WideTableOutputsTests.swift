// How the wide CSVs are shared out between two writing threads, and how a spooled row's task
// id finds its table.
import XCTest

@testable import RKPipeline

final class WideTableOutputsTests: XCTestCase {
  /// Half of the cost `rows × (columns + 8)` to each part, the table where the half falls
  /// split at the nearest row; worked by hand.
  func testWideShare_HalfTheCostToEachPart_TheMiddleTableSplit() {
    // Costs 100×(2+8) = 1000, 50×(12+8) = 1000, 200×(2+8) = 2000: half is 2000, reached at the
    // end of the second table: nothing to split.
    XCTAssertEqual(
      WideShare(rows: [100, 50, 200], columns: [2, 12, 2], parts: 2),
      WideShare(part: [0, 0, 1], split: nil, partCount: 2))
    // Five tables of 9,000 rows (the bench's): costs 9,000 × (8 + 13, 7, 9, 9, 8) = 189,000,
    // 135,000, 153,000, 153,000, 144,000; half of 774,000 is 387,000, inside the third, after
    // (387,000 − 324,000) / 17 = 3,705.9 of its rows: 3,706 stay with part 0.
    XCTAssertEqual(
      WideShare(rows: [9_000, 9_000, 9_000, 9_000, 9_000], columns: [13, 7, 9, 9, 8], parts: 2),
      WideShare(
        part: [0, 0, 0, 1, 1], split: .init(table: 2, firstRowOfPart1: 3_706), partCount: 2))
    // One table: split in the middle.
    XCTAssertEqual(
      WideShare(rows: [1_001], columns: [2], parts: 2),
      WideShare(part: [0], split: .init(table: 0, firstRowOfPart1: 501), partCount: 2))
    // One thread, no rows, one row: all part 0's.
    XCTAssertEqual(
      WideShare(rows: [7, 3], columns: [5, 5], parts: 1),
      WideShare(part: [0, 0], split: nil, partCount: 1))
    XCTAssertEqual(
      WideShare(rows: [0, 0], columns: [5, 5], parts: 2),
      WideShare(part: [0, 0], split: nil, partCount: 1))
    XCTAssertEqual(
      WideShare(rows: [1], columns: [5], parts: 2),
      WideShare(part: [0], split: nil, partCount: 1))
    XCTAssertEqual(WideShare(rows: [], columns: [], parts: 2).partCount, 1)
  }

  /// Any sizes: each part's cost is within one row of half, and only the split table is shared.
  func testWideShare_AnySizes_PartsWithinOneRowOfHalf() {
    for count in 1...40 {
      let rows = (0..<count).map { ($0 * 7919) % 1000 }
      let columns = (0..<count).map { 1 + ($0 * 31) % 40 }
      let share = WideShare(rows: rows, columns: columns, parts: 2)
      XCTAssertEqual(share.part.count, count)
      XCTAssertTrue(share.part.allSatisfy { $0 == 0 || $0 == 1 })
      var load = [0, 0]
      for table in 0..<count {
        let rowCost = columns[table] + WideShare.rowOverhead
        if let split = share.split, split.table == table {
          XCTAssertTrue(split.firstRowOfPart1 > 0 && split.firstRowOfPart1 < rows[table])
          load[0] += split.firstRowOfPart1 * rowCost
          load[1] += (rows[table] - split.firstRowOfPart1) * rowCost
        } else {
          load[share.part[table]] += rows[table] * rowCost
        }
      }
      // Part 0's tables come first; the largest row costs 48.
      XCTAssertEqual(share.part, share.part.sorted(), "\(count) tables")
      XCTAssertLessThanOrEqual(abs(load[0] - load[1]), 48, "\(count) tables: \(load)")
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

extension WideShare {
  /// A share as written out by hand.
  fileprivate init(part: [Int], split: Split?, partCount: Int) {
    self.init(rows: [], columns: [], parts: 1)
    self.part = part
    self.split = split
    self.partCount = partCount
  }
}
