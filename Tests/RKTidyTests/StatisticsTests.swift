// Exact sums, means and standard deviations, checked against Python's math.fsum by hand.
import RKTidy
import XCTest

final class StatisticsTests: XCTestCase {
  func testExactSum_TenthsThatDriftInNaiveSum_RoundCorrectly() {
    // Naive left-to-right: 0.6000000000000001; math.fsum: 0.6.
    XCTAssertEqual(Statistics.exactSum([0.1, 0.2, 0.3]), 0.6)
  }

  func testExactSum_Cancellation_KeepsSmallTerm() {
    XCTAssertEqual(Statistics.exactSum([1e16, 1, -1e16]), 1)
  }

  func testExactSum_HalfwayAcrossPartials_RoundsHalfEvenLikeFsum() {
    // math.fsum([1e-16, 1, 1e16]) = 1.0000000000000002e16; naive sum gives 1e16.
    XCTAssertEqual(Statistics.exactSum([1e-16, 1, 1e16]), 1.000_000_000_000_000_2e16)
  }

  func testExactSum_Overflow_IsNil() {
    XCTAssertNil(
      Statistics.exactSum([Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude]))
  }

  func testExactSum_Empty_IsZero() {
    XCTAssertEqual(Statistics.exactSum([]), 0)
  }

  func testExactSum_Order_DoesNotChangeResult() {
    let values: [Double] = [1e-3, 3.3, -7.25e10, 0.1, 7.25e10, 2.2, 1e-300]
    XCTAssertEqual(Statistics.exactSum(values), Statistics.exactSum(values.reversed()))
    XCTAssertEqual(Statistics.exactSum(values), Statistics.exactSum(values.sorted()))
  }

  func testMean_FourValues_IsTwoAndAHalf() {
    XCTAssertEqual(Statistics.mean([1, 2, 3, 4]), 2.5)
    XCTAssertNil(Statistics.mean([]))
  }

  func testStandardDeviation_FourValues_UsesNMinusOne() {
    // Squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5; sqrt(5 / 3).
    XCTAssertEqual(Statistics.standardDeviation([1, 2, 3, 4]), (5.0 / 3).squareRoot())
  }

  func testStandardDeviation_FewerThanTwoValues_IsNil() {
    XCTAssertNil(Statistics.standardDeviation([]))
    XCTAssertNil(Statistics.standardDeviation([42]))
  }

  func testStandardDeviation_EqualValues_IsZero() {
    XCTAssertEqual(Statistics.standardDeviation([3.3, 3.3, 3.3]), 0)
  }
}
