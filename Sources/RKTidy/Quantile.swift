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
    guard let last = sorted.last, probability >= 0, probability <= 1 else { return nil }
    let maxIndex = sorted.count - 1
    let virtualIndex = Double(maxIndex) * probability
    // numpy clamps at the top: an index at or beyond the last element takes the last element.
    if virtualIndex >= Double(maxIndex) { return last }
    let lowerIndex = virtualIndex.rounded(.down)
    let lower = Int(lowerIndex)
    let below = sorted[lower]
    let above = sorted[lower + 1]
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
