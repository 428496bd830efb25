// A parsed JSON document as a plain value tree: numbers keep their exact text, objects their
// key order and duplicate keys, so nothing an input said is lost before a reader interprets it.
import RKModel

/// One JSON value (RFC 8259).
public indirect enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  /// Members in document order; a key may repeat (RFC 8259 §4 allows it, we keep every one).
  case object([JSONMember])

  /// The first member named `key` when this is an object, else nil.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The elements, when this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The members, when this is an object.
  public var objectMembers: [JSONMember]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// The number, when this is a number.
  public var numberValue: JSONNumber? {
    if case .number(let number) = self { return number }
    return nil
  }

  /// The Boolean, when this is `true` or `false`.
  public var boolValue: Bool? {
    if case .bool(let flag) = self { return flag }
    return nil
  }

  /// True for `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// A one-word name of the value's kind for error messages (`"a string"`, `"an object"`).
  public var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a Boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The same value as the model's generic keyed value (for data kept but not modelled).
  public var keyedValue: KeyedValue {
    switch self {
    case .null: return .null
    case .bool(let flag): return .bool(flag)
    case .number(let number): return .number(number.numberValue)
    case .string(let text): return .string(text)
    case .array(let elements): return .array(elements.map(\.keyedValue))
    case .object(let members):
      return .dictionary(members.map { Field($0.key, $0.value.keyedValue) })
    }
  }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Equatable {
  public var key: String
  public var value: JSONValue

  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}

/// A JSON number: its text exactly as written, plus a Double for arithmetic.
///
/// Numbers too large for a Double or an Int64 are kept as text; converting never traps.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
  /// The number's text exactly as it appears in the document (e.g. `"72.50"`, `"-0"`, `"1E400"`).
  public var text: String
  /// The nearest Double (±infinity when the magnitude is beyond Double's range).
  public var double: Double
  /// True when written without fraction or exponent and within Int64's range.
  public var isInteger: Bool

  public init(text: String, double: Double, isInteger: Bool) {
    self.text = text
    self.double = double
    self.isInteger = isInteger
  }

  /// The number written as `text` (valid RFC 8259 number text), `isWhole` when it has no
  /// fraction and no exponent.
  init(_ text: UnsafeBufferPointer<UInt8>, isWhole: Bool) {
    let text = String(decoding: text, as: UTF8.self)
    // Double(String) rounds correctly and saturates to ±infinity; it never traps.
    self.init(
      text: text, double: Double(text) ?? .nan, isInteger: isWhole && Int64(text) != nil)
  }

  /// The value as an Int64 when it is an integer in range.
  public var int64Value: Int64? { isInteger ? Int64(text) : nil }

  /// The number in the model's canonical form (`"72.50"` → `"72.5"`, `"1.0"` → `"1"`,
  /// `"-0"` → `"0"`); exponent forms and out-of-range values keep their exact text when a
  /// Double cannot hold them.
  public var numberValue: NumberValue {
    if isInteger {
      let canonical = text == "-0" ? "0" : text
      return NumberValue(text: canonical, double: double, isInteger: true)
    }
    let hasExponent = text.contains { $0 == "e" || $0 == "E" }
    if !hasExponent {
      // Plain decimal text is already exact: only trailing fraction zeros go.
      var trimmed = Substring(text)
      // By bytes: `contains(".")` is Foundation's substring search (~4 k instructions).
      if trimmed.utf8.contains(UInt8(ascii: ".")) {
        while trimmed.last == "0" { trimmed.removeLast() }
        if trimmed.last == "." { trimmed.removeLast() }
      }
      if trimmed == "-0" { trimmed = "0" }
      let isWhole = !trimmed.utf8.contains(UInt8(ascii: "."))
      let fitsInt = isWhole && Int64(trimmed) != nil
      return NumberValue(text: String(trimmed), double: double, isInteger: fitsInt)
    }
    if double.isFinite { return NumberValue(double) }
    return NumberValue(text: text, double: double, isInteger: false)
  }

  public var description: String { text }
}
