// Sample quantiles by linear interpolation (Hyndman & Fan type 7), computed as numpy does.

/// Quantiles of a sorted sample, Hyndman & Fan's type 7: R's default `quantile()` and numpy's
/// default `percentile(method="linear")`.
///
/// The arithmetic follows numpy step by step so results agree to the last digit: the virtual
/// index is `(n − 1) × p`, `t` its fractional part, and the interpolation between neighbours
/// `a ≤ b` is `a + (b − a) × t` for `t < 0.5` and `b − (b − a) × (1 − t)` otherwise. R computes
/// `(1 − t) × a + t × b`, which can differ from numpy by one unit in the last place.
///
/// For example, `Quantile.type7(sorted: [1, 2, 3, 4], probability: 0.25)` is `1.75`.
public enum Quantile {
  /// The `probability` quantile (0…1) of ascending, finite `sorted` values; nil when the sample
  /// is empty or the probability lies outside 0…1.
  public static func type7(sorted: [Double], probability: Double) -> Double? {
    type7(count: sorted.count, probability: probability) { sorted[$0] }
  }

  /// `type7(sorted:probability:)` on the values `order` would put in ascending order, asking
  /// it for the two neighbours only.
  static func type7(_ order: inout OrderStatistics, probability: Double) -> Double? {
    type7(count: order.count, probability: probability) { order.value(at: $0) }
  }

  /// The arithmetic, on a sample of `count` values of which `value(i)` is the i-th smallest.
  private static func type7(
    count: Int, probability: Double, value: (Int) -> Double
  ) -> Double? {
    guard count > 0, probability >= 0, probability <= 1 else { return nil }
    let maxIndex = count - 1
    let virtualIndex = Double(maxIndex) * probability
    // numpy clamps at the top: an index at or beyond the last element takes the last element.
    if virtualIndex >= Double(maxIndex) { return value(maxIndex) }
    let lowerIndex = virtualIndex.rounded(.down)
    let lower = Int(lowerIndex)
    let below = value(lower)
    let above = value(lower + 1)
    let fraction = virtualIndex - lowerIndex
    let difference = above - below
    if fraction >= 0.5 {
      return above - difference * (1 - fraction)
    }
    return below + difference * fraction
  }

  /// The median (type 7 at 0.5) of ascending `sorted` values; nil when empty.
  public static func median(sorted: [Double]) -> Double? {
    type7(sorted: sorted, probability: 0.5)
  }
}

/// The values that sorting a sample ascending (`Array.sort()`) would put at given positions,
/// found by selection instead: a quantile needs two of them, and selecting one costs about
/// n comparisons where the sort costs n log n (the statistics sort every numeric answer, answer
/// duration and step duration of the export at its end, while the last files wait). Samples of
/// `radixFrom` values or more are selected by their bits (`RadixSelection`): partitioning a
/// large sample guesses wrong at about every second value, ~25 ns a value for three quartiles
/// where bucketing takes ~6.
///
/// Equal finite Doubles have the same bits, except 0 and −0, which the sort leaves in arrival
/// order; a sample holding −0 (or anything not finite, or a magnitude whose sum could overflow
/// in another order) is sorted instead, so every sample gives what the sort gave, to the bit.
struct OrderStatistics {
  private var values: [Double]
  /// Positions whose value is final: everything before each is ≤ it, everything after ≥ it.
  private var settled: [Int] = []
  private var isSorted = false
  /// Large samples' positions are found by their bits (`RadixSelection`), made at the first.
  private var radix: RadixSelection?

  /// Samples this small are sorted: selection saves nothing on them.
  static let sortedBelow = 64
  /// Samples this large are selected by their bits rather than partitioned.
  static let radixFrom = 2048

  init(_ values: consuming [Double]) {
    self.values = values
    if self.values.count < Self.sortedBelow || !Self.canSelect(self.values) {
      self.values.sort()
      isSorted = true
    }
  }

  /// A sample already in ascending order, kept as it is.
  init(sorted: [Double]) {
    values = sorted
    isSorted = true
  }

  var count: Int { values.count }

  /// The sample in some order (the sum and spread do not depend on it).
  var sample: [Double] { values }

  /// Whether every value is finite, none is −0 and none is large enough to overflow a sum.
  private static func canSelect(_ values: [Double]) -> Bool {
    // One comparison fails for NaN, the infinities and the large; −0 is one bit pattern.
    let negativeZero = (-0.0).bitPattern
    for value in values where !(abs(value) < 1e300) || value.bitPattern == negativeZero {
      return false
    }
    return true
  }

  /// The smallest and largest value (nil for an empty sample).
  var extremes: (minimum: Double, maximum: Double)? {
    guard var minimum = values.first else { return nil }
    if isSorted { return (minimum, values[values.count - 1]) }
    var maximum = minimum
    for value in values {
      minimum = Swift.min(minimum, value)
      maximum = Swift.max(maximum, value)
    }
    return (minimum, maximum)
  }

  /// The value at `position` (0..<count) of the ascending order.
  mutating func value(at position: Int) -> Double {
    if isSorted { return values[position] }
    if values.count >= Self.radixFrom {
      if radix == nil { radix = RadixSelection(values) }
      return radix!.value(at: position)
    }
    // Between the nearest settled positions around it: partitions there keep the others settled.
    var low = 0
    var high = values.count
    for mark in settled {
      if mark == position { return values[position] }
      if mark < position { low = Swift.max(low, mark + 1) } else { high = Swift.min(high, mark) }
    }
    values.withUnsafeMutableBufferPointer { buffer in
      Self.select(position, in: buffer, low: low, high: high)
    }
    settled.append(position)
    return values[position]
  }

  /// Moves into `position` the value that belongs there in ascending order, smaller-or-equal
  /// values before it and greater-or-equal after, within `low..<high` (which holds `position`
  /// and everything between its settled neighbours). Three-way partitions around a median of
  /// three, so many equal values (rating scales) settle at once; a range that shrinks too slowly
  /// is sorted.
  private static func select(
    _ position: Int, in buffer: UnsafeMutableBufferPointer<Double>, low: Int, high: Int
  ) {
    var low = low
    var high = high
    var rounds = 2 * (Int.bitWidth - high.leadingZeroBitCount) + 4
    while high - low > 16 {
      rounds -= 1
      if rounds == 0 { break }
      let middle = low + (high - low) / 2
      let pivot = medianOfThree(buffer[low], buffer[middle], buffer[high - 1])
      // [low, less) < pivot, [less, next) == pivot, [greater, high) > pivot.
      var less = low
      var next = low
      var greater = high
      while next < greater {
        let value = buffer[next]
        if value < pivot {
          buffer.swapAt(less, next)
          less += 1
          next += 1
        } else if value > pivot {
          greater -= 1
          buffer.swapAt(next, greater)
        } else {
          next += 1
        }
      }
      if position < less {
        high = less
      } else if position >= greater {
        low = greater
      } else {
        return
      }
    }
    var rest = UnsafeMutableBufferPointer(rebasing: buffer[low..<high])
    rest.sort()
  }

  private static func medianOfThree(_ a: Double, _ b: Double, _ c: Double) -> Double {
    if a < b {
      if b < c { return b }
      return a < c ? c : a
    }
    if a < c { return a }
    return b < c ? c : b
  }
}
