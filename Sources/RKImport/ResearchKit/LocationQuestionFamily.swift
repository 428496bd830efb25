// ORKLocationQuestionResult and ORKLocation (formats.md §3.2): coordinate, address, region.
import RKModel

/// `ORKLocationQuestionResult` (≥ 1.3): an `ORKLocation`.
enum LocationQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.location
  static let legacyKey = "locationAnswer"

  /// CNPostalAddress keys in the order an address is written, without the leading `_`.
  static let addressParts = [
    "street", "subLocality", "city", "subAdministrativeArea", "state", "postalCode", "country",
  ]

  static func value<Object: ResultObject>(
    of object: Object, key: String, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    guard let location = try object.object(key) else { return nil }
    return .location(try decodeLocation(location))
  }

  /// Reads an `ORKLocation`: `coordinate.*` doubles, `userInput`, `postalAddress`
  /// (CNPostalAddress, ≥ 2.1.0) or `addressDictionary` (1.3–2.0), `region.*` NSNumbers.
  static func decodeLocation<Object: ResultObject>(
    _ location: Object
  ) throws(ImportError) -> LocationAnswer {
    var answer = LocationAnswer(
      latitude: try location.number("coordinate.latitude")?.double,
      longitude: try location.number("coordinate.longitude")?.double,
      userInput: try location.string("userInput"),
      regionCenterLatitude: try location.number("region.center.latitude")?.double,
      regionCenterLongitude: try location.number("region.center.longitude")?.double,
      regionRadius: try location.number("region.radius")?.double,
      regionIdentifier: try location.string("region.identifier"))
    if let address = try location.object("postalAddress") {
      try readPostalAddress(address, into: &answer)
    } else if case .dictionary(let fields)? = try location.keyedValue("addressDictionary") {
      answer.addressFields = fields
      answer.address = legacyAddressLine(fields)
    }
    return answer
  }

  /// CNPostalAddress keys are `_street`, `_city`, … (decompiled, formats.md §1.4); JSON uses
  /// `street`, `city`, …: both are accepted and reported without the underscore.
  private static func readPostalAddress<Object: ResultObject>(
    _ address: Object, into answer: inout LocationAnswer
  ) throws(ImportError) {
    var parts = [String]()
    for name in addressParts + ["ISOCountryCode"] {
      let value = try firstString(address, "_" + name, name)
      guard let value, !value.isEmpty else { continue }
      answer.addressFields.append(Field(name, .string(value)))
      if addressParts.contains(name) { parts.append(value) }
    }
    let formatted = try firstString(address, "_formattedAddress", "formattedAddress")
    if let formatted, !formatted.isEmpty {
      answer.addressFields.append(Field("formattedAddress", .string(formatted)))
      answer.address = formatted
    } else if !parts.isEmpty {
      answer.address = parts.joined(separator: ", ")
    }
  }

  private static func firstString<Object: ResultObject>(
    _ object: Object, _ key: String, _ fallback: String
  ) throws(ImportError) -> String? {
    if let value = try object.string(key) { return value }
    return try object.string(fallback)
  }

  /// CLPlacemark's address dictionary: `FormattedAddressLines` joined, else its parts.
  private static func legacyAddressLine(_ fields: [Field]) -> String? {
    func text(_ name: String) -> String? {
      guard case .string(let value)? = fields.first(where: { $0.name == name })?.value,
        !value.isEmpty
      else { return nil }
      return value
    }
    if case .array(let lines)? = fields.first(where: { $0.name == "FormattedAddressLines" })?.value
    {
      let texts = lines.compactMap { line -> String? in
        if case .string(let value) = line { return value }
        return nil
      }
      if !texts.isEmpty { return texts.joined(separator: ", ") }
    }
    let parts = [
      "Street", "SubLocality", "City", "SubAdministrativeArea", "State", "ZIP", "Country",
    ]
    .compactMap(text)
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }
}
