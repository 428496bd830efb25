// A point in time as archives store it: seconds since 2001-01-01T00:00:00Z (NSDate's NS.time).

/// An instant, kept exactly as `NSDate` stores it so no precision is lost before formatting.
///
/// `secondsSinceReferenceDate` counts from 2001-01-01T00:00:00Z, Foundation's reference date.
public struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Seconds between 1970-01-01 and 2001-01-01 (UTC).
  public static let unixEpochOffset: Double = 978_307_200

  /// Seconds since 2001-01-01T00:00:00Z (may be negative or fractional).
  public var secondsSinceReferenceDate: Double

  public init(secondsSinceReferenceDate: Double) {
    self.secondsSinceReferenceDate = secondsSinceReferenceDate
  }

  public init(secondsSince1970: Double) {
    self.secondsSinceReferenceDate = secondsSince1970 - Instant.unixEpochOffset
  }

  /// Seconds since 1970-01-01T00:00:00Z.
  public var secondsSince1970: Double { secondsSinceReferenceDate + Instant.unixEpochOffset }

  /// Whole milliseconds since 1970, rounded half away from zero: the precision of every output.
  public var millisecondsSince1970: Int64? {
    let ms = secondsSince1970 * 1000
    // Below 2^52 the truncation through Int64 and the fraction left are exact, so this rounds
    // as `rounded()` does without its call into libm (one per date cell). RKTable's
    // `roundedMilliseconds` is the same for durations; this module imports no other.
    guard abs(ms) < 4.5e15 else {
      let rounded = ms.rounded()
      guard rounded.isFinite, abs(rounded) < 9.0e15 else { return nil }
      return Int64(rounded)
    }
    let whole = Int64(ms)
    let fraction = ms - Double(whole)
    if fraction >= 0.5 { return whole + 1 }
    if fraction <= -0.5 { return whole - 1 }
    return whole
  }

  public static func < (lhs: Instant, rhs: Instant) -> Bool {
    lhs.secondsSinceReferenceDate < rhs.secondsSinceReferenceDate
  }

  public var description: String { "Instant(\(secondsSinceReferenceDate))" }
}

/// Seconds from `start` to `end`, or nil when either is missing.
public func durationSeconds(from start: Instant?, to end: Instant?) -> Double? {
  guard let start, let end else { return nil }
  return end.secondsSinceReferenceDate - start.secondsSinceReferenceDate
}
