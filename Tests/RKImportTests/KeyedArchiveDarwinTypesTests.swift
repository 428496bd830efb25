// Darwin-only Foundation shapes (formats.md §1.4): NSDecimalNumber, NSDateComponents, NSTimeZone.
import RKModel
import XCTest

@testable import RKImport

final class KeyedArchiveDarwinTypesTests: XCTestCase {
  private func decimal(
    mantissa: [UInt8], length: Int64, exponent: Int64, negative: Bool = false,
    byteOrder: Int64 = 1
  ) throws -> NumberValue? {
    let builder = ArchiveBuilder()
    let root = builder.object(
      "NSDecimalNumber", classes: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
      [
        ("NS.exponent", .int(exponent)), ("NS.length", .int(length)),
        ("NS.negative", .bool(negative)), ("NS.compact", .bool(true)),
        ("NS.mantissa.bo", .int(byteOrder)), ("NS.mantissa", .data(mantissa)),
      ])
    let archive = try KeyedArchive(bytes: builder.bytes(root: root))
    return try archive.number(archive.root())
  }

  private func padded(_ bytes: [UInt8]) -> [UInt8] {
    bytes + [UInt8](repeating: 0, count: 16 - bytes.count)
  }

  func testDecimal_Mantissa7250Exponent2_IsExactly72point5() throws {
    // 7250 = 0x1C52, low byte first.
    let value = try decimal(mantissa: padded([0x52, 0x1C]), length: 1, exponent: -2)
    XCTAssertEqual(value?.text, "72.5")
    XCTAssertEqual(value?.double, 72.5)
    XCTAssertEqual(value?.isInteger, false)
  }

  func testDecimal_ThirtyEightDigits_TextExactBeyondDouble() throws {
    // Bytes of 12345678901234567890123456789012345678 little-endian, from Python int.to_bytes.
    let bytes: [UInt8] = [
      78, 243, 56, 222, 80, 144, 73, 196, 19, 51, 2, 240, 246, 176, 73, 9,
    ]
    let value = try decimal(mantissa: bytes, length: 8, exponent: -20, negative: true)
    XCTAssertEqual(value?.text, "-123456789012345678.90123456789012345678")
  }

  func testDecimal_BigEndianWords_SameValue() throws {
    let value = try decimal(mantissa: padded([0x1C, 0x52]), length: 1, exponent: -2, byteOrder: 0)
    XCTAssertEqual(value?.text, "72.5")
  }

  func testDecimal_PositiveExponent_AppendsZeros() throws {
    let value = try decimal(mantissa: padded([5, 0]), length: 1, exponent: 3)
    XCTAssertEqual(value?.text, "5000")
    XCTAssertEqual(value?.isInteger, true)
  }

  func testDecimal_SmallFraction_LeadingZeros() throws {
    let value = try decimal(mantissa: padded([5, 0]), length: 1, exponent: -4, negative: true)
    XCTAssertEqual(value?.text, "-0.0005")
  }

  func testDecimal_LengthZeroNegative_IsNaN() throws {
    let value = try decimal(mantissa: padded([]), length: 0, exponent: 0, negative: true)
    XCTAssertEqual(value?.text, "NaN")
    XCTAssertEqual(value?.double.isNaN, true)
  }

  func testDecimal_LengthZero_IsZero() throws {
    XCTAssertEqual(try decimal(mantissa: padded([]), length: 0, exponent: 0)?.text, "0")
  }

  func testDecimal_MantissaShorterThanLength_Throws() {
    XCTAssertThrowsError(try decimal(mantissa: [1, 0], length: 3, exponent: 0)) { error in
      XCTAssertEqual((error as? ImportError)?.reason, "missing or shorter than NS.length")
    }
  }

  func testDecimal_LengthAboveEight_Throws() {
    XCTAssertThrowsError(try decimal(mantissa: padded([]), length: 9, exponent: 0))
  }

  private func components(_ fields: [(String, ArchiveBuilder.Value)]) throws -> KeyedValue {
    let builder = ArchiveBuilder()
    let root = builder.object("NSDateComponents", fields)
    return try rootValue(builder.bytes(root: root))
  }

  func testDateComponents_DarwinLayout_AbsentMeansUndefined() throws {
    let value = try components([
      ("NS.hour", .int(7)), ("NS.minute", .int(30)), ("NS.leapMonth", .int(0)),
    ])
    XCTAssertEqual(
      value,
      .object(
        className: "NSDateComponents",
        fields: [Field("hour", .number(NumberValue(7))), Field("minute", .number(NumberValue(30)))]
      ))
  }

  func testDateComponents_CorelibsLayout_IntMaxMeansUndefined() throws {
    let undefined = ArchiveBuilder.Value.int(Int64.max)
    var fields: [(String, ArchiveBuilder.Value)] = [
      "NS.era", "NS.year", "NS.quarter", "NS.month", "NS.day", "NS.second", "NS.nanosec",
      "NS.weekOfYear", "NS.weekOfMonth", "NS.yearForWOY", "NS.weekday", "NS.weekdayOrdinal",
    ].map { ($0, undefined) }
    fields += [("NS.hour", .int(7)), ("NS.minute", .int(30)), ("NS.isLeapMonth", .bool(false))]
    XCTAssertEqual(
      try components(fields),
      .object(
        className: "NSDateComponents",
        fields: [Field("hour", .number(NumberValue(7))), Field("minute", .number(NumberValue(30)))]
      ))
  }

  func testDateComponents_LeapMonthInEitherLayout_IsLeapMonthField() throws {
    let leap = Field("isLeapMonth", .number(NumberValue(1)))
    // Darwin writes a number, swift-corelibs a boolean; a real hour counts when whole.
    XCTAssertEqual(
      try components([("NS.month", .int(4)), ("NS.leapMonth", .int(1))]),
      .object(
        className: "NSDateComponents", fields: [Field("month", .number(NumberValue(4))), leap]))
    XCTAssertEqual(
      try components([("NS.hour", .real(7)), ("NS.isLeapMonth", .bool(true))]),
      .object(
        className: "NSDateComponents", fields: [Field("hour", .number(NumberValue(7))), leap]))
  }

  func testTimeZoneAndCalendar_DecodeToNames() throws {
    let builder = ArchiveBuilder()
    let zone = builder.object("NSTimeZone", [("NS.name", .uid(builder.string("Europe/Berlin")))])
    let calendar = builder.object(
      "NSCalendar", [("NS.identifier", .uid(builder.string("gregorian")))])
    let root = builder.array([zone, calendar])
    XCTAssertEqual(
      try rootValue(builder.bytes(root: root)),
      .array([.string("Europe/Berlin"), .string("gregorian")]))
  }

  func testMutableStringAndData_UnwrapInnerValue() throws {
    let builder = ArchiveBuilder()
    let text = builder.object("NSMutableString", [("NS.string", .string("hi"))])
    let data = builder.object("NSMutableData", [("NS.data", .data([1, 2]))])
    XCTAssertEqual(
      try rootValue(builder.bytes(root: builder.array([text, data]))),
      .array([.string("hi"), .data([1, 2])]))
  }

  func testEscapedDollarKey_Unescaped() throws {
    let builder = ArchiveBuilder()
    let root = builder.object("AppThing", [("$$price", .int(3))])
    XCTAssertEqual(
      try rootValue(builder.bytes(root: root)),
      .object(className: "AppThing", fields: [Field("$price", .number(NumberValue(3)))]))
  }
}
