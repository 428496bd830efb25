// The JSON parser: RFC 8259 values, exact numbers, order and duplicates, and its limits.
import RKModel
import XCTest

@testable import RKImport

final class JSONParserTests: XCTestCase {
  private func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

  private func parseError(_ bytes: [UInt8], parser: JSONParser = JSONParser()) -> ImportError? {
    do {
      _ = try parser.parse(bytes)
      return nil
    } catch {
      return error as? ImportError
    }
  }

  func testParse_Scalars_AllKinds() throws {
    XCTAssertEqual(try parse("null"), .null)
    XCTAssertEqual(try parse(" true "), .bool(true))
    XCTAssertEqual(try parse("false"), .bool(false))
    XCTAssertEqual(try parse("\"hi\""), .string("hi"))
    XCTAssertEqual(try parse("-12").numberValue?.int64Value, -12)
  }

  func testParse_ObjectOrderAndDuplicates_Kept() throws {
    let value = try parse(#"{"b": 1, "a": [true, null], "b": "two"}"#)
    let members = try XCTUnwrap(value.objectMembers)
    XCTAssertEqual(members.map(\.key), ["b", "a", "b"])
    XCTAssertEqual(members[1].value, .array([.bool(true), .null]))
    XCTAssertEqual(members[2].value, .string("two"))
    // The subscript returns the first of repeated keys.
    XCTAssertEqual(value["b"]?.numberValue?.text, "1")
  }

  func testParse_Numbers_ExactTextKept() throws {
    let number = try XCTUnwrap(parse("72.50").numberValue)
    XCTAssertEqual(number.text, "72.50")
    XCTAssertEqual(number.double, 72.5)
    XCTAssertFalse(number.isInteger)
    XCTAssertEqual(number.numberValue.text, "72.5")
    XCTAssertEqual(
      try parse("1.0").numberValue?.numberValue, NumberValue(text: "1", double: 1, isInteger: true))
    XCTAssertEqual(try parse("-0").numberValue?.numberValue.text, "0")
    XCTAssertEqual(try parse("2.5E3").numberValue?.double, 2500)
    XCTAssertEqual(try parse("2.5E3").numberValue?.numberValue.text, "2500")
  }

  func testParse_HugeNumbers_KeptAsTextWithoutTrap() throws {
    let digits = "123456789012345678901234567890"
    let big = try XCTUnwrap(parse(digits).numberValue)
    XCTAssertFalse(big.isInteger)  // beyond Int64
    XCTAssertEqual(big.numberValue.text, digits)
    XCTAssertEqual(big.double, 1.2345678901234568e29)
    let huge = try XCTUnwrap(parse("1e99999").numberValue)
    XCTAssertEqual(huge.double, .infinity)
    XCTAssertEqual(huge.numberValue.text, "1e99999")
    XCTAssertEqual(try parse("9223372036854775807").numberValue?.int64Value, Int64.max)
    XCTAssertEqual(try parse("9223372036854775808").numberValue?.isInteger, false)
  }

  func testParse_StringEscapes_Decoded() throws {
    let value = try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#)
    XCTAssertEqual(value, .string("a\"b\\c/d\u{8}\u{C}\n\r\té😀"))
  }

  func testParse_RawUTF8_Kept() throws {
    XCTAssertEqual(try parse("\"Grüße 😀\""), .string("Grüße 😀"))
  }

  func testParse_ByteOrderMark_Skipped() throws {
    XCTAssertEqual(
      try JSONParser().parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).arrayValue?.count, 1)
  }

  func testParse_UnpairedSurrogate_ErrorWithOffset() {
    let error = parseError(Array(#"["ok", "\ud800x"]"#.utf8))
    XCTAssertEqual(error?.location, "byte 8")
    XCTAssertEqual(error?.reason, "unpaired UTF-16 high surrogate \\uD800")
    let low = parseError(Array(#""\udc00""#.utf8))
    XCTAssertEqual(low?.location, "byte 1")
    XCTAssertEqual(low?.reason, "unpaired UTF-16 low surrogate \\uDC00")
  }

  func testParse_InvalidUTF8_ErrorWithOffset() {
    // "ab" then a lone continuation byte at offset 3.
    XCTAssertEqual(parseError([0x22, 0x61, 0x62, 0x80, 0x22])?.location, "byte 3")
    // Overlong encoding of '/' (C0 AF) and an encoded surrogate (ED A0 80).
    XCTAssertEqual(parseError([0x22, 0xC0, 0xAF, 0x22])?.reason, "invalid UTF-8 byte 0xC0")
    XCTAssertEqual(
      parseError([0x22, 0xED, 0xA0, 0x80, 0x22])?.reason,
      "invalid UTF-8 sequence starting with 0xED")
    XCTAssertEqual(parseError([0x22, 0xE2, 0x82])?.reason, "truncated UTF-8 sequence")
  }

  func testParse_StrictGrammar_Rejected() {
    let cases: [(String, String, String)] = [
      ("[1,]", "byte 3", "unexpected character ']': expected a value"),
      ("{\"a\":1,}", "byte 7", "expected a member name in double quotes"),
      ("01", "byte 0", "invalid number: leading zero"),
      ("1.", "byte 0", "invalid number: expected a digit after '.'"),
      ("+1", "byte 0", "unexpected character '+': expected a value"),
      ("[1] 2", "byte 4", "unexpected content after the JSON value"),
      ("\"a\tb\"", "byte 2", "control character 0x09 in a string must be escaped"),
      ("tru", "byte 0", "invalid literal"),
      ("// c\n1", "byte 0", "unexpected character '/': expected a value"),
      ("", "byte 0", "empty document: expected a JSON value"),
      ("{\"a\" 1}", "byte 5", "expected ':' after a member name"),
      ("\"abc", "byte 4", "unterminated string (opened at byte 0)"),
      ("[1", "byte 2", "unexpected end of document inside an array"),
    ]
    for (text, location, reason) in cases {
      let error = parseError(Array(text.utf8))
      XCTAssertEqual(error?.location, location, text)
      XCTAssertEqual(error?.reason, reason, text)
    }
  }

  func testParse_DeepNesting_RejectedWithoutCrash() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let error = parseError(Array(deep.utf8))
    XCTAssertEqual(error?.reason, "nesting deeper than 512 levels")
    XCTAssertEqual(error?.location, "byte 512")
    let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    XCTAssertNil(parseError(Array(ok.utf8)))
  }

  func testParse_SizeLimit_Rejected() {
    let error = parseError(Array("[1, 2, 3]".utf8), parser: JSONParser(maximumBytes: 4))
    XCTAssertEqual(error?.reason, "JSON document is 9 bytes, over the limit of 4 bytes")
  }

  func testKeyedValue_Object_FieldsInOrder() throws {
    let value = try parse(#"{"z": 1.50, "a": ["x"]}"#)
    XCTAssertEqual(
      value.keyedValue,
      .dictionary([
        Field("z", .number(NumberValue(text: "1.5", double: 1.5, isInteger: false))),
        Field("a", .array([.string("x")])),
      ]))
  }
}
