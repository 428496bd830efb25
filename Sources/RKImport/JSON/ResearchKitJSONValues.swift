// ORKESerializer's value conversions (formats.md §4.2) undone, so a result read from JSON
// carries the same generic values as the same result read from a keyed archive.
import RKModel

/// Converts ORKESerializer JSON values to the model's values.
///
/// Generic values (results the model does not type, unknown keys) follow the keyed archive:
/// - date strings in the serializer's exact form `yyyy-MM-dd'T'HH:mm:ssZ` become `.date`;
/// - CGPoint `{"x","y"}`, CGSize `{"h","w"}`, CGVector `{"dx","dy"}` and CGRect
///   `{"origin","size"}` dictionaries become UIKit's string forms (`"{x, y}"`, `"{w, h}"`,
///   `"{{x, y}, {w, h}}"`), as `-encodeCGRect:forKey:` writes them;
/// - the two enums the serializer writes as words become their integers:
///   `ORKTappingSample.buttonIdentifier` (`none` 0, `left` 1, `right` 2) and
///   `ORKSpatialSpanMemoryGameRecord.gameStatus` (`unknown` 0, `success` 1, `failure` 2,
///   `timeout` 3); an unknown word stays text;
/// - `userInfo` holds property-list data from the app and is converted without these rules.
enum ResearchKitJSONValues {
  /// A number; `true`/`false` count as 1/0, as plist Booleans do in keyed archives.
  static func numberValue(_ value: JSONItem) -> NumberValue? {
    if let number = value.numberValue { return number.numberValue }
    return value.boolValue.map { NumberValue($0 ? 1 : 0) }
  }

  /// A UUID string (`8-4-4-4-12` hexadecimal digits) in upper case, or nil.
  static func uuidText(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return nil }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return nil }
      } else {
        guard isHexDigit(byte) else { return nil }
      }
    }
    return text.uppercased()
  }

  /// The generic value of `key` of an object of class `className`.
  static func keyedValue(of key: String, _ value: JSONItem, in className: String) -> KeyedValue {
    if key == "userInfo" { return value.value.keyedValue }
    if let words = enumWords[className + "." + key], let word = value.stringValue,
      let number = words[word]
    {
      return .number(NumberValue(number))
    }
    return converted(value)
  }

  private static func converted(_ value: JSONItem) -> KeyedValue {
    switch value.node.kind {
    case .null: return .null
    case .false: return .bool(false)
    case .true: return .bool(true)
    case .number: return value.numberValue.map { .number($0.numberValue) } ?? .null
    case .string:
      let text = value.stringValue ?? ""
      if let instant = serializerDate(text) { return .date(instant) }
      return .string(text)
    case .array: return .array((value.arrayValue ?? []).map(converted))
    case .object:
      let members = value.objectMembers ?? []
      if let className = value["_class"]?.stringValue {
        let fields = members.filter { $0.key != "_class" }.map { member in
          Field(member.key, keyedValue(of: member.key, member.value, in: className))
        }
        return .object(className: className, fields: fields)
      }
      if let geometry = geometryText(value) { return .string(geometry) }
      return .dictionary(members.map { Field($0.key, converted($0.value)) })
    }
  }

  /// The instant of a string in ORKEStringFromDateISO8601's exact form
  /// (`2019-05-27T00:35:06-0700`: 24 characters, a numeric zone), else nil.
  static func serializerDate(_ text: String) -> Instant? {
    let bytes = text.utf8
    guard bytes.count == 24, bytes.first.map(isDigit) == true else { return nil }
    let sign = bytes[bytes.index(bytes.startIndex, offsetBy: 19)]
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
    return JSONDateText(text)?.instant
  }

  /// UIKit's string form of a CGPoint, CGSize, CGVector or CGRect dictionary, else nil.
  static func geometryText(_ value: JSONItem) -> String? {
    guard let members = value.objectMembers else { return nil }
    let names = Set(members.map(\.key))
    guard names.count == members.count else { return nil }
    func pair(_ first: String, _ second: String) -> String? {
      guard let a = value[first].flatMap(numberText), let b = value[second].flatMap(numberText)
      else { return nil }
      return "{\(a), \(b)}"
    }
    switch names {
    case ["x", "y"]: return pair("x", "y")
    case ["h", "w"]: return pair("w", "h")
    case ["dx", "dy"]: return pair("dx", "dy")
    case ["origin", "size"]:
      guard let origin = value["origin"],
        Set(origin.objectMembers?.map(\.key) ?? []) == ["x", "y"],
        let size = value["size"], Set(size.objectMembers?.map(\.key) ?? []) == ["h", "w"],
        let point = geometryText(origin), let extent = geometryText(size)
      else { return nil }
      return "{\(point), \(extent)}"
    default: return nil
    }
  }

  /// A coordinate in shortest round-trip form (`44`, `256.6666666666667`).
  private static func numberText(_ value: JSONItem) -> String? {
    guard let number = value.numberValue, number.double.isFinite else { return nil }
    return NumberValue(number.double).text
  }

  /// Enum properties ORKESerializer writes as words (`buttonIdentifierTable`,
  /// `memoryGameStatusTable` in `ORKESerialization.m`), keyed `Class.property`.
  private static let enumWords: [String: [String: Int]] = [
    "ORKTappingSample.buttonIdentifier": ["none": 0, "left": 1, "right": 2],
    "ORKSpatialSpanMemoryGameRecord.gameStatus": [
      "unknown": 0, "success": 1, "failure": 2, "timeout": 3,
    ],
  ]

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
  }
}
