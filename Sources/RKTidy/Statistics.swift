// Order-independent sums, means and standard deviations for summary.csv.

/// Descriptive statistics of a sample of Doubles, computed so the result does not depend on the
/// order values arrived in (runs are parsed in parallel).
///
/// Sums are exact and correctly rounded (Shewchuk's algorithm, as Python's `math.fsum`), so
/// `mean` equals `math.fsum(x) / n` and `sd` equals
/// `sqrt(math.fsum((x - mean)**2 for x in xs) / (n - 1))` bit for bit. numpy's pairwise sum can
/// differ from them in the last digit; the oracle test allows for that. One deliberate exception:
/// a sample of equal values has exactly that value as mean and 0 as standard deviation (numpy
/// gives `3.2999999999999994` and `5.4e-16` for three times 3.3).
public enum Statistics {
  /// The correctly rounded sum of finite values; nil when the sum overflows.
  public static func exactSum<S: Sequence>(_ values: S) -> Double? where S.Element == Double {
    var partials: [Double] = []
    for value in values {
      var x = value
      var kept = 0
      // Each partial holds a non-overlapping piece of the running sum (Shewchuk 1997, §2).
      for index in partials.indices {
        var y = partials[index]
        if abs(x) < abs(y) { swap(&x, &y) }
        let high = x + y
        let low = y - (high - x)
        if low != 0 {
          partials[kept] = low
          kept += 1
        }
        x = high
      }
      partials.removeSubrange(kept...)
      partials.append(x)
    }
    return roundPartials(partials)
  }

  /// The arithmetic mean (exact sum / n); nil for an empty sample.
  public static func mean(_ values: [Double]) -> Double? {
    guard let first = values.first else { return nil }
    if values.allSatisfy({ $0 == first }) { return first }
    guard let sum = exactSum(values) else { return nil }
    let mean = sum / Double(values.count)
    return mean.isFinite ? mean : nil
  }

  /// The sample standard deviation (denominator n − 1, as R's `sd` and numpy's `ddof=1`);
  /// nil for fewer than two values.
  public static func standardDeviation(_ values: [Double]) -> Double? {
    standardDeviation(values, mean: mean(values))
  }

  /// The same, given `mean(values)`: a summary that shows both sums the values once less.
  static func standardDeviation(_ values: [Double], mean: Double?) -> Double? {
    guard values.count >= 2, let mean else { return nil }
    if values.allSatisfy({ $0 == mean }) { return 0 }
    guard let squares = exactSum(values.lazy.map { ($0 - mean) * ($0 - mean) }) else {
      return nil
    }
    let deviation = (squares / Double(values.count - 1)).squareRoot()
    return deviation.isFinite ? deviation : nil
  }

  /// Adds the partials from the largest down, then corrects a half-way case to round-half-even,
  /// so the total is the exactly rounded sum.
  private static func roundPartials(_ partials: [Double]) -> Double? {
    guard var index = partials.indices.last else { return 0 }
    var high = partials[index]
    var low = 0.0
    while index > 0 {
      index -= 1
      let x = high
      let y = partials[index]
      high = x + y
      low = y - (high - x)
      if low != 0 { break }
    }
    if index > 0, (low < 0 && partials[index - 1] < 0) || (low > 0 && partials[index - 1] > 0) {
      let twice = low * 2
      let candidate = high + twice
      if twice == candidate - high { high = candidate }
    }
    return high.isFinite ? high : nil
  }
}
