// The memo in front of the pivot's and the statistics' task tables.
import XCTest

@testable import RKTidy

final class RecentLookupsTests: XCTestCase {
  func testRecentLookups_WithinTheLimit_FindsEachNotedValue() {
    var lookups = RecentLookups<Int>(limit: 3)
    XCTAssertNil(lookups.value(for: "a"))
    lookups.note("a", 1)
    lookups.note("b", 2)
    lookups.note("c", 3)
    XCTAssertEqual(["a", "b", "c", "d"].map { lookups.value(for: $0) }, [1, 2, 3, nil])
  }

  func testRecentLookups_PastTheLimit_ForgetsTheOldest() {
    var lookups = RecentLookups<Int>(limit: 3)
    for (index, key) in ["a", "b", "c", "d", "e"].enumerated() { lookups.note(key, index) }
    XCTAssertEqual(["a", "b", "c", "d", "e"].map { lookups.value(for: $0) }, [nil, nil, 2, 3, 4])
  }

  func testRecentLookups_KeysCompareAsWholeTexts() {
    var lookups = RecentLookups<Int>()
    lookups.note("survey", 1)
    XCTAssertNil(lookups.value(for: "surve"))
    XCTAssertNil(lookups.value(for: "survey2"))
    XCTAssertEqual(lookups.value(for: "survey"), 1)
  }
}
