// NSDecimalNumber in keyed archives, decoded exactly (formats.md §1.4): never through Double.
import RKModel

/// Decodes `NS.mantissa`/`NS.exponent`/`NS.negative`/`NS.length` into exact decimal text.
///
/// The mantissa is eight 16-bit words, low word first, each in the byte order named by
/// `NS.mantissa.bo` (1 = little-endian); only the first `NS.length` words are in use.
/// Value = (−1)^negative × mantissa × 10^exponent; length 0 with negative set is NaN.
enum DecimalNumberDecoder {
  static func decode(_ object: ArchivedObject) throws(ImportError) -> NumberValue {
    let archive = object.archive
    func integer(_ key: FieldKey) throws(ImportError) -> Int64? {
      guard let value = try object.value(forKey: key), let number = try archive.numberDouble(value)
      else { return nil }
      return Int64(exactly: number)
    }
    let exponent = try integer(.nsExponent) ?? 0
    let length = try integer(.nsLength) ?? 0
    let negative =
      try object.value(forKey: .nsNegative).flatMap { v throws(ImportError) in
        try archive.bool(v)
      } ?? false
    let littleEndian = try integer(.nsMantissaByteOrder) ?? 1 == 1
    guard (-128...127).contains(exponent), (0...8).contains(length) else {
      throw ImportError(
        location: object.location, reason: "NS.exponent or NS.length out of range")
    }
    guard case .inline(let header)? = try object.value(forKey: .nsMantissa),
      header.type == .data, header.count >= Int(length) * 2
    else {
      throw ImportError(
        location: "\(object.location) NS.mantissa", reason: "missing or shorter than NS.length")
    }
    let bytes = archive.plist.data(header)
    var mantissa: UInt128 = 0
    for word in stride(from: Int(length) - 1, through: 0, by: -1) {
      let first = UInt128(bytes[word * 2])
      let second = UInt128(bytes[word * 2 + 1])
      mantissa = mantissa << 16 | (littleEndian ? second << 8 | first : first << 8 | second)
    }
    if length == 0 && negative { return NumberValue(text: "NaN", double: .nan, isInteger: false) }
    return number(mantissa: mantissa, exponent: Int(exponent), negative: negative)
  }

  /// The exact decimal text of ±mantissa × 10^exponent, trailing fraction zeros removed.
  ///
  /// Composed on the stack (numeric answers are NSDecimalNumbers, one per answer): the
  /// string-splicing version cost about 6,000 instructions a number, one with byte arrays
  /// ~1,900 (three allocations), this ~360. The Double is the text's nearest Double, as
  /// `Double(text)` gives it.
  static func number(mantissa: UInt128, exponent: Int, negative: Bool) -> NumberValue {
    guard mantissa != 0 else { return NumberValue(text: "0", double: 0, isInteger: true) }
    // At most 39 digits; the text adds a sign and "0." and the leading zeros (at most 127 with
    // NSDecimal's exponent range), or the zeros of a positive exponent (at most 127).
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40 + 176) { scratch in
      let digits = UnsafeMutableBufferPointer(rebasing: scratch[..<40])
      let text = UnsafeMutableBufferPointer(rebasing: scratch[40...])
      let digitCount = writeDigits(mantissa, to: digits)
      var length = 0
      func put(_ byte: UInt8) {
        text[length] = byte
        length += 1
      }
      func put(digitsIn range: Range<Int>) {
        for index in range { put(digits[index]) }
      }
      if negative { put(UInt8(ascii: "-")) }
      var hasPoint = false
      if exponent >= 0 {
        put(digitsIn: 0..<digitCount)
        for _ in 0..<exponent { put(UInt8(ascii: "0")) }
      } else {
        let point = digitCount + exponent
        if point <= 0 {
          put(UInt8(ascii: "0"))
          put(UInt8(ascii: "."))
          for _ in 0..<(-point) { put(UInt8(ascii: "0")) }
          put(digitsIn: 0..<digitCount)
        } else {
          put(digitsIn: 0..<point)
          put(UInt8(ascii: "."))
          put(digitsIn: point..<digitCount)
        }
        hasPoint = true
        while text[length - 1] == UInt8(ascii: "0") { length -= 1 }
        if text[length - 1] == UInt8(ascii: ".") {
          length -= 1
          hasPoint = false
        }
      }
      let written = UnsafeBufferPointer(rebasing: text[..<length])
      let string = String(decoding: written, as: UTF8.self)
      return NumberValue(
        text: string,
        double: nearestDouble(mantissa, exponent, negative) ?? Double(string) ?? .nan,
        isInteger: !hasPoint && fitsInt64(written))
    }
  }

  /// Writes the decimal digits of `value` (> 0), most significant first, into `digits` (room
  /// for 39); returns how many.
  private static func writeDigits(_ value: UInt128, to digits: UnsafeMutableBufferPointer<UInt8>)
    -> Int
  {
    // UInt128's generic conversions are slow: the usual mantissa fits one word.
    guard value >> 64 == 0 else {
      var count = 0
      for byte in String(value).utf8 {
        digits[count] = byte
        count += 1
      }
      return count
    }
    var rest = UInt64(truncatingIfNeeded: value)
    var count = 0
    var probe = rest
    while probe > 0 {
      count += 1
      probe /= 10
    }
    for index in stride(from: count - 1, through: 0, by: -1) {
      digits[index] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
      rest /= 10
    }
    return count
  }

  /// ±mantissa × 10^exponent correctly rounded when one IEEE operation gives it: the mantissa
  /// and the power of ten are both exact Doubles (mantissa ≤ 2^53, |exponent| ≤ 22), so the
  /// one multiplication or division rounds once, as `Double(text)` does. nil otherwise.
  private static func nearestDouble(_ mantissa: UInt128, _ exponent: Int, _ negative: Bool)
    -> Double?
  {
    guard mantissa <= 1 << 53, exponent.magnitude <= 22 else { return nil }
    let power = exactPowersOfTen[Int(exponent.magnitude)]
    // Through UInt64: Double(UInt128) takes a slow generic path.
    let exact = Double(UInt64(truncatingIfNeeded: mantissa))
    let magnitude = exponent >= 0 ? exact * power : exact / power
    return negative ? -magnitude : magnitude
  }

  /// 10^0 … 10^22: every one is a Double exactly.
  private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
    (0..<exponent).reduce(1.0) { product, _ in product * 10 }
  }

  /// Whether `text` (an optional `-` and digits) is within Int64's range.
  private static func fitsInt64(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let negative = text.first == UInt8(ascii: "-")
    var magnitude: UInt64 = 0
    for byte in text.dropFirst(negative ? 1 : 0) {
      let (times10, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
      guard !overflowA, !overflowB else { return false }
      magnitude = sum
    }
    return magnitude <= (negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max))
  }
}
