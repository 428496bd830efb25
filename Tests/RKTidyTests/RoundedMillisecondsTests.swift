import RKModel
import RKTable
import RKTestSupport
import XCTest

/// The two roundings to whole milliseconds (RKTable's `roundedMilliseconds` for durations,
/// `Instant.millisecondsSince1970` for dates) against the standard library's `rounded()` (libm's
/// `round`), which they replace on the hot path: the same integer for every finite value below
/// 9e15, nil beyond.
final class RoundedMillisecondsTests: XCTestCase {
  /// Where truncation-and-fraction rounding could go wrong: halves of both signs, the largest
  /// double below one half (which `x + 0.5` rounding gets wrong), the edges of the exact range
  /// and of the fast path (4.5e15), and values that are not finite.
  static let edges: [Double] = [
    0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
    0.5000000000000001, 1234.5, -1234.5, 1_463_427_265_846.4999, 1_463_427_265_846.5,
    4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 4.5e15 - 0.5, 4.5e15, 4.5e15 + 1,
    8_999_999_999_999_998, 9.0e15 - 2, 9.0e15, -9.0e15, 1e300, .infinity, -.infinity, .nan,
    .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
  ]

  static func expected(_ milliseconds: Double) -> Int64? {
    let rounded = milliseconds.rounded(.toNearestOrAwayFromZero)
    guard rounded.isFinite, abs(rounded) < 9.0e15 else { return nil }
    return Int64(rounded)
  }

  /// The instant whose milliseconds since 1970 are `milliseconds` (up to the conversion's own
  /// rounding, which both sides of each comparison share).
  static func instant(_ milliseconds: Double) -> Instant {
    Instant(secondsSince1970: milliseconds / 1000)
  }

  func testRoundedMilliseconds_Edges_MatchRounded() {
    for value in Self.edges {
      XCTAssertEqual(roundedMilliseconds(value), Self.expected(value), "\(value)")
      let instant = Self.instant(value)
      XCTAssertEqual(
        instant.millisecondsSince1970, Self.expected(instant.secondsSince1970 * 1000), "\(value)")
    }
    // By hand: halves away from zero, the double just below a half down.
    XCTAssertEqual(roundedMilliseconds(2.5), 3)
    XCTAssertEqual(roundedMilliseconds(-2.5), -3)
    XCTAssertEqual(roundedMilliseconds(0.49999999999999994), 0)
    XCTAssertEqual(roundedMilliseconds(4_503_599_627_370_495.5), 4_503_599_627_370_496)
    XCTAssertNil(roundedMilliseconds(9.0e15))
    XCTAssertNil(roundedMilliseconds(.nan))
    XCTAssertEqual(
      Instant(secondsSinceReferenceDate: 485_120_065.8465).millisecondsSince1970,
      1_463_427_265_847)
    XCTAssertNil(Instant(secondsSinceReferenceDate: .infinity).millisecondsSince1970)
  }

  func testRoundedMilliseconds_ManyValues_MatchRounded() {
    // Values of every scale up to 1e16, and the same values cut to a half.
    var generator = SplitMix(seed: 0x5EED)
    for _ in 0..<100_000 {
      let scale = pow(10, Double(generator.next() % 17))
      let value = (Double(generator.next() >> 11) / Double(1 << 53) - 0.5) * 2 * scale
      let halved = (value * 2).rounded(.towardZero) / 2
      for milliseconds in [value, halved] {
        XCTAssertEqual(
          roundedMilliseconds(milliseconds), Self.expected(milliseconds), "\(milliseconds)")
        let instant = Self.instant(milliseconds)
        XCTAssertEqual(
          instant.millisecondsSince1970, Self.expected(instant.secondsSince1970 * 1000),
          "\(milliseconds)")
      }
    }
  }
}
