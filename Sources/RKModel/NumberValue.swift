// Numbers as the participant entered them: exact decimal text plus a Double for arithmetic.

/// A number read from an input, kept as exact decimal text (NSDecimalNumber keeps up to 38 digits,
/// more than a Double holds) together with its Double approximation.
///
/// `text` is the canonical form written to outputs: integers without a decimal point, reals in
/// shortest round-trip form, decimals exactly as stored (`"72.50"` becomes `"72.5"`).
public struct NumberValue: Sendable, Hashable, CustomStringConvertible {
  /// Canonical decimal text, never locale-formatted (e.g. `"-12"`, `"37.5"`, `"1e-07"`).
  public var text: String
  /// The value as a Double (NaN only when the input itself was NaN).
  public var double: Double
  /// True when the value is a whole number that fits an Int64.
  public var isInteger: Bool

  public init(text: String, double: Double, isInteger: Bool) {
    self.text = text
    self.double = double
    self.isInteger = isInteger
  }

  public init(_ integer: Int64) {
    self.init(text: String(integer), double: Double(integer), isInteger: true)
  }

  public init(_ integer: Int) { self.init(Int64(integer)) }

  /// A Double in shortest round-trip form; whole values print without `.0`.
  public init(_ real: Double) {
    if real.isFinite, real == real.rounded(), abs(real) < 9.0e15 {
      self.init(text: String(Int64(real)), double: real, isInteger: true)
    } else if real.isNaN {
      self.init(text: "NaN", double: real, isInteger: false)
    } else if real.isInfinite {
      self.init(text: real < 0 ? "-Inf" : "Inf", double: real, isInteger: false)
    } else {
      self.init(text: "\(real)", double: real, isInteger: false)
    }
  }

  public var description: String { text }
}
