// ORKLocationQuestionResult and ORKLocation (formats.md §3.2): coordinate, address, region.
import RKModel

/// `ORKLocationQuestionResult` (≥ 1.3): an `ORKLocation`.
enum LocationQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.location
  static let legacyKey = FieldKey.locationAnswer

  /// CNPostalAddress keys in the order an address is written: as archived (with a leading
  /// `_`), as JSON names them, and whether they are part of the address line.
  static let addressParts: [(archived: FieldKey, plain: FieldKey, inLine: Bool)] = [
    (.archivedStreet, .street, true), (.archivedSubLocality, .subLocality, true),
    (.archivedCity, .city, true),
    (.archivedSubAdministrativeArea, .subAdministrativeArea, true),
    (.archivedState, .state, true), (.archivedPostalCode, .postalCode, true),
    (.archivedCountry, .country, true), (.archivedISOCountryCode, .isoCountryCode, false),
  ]

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
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
      latitude: try location.number(.coordinateLatitude)?.double,
      longitude: try location.number(.coordinateLongitude)?.double,
      userInput: try location.string(.userInput),
      regionCenterLatitude: try location.number(.regionCenterLatitude)?.double,
      regionCenterLongitude: try location.number(.regionCenterLongitude)?.double,
      regionRadius: try location.number(.regionRadius)?.double,
      regionIdentifier: try location.string(.regionIdentifier))
    if let address = try location.object(.postalAddress) {
      try readPostalAddress(address, into: &answer)
    } else if case .dictionary(let fields)? = try location.keyedValue(.addressDictionary) {
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
    for part in addressParts {
      let value = try firstString(address, part.archived, part.plain)
      guard let value, !value.isEmpty else { continue }
      answer.addressFields.append(Field(part.plain.name, .string(value)))
      if part.inLine { parts.append(value) }
    }
    let formatted = try firstString(address, .archivedFormattedAddress, .formattedAddress)
    if let formatted, !formatted.isEmpty {
      answer.addressFields.append(Field("formattedAddress", .string(formatted)))
      answer.address = formatted
    } else if !parts.isEmpty {
      answer.address = parts.joined(separator: ", ")
    }
  }

  private static func firstString<Object: ResultObject>(
    _ object: Object, _ key: FieldKey, _ fallback: FieldKey
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
