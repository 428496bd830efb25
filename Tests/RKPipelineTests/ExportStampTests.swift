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

final class SummarySecondsTests: XCTestCase {
  /// The summary's seconds as `String(format: "%.1f")` writes them: exact halves to even,
  /// values just off a half, subnormals, and 200,000 random values of every magnitude.
  func testOneDecimal_SameAsPrintf() {
    var random = SplitMix(seed: 291_127)
    let fixed: [Double] = [
      0, .leastNonzeroMagnitude, 1e-300, 0.04, 0.05, 0.05.nextDown, 0.05.nextUp, 0.15, 0.25, 0.35,
      0.45, 0.75,
      1.25, 2.25, 2.5, 3.05, 9.95, 99.95, 0.1, 1, 4.2, 123_456.75, 1e13 + 0.25, 99_999_999.95,
    ]
    var values = fixed
    for _ in 0..<100_000 { values.append(Double.random(in: 0..<1000, using: &random)) }
    for _ in 0..<100_000 {
      let bits = UInt64.random(in: 0...(0x42D6_BCC4_1E90_0000 as UInt64), using: &random)
      values.append(Double(bitPattern: bits))  // every magnitude below 1e14
    }
    var wrong: [Double] = []
    for value in values where oneDecimal(value) != String(format: "%.1f", value) {
      wrong.append(value)
    }
    XCTAssertEqual(wrong.prefix(5).map { "\($0)" }, [], "\(wrong.count) values differ")
    XCTAssertEqual(oneDecimal(.infinity), String(format: "%.1f", Double.infinity))
    XCTAssertEqual(oneDecimal(-1.25), "-1.2")
  }
}
