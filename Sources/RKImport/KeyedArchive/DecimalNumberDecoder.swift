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
      guard let value = try object.value(forKey: key), let number = try archive.number(value)
      else { return nil }
      return Int64(exactly: number.double)
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
  static func number(mantissa: UInt128, exponent: Int, negative: Bool) -> NumberValue {
    var digits = String(mantissa)
    var text: String
    if mantissa == 0 {
      text = "0"
    } else if exponent >= 0 {
      text = digits + String(repeating: "0", count: exponent)
    } else {
      let point = digits.count + exponent
      if point <= 0 {
        digits = String(repeating: "0", count: -point) + digits
        text = "0." + digits
      } else {
        let index = digits.index(digits.startIndex, offsetBy: point)
        text = String(digits[..<index]) + "." + String(digits[index...])
      }
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    if negative && mantissa != 0 { text = "-" + text }
    let double = Double(text) ?? .nan
    let isInteger = !text.contains(".") && Int64(text) != nil
    return NumberValue(text: text, double: double, isInteger: isInteger)
  }
}
