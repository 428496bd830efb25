// The delta folder's suffix and the state file's `exportedAt`, against the Foundation
// formatters they replace.
import Foundation
import RKTestSupport
import XCTest

@testable import RKPipeline

final class ExportStampTests: XCTestCase {
  func testStampAndISO8601_SameTextAsFoundationsFormatters() {
    let stampFormatter = DateFormatter()
    stampFormatter.locale = Locale(identifier: "en_US_POSIX")
    stampFormatter.timeZone = TimeZone(identifier: "UTC")
    stampFormatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let isoFormatter = ISO8601DateFormatter()
    var random = SplitMix(seed: 20_261_127)
    let fixed: [Double] = [0, 0.4995, 0.9996, 951_868_799.9999, 1_764_255_600, 4_102_444_799.5]
    for seconds in fixed + (0..<1_000).map({ _ in Double.random(in: 0...4e9, using: &random) }) {
      let date = Date(timeIntervalSince1970: seconds)
      XCTAssertEqual(ExportRun.stamp(date), stampFormatter.string(from: date), "\(seconds)")
      XCTAssertEqual(ExportRun.iso8601(date), isoFormatter.string(from: date), "\(seconds)")
    }
    XCTAssertEqual(ExportRun.stamp(Date(timeIntervalSince1970: 1_706_666_400)), "20240131T020000Z")
  }
}
