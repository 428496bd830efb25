// Hand-checked type-7 quantiles: each expected value worked out from (n − 1) × p by hand and
// confirmed with numpy.percentile.
import RKTidy
import XCTest

final class QuantileTests: XCTestCase {
  func testQuantile_EmptySample_IsNil() {
    XCTAssertNil(Quantile.type7(sorted: [], probability: 0.5))
  }

  func testQuantile_ProbabilityOutsideUnitInterval_IsNil() {
    XCTAssertNil(Quantile.type7(sorted: [1, 2], probability: 1.5))
    XCTAssertNil(Quantile.type7(sorted: [1, 2], probability: -0.1))
    XCTAssertNil(Quantile.type7(sorted: [1, 2], probability: .nan))
  }

  func testQuantile_SingleValue_IsThatValue() {
    for p in [0, 0.25, 0.5, 0.9, 1.0] {
      XCTAssertEqual(Quantile.type7(sorted: [5], probability: p), 5)
    }
  }

  func testQuantile_TwoValues_InterpolatesLinearly() {
    // Index (2 − 1) × p, between 1 and 3.
    XCTAssertEqual(Quantile.type7(sorted: [1, 3], probability: 0), 1)
    XCTAssertEqual(Quantile.type7(sorted: [1, 3], probability: 0.25), 1.5)
    XCTAssertEqual(Quantile.type7(sorted: [1, 3], probability: 0.5), 2)
    XCTAssertEqual(Quantile.type7(sorted: [1, 3], probability: 0.75), 2.5)
    XCTAssertEqual(Quantile.type7(sorted: [1, 3], probability: 1), 3)
  }

  func testQuantile_FourValues_MatchesTextbookType7() {
    // Indexes 0.75, 1.5, 2.25 (0-based) → 1.75, 2.5, 3.25.
    let sorted: [Double] = [1, 2, 3, 4]
    XCTAssertEqual(Quantile.type7(sorted: sorted, probability: 0.25), 1.75)
    XCTAssertEqual(Quantile.median(sorted: sorted), 2.5)
    XCTAssertEqual(Quantile.type7(sorted: sorted, probability: 0.75), 3.25)
  }

  func testQuantile_Ties_StayOnTheTiedValue() {
    let sorted: [Double] = [2, 2, 2, 5]
    XCTAssertEqual(Quantile.type7(sorted: sorted, probability: 0.25), 2)
    XCTAssertEqual(Quantile.median(sorted: sorted), 2)
    XCTAssertEqual(Quantile.type7(sorted: sorted, probability: 0.75), 2.75)
  }

  func testQuantile_NegativeValues_HitExactOrderStatistics() {
    // n = 5: indexes 1, 2, 3 are whole, so the quartiles are order statistics.
    let sorted: [Double] = [-10, -4, -1, 0, 6]
    XCTAssertEqual(Quantile.type7(sorted: sorted, probability: 0.25), -4)
    XCTAssertEqual(Quantile.median(sorted: sorted), -1)
    XCTAssertEqual(Quantile.type7(sorted: sorted, probability: 0.75), 0)
    // numpy.percentile(..., 90) = 3.6000000000000005 (R gives 3.5999999999999979).
    XCTAssertEqual(Quantile.type7(sorted: sorted, probability: 0.9), 3.6000000000000005)
  }

  func testQuantile_UpperHalfFraction_RoundsAsNumpyNotR() {
    // numpy: 0.09 − 0.06 × 0.25 = 0.075; R: 0.25 × 0.03 + 0.75 × 0.09 = 0.07500000000000001.
    XCTAssertEqual(Quantile.type7(sorted: [0.03, 0.09], probability: 0.75), 0.075)
    // numpy.percentile([1, 3], 90) = 2.8; R quantile gives 2.7999999999999998.
    XCTAssertEqual(Quantile.type7(sorted: [1, 3], probability: 0.9), 2.8)
  }
}
