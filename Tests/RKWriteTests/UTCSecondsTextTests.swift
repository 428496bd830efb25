// The lock file's and the state file's timestamps, against Foundation's formatter they replace.
import Foundation
import RKTable
import RKTestSupport
import XCTest

final class UTCSecondsTextTests: XCTestCase {
  /// `ISO8601.utcSeconds` writes what `ISO8601DateFormatter().string(from:)` writes, for
  /// whole and fractional seconds, before 1970, around leap days and up to year 9999.
  func testUTCSeconds_SameTextAsFoundationsFormatter() {
    let formatter = ISO8601DateFormatter()
    var random = SplitMix(seed: 1127)
    let fixed: [Double] = [
      0, 0.999, -0.001, -1, 951_782_400, 951_868_799.5, 1_764_255_600.25, 253_402_300_799,
      -2_208_988_800,
    ]
    let seconds = fixed + (0..<2_000).map { _ in Double.random(in: -2e9...4e9, using: &random) }
    for value in seconds {
      XCTAssertEqual(
        ISO8601.utcSeconds(value), formatter.string(from: Date(timeIntervalSince1970: value)),
        "\(value)")
    }
    XCTAssertEqual(ISO8601.utcSeconds(1_764_255_600.75), "2025-11-27T15:00:00Z")
    XCTAssertEqual(ISO8601.utcSeconds(.nan), "")
  }
}
