// The answer a result carries, one case per kind of ResearchKit answer (formats.md §3.2).

/// The semantic type of a result, derived from its class (formats.md §3.3: the `questionType`
/// integer is renumbered between ResearchKit versions and is never trusted for this).
///
/// The raw value is the `answer_type` column of `answers.csv`.
public enum AnswerType: String, Sendable, CaseIterable, Hashable {
  case boolean
  case choice
  case scale
  case numeric
  case text
  case date
  case timeOfDay = "time_of_day"
  case timeInterval = "time_interval"
  case location
  case multipleComponent = "multiple_component"
  case ses
  case file
  /// Any other result (active tasks, consent, app subclasses): kept as keyed fields.
  case other
}

/// The answer of one result.
public enum Answer: Sendable, Equatable {
  /// The result exists but holds no answer (the participant skipped an optional question).
  case skipped
  /// `ORKDontKnowAnswer`: the participant tapped "I don't know".
  case dontKnow
  case boolean(Bool)
  /// Chosen values in archive order (a single choice is an array of one).
  case choices([ChoiceValue])
  case scale(NumberValue)
  case numeric(NumberValue, unit: String?, displayUnit: String?)
  /// Text exactly as typed.
  case text(String)
  case date(DateAnswer)
  case timeOfDay(TimeOfDay)
  /// Seconds.
  case timeInterval(Double)
  /// Boxed: a location is 135 bytes, the next largest case 57, and every answer (and every
  /// result record) would otherwise be as large as a location, in each copy and move.
  indirect case location(LocationAnswer)
  /// `ORKMultipleComponentQuestionResult`: one value per picker component.
  case components([ChoiceValue], separator: String?)
  /// `ORKSESQuestionResult`: the rung picked on the ladder.
  case sesRung(NumberValue)
  case file(FileAnswer)
  /// A result we do not model: every archived key, kept in order.
  case fields([Field])
}

/// One chosen value of a choice question (ResearchKit allows strings, numbers, dates and null).
public enum ChoiceValue: Sendable, Equatable {
  case text(String)
  case number(NumberValue)
  case date(Instant)
  case null
}

/// A date answer with the zone and calendar the device used.
public struct DateAnswer: Sendable, Equatable {
  public var instant: Instant
  /// `ORKDateQuestionResult.timeZone`, if archived.
  public var timeZone: TimeZoneInfo?
  /// The calendar identifier (`"gregorian"`), if archived.
  public var calendar: String?
  /// True for a date-only question, false for date-and-time, nil when the input cannot tell.
  public var isDateOnly: Bool?

  public init(
    instant: Instant, timeZone: TimeZoneInfo? = nil, calendar: String? = nil,
    isDateOnly: Bool? = nil
  ) {
    self.instant = instant
    self.timeZone = timeZone
    self.calendar = calendar
    self.isDateOnly = isDateOnly
  }
}

/// A time zone as inputs record it: an Olson name (archives) or a fixed offset (JSON).
public struct TimeZoneInfo: Sendable, Equatable {
  /// e.g. `"America/Los_Angeles"` or `"GMT-0700"`.
  public var name: String?
  /// Seconds east of GMT, when the input gives an offset instead of a name.
  public var secondsFromGMT: Int?

  public init(name: String? = nil, secondsFromGMT: Int? = nil) {
    self.name = name
    self.secondsFromGMT = secondsFromGMT
  }
}

/// A time of day (`NSDateComponents` with hour and minute, seconds when set).
public struct TimeOfDay: Sendable, Equatable {
  public var hour: Int
  public var minute: Int
  public var second: Int?

  public init(hour: Int, minute: Int, second: Int? = nil) {
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// Seconds since midnight; nil when that is beyond `Int` (components of a damaged archive:
  /// they are kept as recorded, only not summed).
  public var secondsSinceMidnight: Int? {
    let (hours, overflow1) = hour.multipliedReportingOverflow(by: 3600)
    let (minutes, overflow2) = minute.multipliedReportingOverflow(by: 60)
    let (sum, overflow3) = hours.addingReportingOverflow(minutes)
    let (total, overflow4) = sum.addingReportingOverflow(second ?? 0)
    guard !(overflow1 || overflow2 || overflow3 || overflow4) else { return nil }
    return total
  }
}

/// `ORKLocation`: what the participant picked or typed on the map.
public struct LocationAnswer: Sendable, Equatable {
  public var latitude: Double?
  public var longitude: Double?
  /// Text the participant typed to search.
  public var userInput: String?
  /// The address as one line (formatted address, or its parts joined), when archived.
  public var address: String?
  /// The address parts as archived (`postalAddress` or legacy `addressDictionary`).
  public var addressFields: [Field]
  public var regionCenterLatitude: Double?
  public var regionCenterLongitude: Double?
  public var regionRadius: Double?
  public var regionIdentifier: String?

  public init(
    latitude: Double? = nil, longitude: Double? = nil, userInput: String? = nil,
    address: String? = nil, addressFields: [Field] = [], regionCenterLatitude: Double? = nil,
    regionCenterLongitude: Double? = nil, regionRadius: Double? = nil,
    regionIdentifier: String? = nil
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.userInput = userInput
    self.address = address
    self.addressFields = addressFields
    self.regionCenterLatitude = regionCenterLatitude
    self.regionCenterLongitude = regionCenterLongitude
    self.regionRadius = regionRadius
    self.regionIdentifier = regionIdentifier
  }
}

/// `ORKFileResult`: a file the task recorded (audio, images, sensor data).
public struct FileAnswer: Sendable, Equatable {
  /// Percent-decoded path relative to the app's home directory, or an absolute path/URL.
  public var path: String?
  public var contentType: String?
  public var fileName: String?

  public init(path: String? = nil, contentType: String? = nil, fileName: String? = nil) {
    self.path = path
    self.contentType = contentType
    self.fileName = fileName
  }
}
