// Order statistics by selection against the plain definition: the sample sorted ascending
// (`Array.sort()`, what the statistics used before), compared bit for bit.
import RKTestSupport
import XCTest

@testable import RKTidy

final class OrderStatisticsTests: XCTestCase {
  /// Every position, asked in a shuffled order, holds what the sorted sample holds there.
  func testOrderStatistics_AnyPositionInAnyOrder_IsTheSortedSamplesValue() {
    var random = SplitMix(seed: 2026_11_27)
    for count in [0, 1, 2, 63, 64, 65, 100, 257, 1000, 5000] {
      for kind in 0..<4 {
        let sample = Self.sample(count: count, kind: kind, random: &random)
        let sorted = sample.sorted()
        var order = OrderStatistics(sample)
        XCTAssertEqual(order.count, count)
        for position in (0..<count).shuffled(using: &random).prefix(40) {
          XCTAssertEqual(
            order.value(at: position).bitPattern, sorted[position].bitPattern,
            "count \(count), kind \(kind), position \(position)")
        }
      }
    }
  }

  /// What the summaries use: the quartiles' and the median's neighbours in increasing order,
  /// the same position twice, and the extremes.
  func testOrderStatistics_QuantilesAndExtremes_MatchTheSortedSample() {
    var random = SplitMix(seed: 11)
    for count in [64, 65, 99, 1001, 20_000] {
      for kind in 0..<4 {
        let sample = Self.sample(count: count, kind: kind, random: &random)
        let sorted = sample.sorted()
        var order = OrderStatistics(sample)
        for probability in [0, 0.25, 0.5, 0.5, 0.75, 0.9, 1] {
          XCTAssertEqual(
            Quantile.type7(&order, probability: probability)?.bitPattern,
            Quantile.type7(sorted: sorted, probability: probability)?.bitPattern,
            "count \(count), kind \(kind), p \(probability)")
        }
        XCTAssertEqual(order.extremes?.minimum, sorted.first)
        XCTAssertEqual(order.extremes?.maximum, sorted.last)
        XCTAssertEqual(order.sample.sorted(), sorted, "the sample is only reordered")
      }
    }
  }

  func testNumericSummary_BySelection_EqualsTheSortedSummary() {
    var random = SplitMix(seed: 5)
    for count in [1, 2, 3, 64, 65, 500, 10_000] {
      for kind in 0..<4 {
        let sample = Self.sample(count: count, kind: kind, random: &random)
        XCTAssertEqual(
          NumericSummary(OrderStatistics(sample)), NumericSummary(sorted: sample.sorted()),
          "count \(count), kind \(kind)")
      }
    }
    XCTAssertNil(NumericSummary(OrderStatistics([])))
  }

  /// 0 and −0 are equal but print differently ("0" and "-0"): the sort keeps them in arrival
  /// order, and so must the quantiles. Such a sample is sorted, not selected.
  func testOrderStatistics_ZeroAndNegativeZero_KeepTheSortsArrivalOrder() {
    for negativeFirst in [true, false] {
      var sample = [Double](repeating: 1, count: 50) + [Double](repeating: -1, count: 50)
      let zeros: [Double] = negativeFirst ? [-0.0, 0.0, -0.0] : [0.0, -0.0, 0.0]
      sample.insert(contentsOf: zeros, at: 30)
      let sorted = sample.sorted()
      var order = OrderStatistics(sample)
      for position in [51, 50, 52] {
        XCTAssertEqual(order.value(at: position).bitPattern, sorted[position].bitPattern)
      }
      // Positions 50...52 hold the three zeros in arrival order.
      XCTAssertEqual(order.value(at: 50).sign, negativeFirst ? .minus : .plus)
    }
    // Many zeros of both signs among other values: every position, asked in turn, is what the
    // sort put there. (Selected instead of sorted, the zeros land in partition order.)
    let mixed = (0..<400).map { (index: Int) -> Double in
      if index % 2 == 1 { return Double(index % 7 - 3) }
      return index % 4 == 0 ? 0.0 : -0.0
    }
    let sortedMixed = mixed.sorted()
    var mixedOrder = OrderStatistics(mixed)
    for position in mixed.indices {
      XCTAssertEqual(
        mixedOrder.value(at: position).bitPattern, sortedMixed[position].bitPattern,
        "position \(position)")
    }
  }

  /// Not finite values (which the statistics leave out before) and magnitudes whose exact sum
  /// could overflow in another order are sorted too: the same result as before, and no hang.
  func testOrderStatistics_NotFiniteOrHuge_FallBackToTheSort() {
    let huge = [Double](repeating: 1e307, count: 40) + [Double](repeating: -1e307, count: 40)
    var hugeOrder = OrderStatistics(huge)
    XCTAssertEqual(hugeOrder.sample, huge.sorted(), "sorted whole")
    XCTAssertEqual(hugeOrder.value(at: 40), 1e307)
    var withInfinity = (0..<100).map(Double.init)
    withInfinity[17] = .infinity
    withInfinity[60] = -.infinity
    var infinityOrder = OrderStatistics(withInfinity)
    XCTAssertEqual(infinityOrder.sample, withInfinity.sorted(), "sorted whole")
    XCTAssertEqual(infinityOrder.value(at: 0), -.infinity)
    XCTAssertEqual(infinityOrder.value(at: 99), .infinity)
  }

  /// Inputs that make a naive quickselect quadratic or loop: one value repeated, already
  /// sorted, reversed, organ pipe. Each must finish and agree with the sort.
  func testOrderStatistics_AdversarialShapes_AgreeWithTheSort() {
    let count = 100_000
    let shapes: [[Double]] = [
      [Double](repeating: 3, count: count),
      (0..<count).map(Double.init),
      (0..<count).reversed().map(Double.init),
      (0..<count).map { Double(min($0, count - $0)) },
      (0..<count).map { Double($0 % 2) },
    ]
    for (index, shape) in shapes.enumerated() {
      let sorted = shape.sorted()
      var order = OrderStatistics(shape)
      for position in [0, count / 4, count / 4 + 1, count / 2, count - 1] {
        XCTAssertEqual(order.value(at: position), sorted[position], "shape \(index)")
      }
    }
  }

  /// Samples large enough to be selected by their bits (`RadixSelection`), of shapes that
  /// make it descend several levels, meet one-key-wide buckets or cross the sign: every
  /// position asked, in a shuffled order, then upwards and downwards (the kept slices).
  func testOrderStatistics_LargeSamplesByBits_HoldTheSortedSamplesValues() {
    var random = SplitMix(seed: 2026_11_27_2)
    let count = 3000
    XCTAssertGreaterThanOrEqual(count, OrderStatistics.radixFrom)
    let start = 37.5
    let neighbours = (0..<count).map { _ in
      // Values a few units in the last place apart: the levels narrow down to single keys.
      var value = start
      for _ in 0..<Int.random(in: 0...40, using: &random) { value = value.nextUp }
      return value
    }
    let shapes: [(name: String, values: [Double])] = [
      (
        "temperatures",
        (0..<count).map { _ in Double(Int.random(in: 360...399, using: &random)) / 10 }
      ),
      ("neighbours in the last bit", neighbours),
      (
        "subnormals of both signs and zero",
        (0..<count).map { _ in
          let magnitude = Double(bitPattern: UInt64.random(in: 0...0xF_FFFF, using: &random))
          return Bool.random(using: &random) ? magnitude : (magnitude == 0 ? 0 : -magnitude)
        }
      ),
      (
        "magnitudes up to 1e299",
        (0..<count).map { _ in
          let magnitude = pow(10, Double.random(in: -300...299, using: &random))
          return Bool.random(using: &random) ? magnitude : -magnitude
        }
      ),
      ("one outlier among equals", [Double](repeating: 2.5, count: count - 1) + [1e9]),
      ("two values", (0..<count).map { $0 % 3 == 0 ? -1 : 4 }),
      ("ascending integers", (0..<count).map(Double.init)),
    ]
    for shape in shapes {
      let sorted = shape.values.sorted()
      let orders: [[Int]] = [
        Array(sorted.indices).shuffled(using: &random), Array(sorted.indices),
        Array(sorted.indices.reversed()),
      ]
      for positions in orders {
        var order = OrderStatistics(shape.values)
        var wrong = 0
        for position in positions
        where order.value(at: position).bitPattern != sorted[position].bitPattern {
          wrong += 1
        }
        XCTAssertEqual(wrong, 0, "\(shape.name): positions that differ from the sort")
      }
      var order = OrderStatistics(shape.values)
      XCTAssertEqual(NumericSummary(order), NumericSummary(sorted: sorted), shape.name)
      XCTAssertEqual(order.sample, shape.values, "\(shape.name): the sample is not moved")
      _ = order.value(at: 0)
    }
  }

  /// The keys are in the values' order, and give the values back.
  func testRadixSelectionKeys_KeepTheOrderOfTheValues() {
    var random = SplitMix(seed: 3)
    let specials: [Double] = [
      0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1, -1,
      9.99e299, -9.99e299, 1.5, 1.5.nextUp, -1.5.nextDown,
    ]
    let values =
      specials
      + (0..<2000).map { _ in
        let magnitude = pow(10, Double.random(in: -300...299, using: &random))
        return Bool.random(using: &random) ? magnitude : -magnitude
      }
    for value in values {
      XCTAssertEqual(
        RadixSelection.value(ofKey: RadixSelection.key(value)).bitPattern, value.bitPattern)
    }
    for (a, b) in zip(values, values.shuffled(using: &random)) {
      XCTAssertEqual(a < b, RadixSelection.key(a) < RadixSelection.key(b), "\(a) < \(b)")
    }
  }

  /// Samples of four shapes: rating-scale integers (many ties), wide-ranging fractions with
  /// both signs, durations (positive, some equal), and a mix with exact zeros.
  private static func sample(count: Int, kind: Int, random: inout SplitMix) -> [Double] {
    (0..<count).map { _ in
      switch kind {
      case 0: Double(Int.random(in: 1...5, using: &random))
      case 1: Double.random(in: -1e6...1e6, using: &random)
      case 2: Double(Int.random(in: 0...600, using: &random)) * 0.25
      default: Bool.random(using: &random) ? 0 : Double.random(in: -3...3, using: &random)
      }
    }
  }
}
