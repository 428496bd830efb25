import XCTest

@testable import RKImport

/// `InputImporter.source(_:_:)` writes `path#number` into one buffer; it must give exactly
/// the text interpolation gives, for any path and number.
final class RunSourceTextTests: XCTestCase {
  func testMatchesInterpolation() {
    let paths = [
      "", "a", "P00001/batch-000000.archive", "Zürich/résultats.archive",
      "日本/タスク.plist", "with space/and,comma\"quote", String(repeating: "x/", count: 200),
    ]
    let numbers = [0, 1, 2, 9, 10, 99, 100, 12_345, -1, -70, Int.max, Int.min]
    for path in paths {
      for number in numbers {
        XCTAssertEqual(InputImporter.source(path, number), "\(path)#\(number)")
      }
    }
  }

  func testSecondRunOfAFileIsNumbered() throws {
    // Two runs in one input: the second's source is the file's path and `#2`.
    XCTAssertEqual(InputImporter.source("P1/two-runs.archive", 2), "P1/two-runs.archive#2")
    XCTAssertEqual(InputImporter.source("P1/two-runs.archive", 2).utf8.count, 21)
  }
}
