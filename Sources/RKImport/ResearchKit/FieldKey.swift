// The key names the decoders look up, as one small enum: a keyed archive maps each of its key
// strings to a case once, so that every lookup after that compares one byte.

/// A key the ResearchKit decoders (and the keyed-archive layer's Foundation decoders) read by
/// name. `name` is the key exactly as archives and JSON documents spell it; the raw value is a
/// small ordinal (a bit in `FieldKeySet`).
///
/// Keys not listed here (app additions, fork keys) are still read generically, by name.
enum FieldKey: UInt8, CaseIterable, Sendable {
  // ORKResult and its collections.
  case identifier, startDate, endDate, userInfo, results
  case taskRunUUID, outputDirectory, device, enabledAssistiveTechnology
  case product, platform, osVersion, osBuild
  // ORKQuestionResult and its subclasses (formats.md §3.2).
  case questionType, typedAnswerOrNoAnswer, noAnswerType
  case booleanAnswer, choiceAnswers, scaleAnswer, textAnswer, numericAnswer
  case unit, displayUnit, dateComponentsAnswer, intervalAnswer, dateAnswer, calendar, timeZone
  case componentsAnswer, separator, rungPicked, locationAnswer
  case fileURL, contentType, fileName
  // ORKLocation and CNPostalAddress.
  case coordinateLatitude
  case coordinateLongitude
  case userInput
  case regionCenterLatitude
  case regionCenterLongitude
  case regionRadius
  case regionIdentifier
  case postalAddress, addressDictionary
  case street, subLocality, city, subAdministrativeArea, state, postalCode, country
  case isoCountryCode
  case formattedAddress
  case archivedStreet
  case archivedSubLocality
  case archivedCity
  case archivedSubAdministrativeArea
  case archivedState
  case archivedPostalCode
  case archivedCountry
  case archivedISOCountryCode
  case archivedFormattedAddress
  // Keyed-archive structure and Foundation types (formats.md §1.4).
  case classMarker
  case classNameMarker, classesMarker
  case nsString
  case nsTime
  case nsUUIDBytes
  case nsObjects
  case nsKeys
  case nsRelative
  case nsBase
  case nsName
  case nsIdentifier
  case nsData
  case nsEra
  case nsYear
  case nsQuarter
  case nsMonth
  case nsDay
  case nsHour
  case nsMinute
  case nsSecond
  case nsNanosecond
  case nsWeek
  case nsWeekOfYear
  case nsWeekOfMonth
  case nsYearForWeekOfYear
  case nsWeekday
  case nsWeekdayOrdinal
  case nsDayOfYear
  case nsLeapMonth
  case nsIsLeapMonth
  case nsSpecial
  case nsPointValue
  case nsSizeValue
  case nsRectValue
  case nsRangeLocation
  case nsRangeLength
  case nsExponent
  case nsLength
  case nsNegative
  case nsMantissaByteOrder
  case nsMantissa

  /// The key as it is spelled in input and in messages.
  var name: String {
    switch self {
    case .identifier: "identifier"
    case .startDate: "startDate"
    case .endDate: "endDate"
    case .userInfo: "userInfo"
    case .results: "results"
    case .taskRunUUID: "taskRunUUID"
    case .outputDirectory: "outputDirectory"
    case .device: "device"
    case .enabledAssistiveTechnology: "enabledAssistiveTechnology"
    case .product: "product"
    case .platform: "platform"
    case .osVersion: "osVersion"
    case .osBuild: "osBuild"
    case .questionType: "questionType"
    case .typedAnswerOrNoAnswer: "typedAnswerOrNoAnswer"
    case .noAnswerType: "noAnswerType"
    case .booleanAnswer: "booleanAnswer"
    case .choiceAnswers: "choiceAnswers"
    case .scaleAnswer: "scaleAnswer"
    case .textAnswer: "textAnswer"
    case .numericAnswer: "numericAnswer"
    case .unit: "unit"
    case .displayUnit: "displayUnit"
    case .dateComponentsAnswer: "dateComponentsAnswer"
    case .intervalAnswer: "intervalAnswer"
    case .dateAnswer: "dateAnswer"
    case .calendar: "calendar"
    case .timeZone: "timeZone"
    case .componentsAnswer: "componentsAnswer"
    case .separator: "separator"
    case .rungPicked: "rungPicked"
    case .locationAnswer: "locationAnswer"
    case .fileURL: "fileURL"
    case .contentType: "contentType"
    case .fileName: "fileName"
    case .coordinateLatitude: "coordinate.latitude"
    case .coordinateLongitude: "coordinate.longitude"
    case .userInput: "userInput"
    case .regionCenterLatitude: "region.center.latitude"
    case .regionCenterLongitude: "region.center.longitude"
    case .regionRadius: "region.radius"
    case .regionIdentifier: "region.identifier"
    case .postalAddress: "postalAddress"
    case .addressDictionary: "addressDictionary"
    case .street: "street"
    case .subLocality: "subLocality"
    case .city: "city"
    case .subAdministrativeArea: "subAdministrativeArea"
    case .state: "state"
    case .postalCode: "postalCode"
    case .country: "country"
    case .isoCountryCode: "ISOCountryCode"
    case .formattedAddress: "formattedAddress"
    case .archivedStreet: "_street"
    case .archivedSubLocality: "_subLocality"
    case .archivedCity: "_city"
    case .archivedSubAdministrativeArea: "_subAdministrativeArea"
    case .archivedState: "_state"
    case .archivedPostalCode: "_postalCode"
    case .archivedCountry: "_country"
    case .archivedISOCountryCode: "_ISOCountryCode"
    case .archivedFormattedAddress: "_formattedAddress"
    case .classMarker: "$class"
    case .nsString: "NS.string"
    case .nsTime: "NS.time"
    case .nsUUIDBytes: "NS.uuidbytes"
    case .nsObjects: "NS.objects"
    case .nsKeys: "NS.keys"
    case .nsRelative: "NS.relative"
    case .nsBase: "NS.base"
    case .nsName: "NS.name"
    case .nsIdentifier: "NS.identifier"
    case .nsData: "NS.data"
    case .nsEra: "NS.era"
    case .nsYear: "NS.year"
    case .nsQuarter: "NS.quarter"
    case .nsMonth: "NS.month"
    case .nsDay: "NS.day"
    case .nsHour: "NS.hour"
    case .nsMinute: "NS.minute"
    case .nsSecond: "NS.second"
    case .nsNanosecond: "NS.nanosec"
    case .nsWeek: "NS.week"
    case .nsWeekOfYear: "NS.weekOfYear"
    case .nsWeekOfMonth: "NS.weekOfMonth"
    case .nsYearForWeekOfYear: "NS.yearForWOY"
    case .nsWeekday: "NS.weekday"
    case .nsWeekdayOrdinal: "NS.weekdayOrdinal"
    case .nsDayOfYear: "NS.dayOfYear"
    case .nsLeapMonth: "NS.leapMonth"
    case .nsIsLeapMonth: "NS.isLeapMonth"
    case .nsSpecial: "NS.special"
    case .nsPointValue: "NS.pointval"
    case .nsSizeValue: "NS.sizeval"
    case .nsRectValue: "NS.rectval"
    case .nsRangeLocation: "NS.rangeval.location"
    case .nsRangeLength: "NS.rangeval.length"
    case .nsExponent: "NS.exponent"
    case .nsLength: "NS.length"
    case .nsNegative: "NS.negative"
    case .nsMantissaByteOrder: "NS.mantissa.bo"
    case .nsMantissa: "NS.mantissa"
    case .classNameMarker: "$classname"
    case .classesMarker: "$classes"
    }
  }

  /// Name → key, hashed once per distinct key string of an input, never per lookup.
  static let byName: [String: FieldKey] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0.name, $0) })

  /// The key named `name`, as `byName[name]` finds it: ASCII names by their bytes
  /// (`FieldKeyMatcher`, no hashing of a String), others through `byName`, whose String
  /// comparison finds canonically equivalent spellings too.
  static func named(_ name: String) -> FieldKey? {
    var name = name
    let matched: FieldKey?? = name.withUTF8 { bytes in
      guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
      return .some(FieldKeyMatcher.key(bytes))
    }
    return matched ?? byName[name]
  }

  /// ORKResult's own keys, read into every record.
  var isBase: Bool {
    switch self {
    case .identifier, .startDate, .endDate, .userInfo: true
    default: false
    }
  }
}
