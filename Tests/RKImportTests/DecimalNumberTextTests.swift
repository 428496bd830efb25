// DecimalNumberDecoder.number(mantissa:exponent:negative:) against the plain string-splicing
// version it replaced, kept here as the reference: same text, same Double bits, same
// isInteger, over a grid of mantissas (Double's exact limit, UInt64's, 38 digits) and every
// exponent NSDecimal allows.
import RKModel
import RKTestSupport
import XCTest

@testable import RKImport

final class DecimalNumberTextTests: XCTestCase {
  /// The implementation before the byte-buffer one (session 14), unchanged.
  private func reference(mantissa: UInt128, exponent: Int, negative: Bool) -> NumberValue {
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

  private func assertSame(_ mantissa: UInt128, _ exponent: Int, _ negative: Bool) {
    let new = DecimalNumberDecoder.number(
      mantissa: mantissa, exponent: exponent, negative: negative)
    let old = reference(mantissa: mantissa, exponent: exponent, negative: negative)
    let place = "\(negative ? "-" : "")\(mantissa)e\(exponent)"
    XCTAssertEqual(new.text, old.text, place)
    XCTAssertEqual(new.double.bitPattern, old.double.bitPattern, place)
    XCTAssertEqual(new.isInteger, old.isInteger, place)
  }

  func testGrid_EveryExponent_MatchesReference() {
    let limit53: UInt128 = 1 << 53
    let mantissas: [UInt128] = [
      0, 1, 5, 9, 10, 100, 7250, 12345, 1_000_000, 123_456_789, 999_999_999_999,
      limit53 - 1, limit53, limit53 + 1, UInt128(UInt64(Int64.max)), UInt128(UInt64(Int64.max)) + 1,
      UInt128(UInt64.max), UInt128(UInt64.max) + 1, UInt128(1) << 100,
      UInt128("12345678901234567890123456789012345678")!,
      UInt128("99999999999999999999999999999999999999")!,
    ]
    for mantissa in mantissas {
      for exponent in -128...127 {
        assertSame(mantissa, exponent, false)
        assertSame(mantissa, exponent, true)
      }
    }
  }

  func testRandomValues_MatchReference() {
    var generator = SplitMix(seed: 0x5EED_1234)
    for _ in 0..<20_000 {
      // Mantissas of every width, so both the fast Double path and strtod's are taken.
      let bits = Int(generator.next() % 128)
      let wide = UInt128(generator.next()) << 64 | UInt128(generator.next())
      let mantissa = bits == 0 ? 0 : wide >> (128 - bits)
      let exponent = Int(generator.next() % 256) - 128
      assertSame(mantissa, exponent, generator.next() & 1 == 1)
    }
  }

  func testKnownValues() {
    // Checked by hand: 72.50 drops its zero; 5 × 10^3 is an integer; Int64's edges.
    let value = DecimalNumberDecoder.number(mantissa: 7250, exponent: -2, negative: false)
    XCTAssertEqual(value.text, "72.5")
    XCTAssertEqual(value.double, 72.5)
    XCTAssertFalse(value.isInteger)
    let minimum = DecimalNumberDecoder.number(
      mantissa: UInt128(UInt64(Int64.max)) + 1, exponent: 0, negative: true)
    XCTAssertEqual(minimum.text, "-9223372036854775808")
    XCTAssertTrue(minimum.isInteger)
    let beyond = DecimalNumberDecoder.number(
      mantissa: UInt128(UInt64(Int64.max)) + 1, exponent: 0, negative: false)
    XCTAssertFalse(beyond.isInteger)
  }
}
