// A run's number in its file, read from its source as the duplicate-UUID index stores it.
import XCTest

@testable import RKPipeline

final class CheckedRunTests: XCTestCase {
  func testRunNumber_SourceForms_NumberOrZero() {
    let cases: [(source: String, file: String, number: Int32)] = [
      ("P1/a.archive", "P1/a.archive", 0),
      ("P1/a.archive#3", "P1/a.archive", 3),
      ("P1/a.archive#007", "P1/a.archive", 7),
      ("P1/a.archive#", "P1/a.archive", 0),
      ("P1/a.archive#x2", "P1/a.archive", 0),
      ("P1/a.archive#2147483647", "P1/a.archive", Int32.max),
      ("P1/a.archive#2147483648", "P1/a.archive", 0),
      ("P1/a.archive#+5", "P1/a.archive", 5),
      ("Zürich/é.json#2", "Zürich/é.json", 2),
      ("e\u{301}/a#4", "e\u{301}/a", 4),
      ("P1\r\n/a#2", "P1\r\n/a", 2),
      ("p1234abcd/a.archive#2", "P1/a.archive", 0),
    ]
    for (source, file, number) in cases {
      XCTAssertEqual(CheckedRun.runNumber(source: source, file: file), number, source)
      // The Character-based reading the byte path stands in for.
      let reference = source == file ? 0 : Int32(source.dropFirst(file.count + 1)) ?? 0
      XCTAssertEqual(number, reference, source)
    }
  }
}
