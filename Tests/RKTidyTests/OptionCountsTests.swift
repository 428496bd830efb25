// The statistics' option tallies: found by comparing texts while few, by index past
// `OptionCounts.linearLimit`; either way each run counts once per option.
import XCTest

@testable import RKTidy

final class OptionCountsTests: XCTestCase {
  func testFewOptions_CountedOncePerRun_InFirstChosenOrder() {
    var counts = OptionCounts()
    counts.count("b", runNumber: 1)
    counts.count("a", runNumber: 1)
    counts.count("b", runNumber: 1)  // the same run again: not counted
    counts.count(nil, runNumber: 2)
    counts.count("b", runNumber: 2)
    XCTAssertEqual(counts.keys, ["b", "a", nil])
    XCTAssertEqual(counts["b"]?.count, 2)
    XCTAssertEqual(counts["a"]?.count, 1)
    XCTAssertEqual(counts[nil]?.count, 1)
    XCTAssertNil(counts["c"])
  }

  func testManyOptions_PastTheLimit_SameCounts() {
    var counts = OptionCounts()
    let total = OptionCounts.linearLimit + 8
    // Run r chooses options 0..<r (so option i is chosen by runs i+1 ... total), and option
    // 0 twice in each run.
    for run in 1...total {
      for option in 0..<run { counts.count("option \(option)", runNumber: run) }
      counts.count("option 0", runNumber: run)
    }
    counts.count(nil, runNumber: total)
    XCTAssertEqual(counts.keys, (0..<total).map { "option \($0)" } + [nil])
    for option in 0..<total {
      XCTAssertEqual(counts["option \(option)"]?.count, total - option, "option \(option)")
    }
    XCTAssertEqual(counts[nil]?.count, 1)
    XCTAssertNil(counts["option \(total)"])
  }
}
