// Date and time-of-day strings as JSON producers write them (formats.md §4.2, §5.2), parsed
// without Foundation's locale-dependent formatters.
import RKModel
import RKTable

/// A parsed date string: the instant, the offset it was written with, and whether it was a
/// calendar date without a time.
public struct JSONDateText: Sendable, Equatable {
  public var instant: Instant
  /// Seconds east of GMT as written (`+00:00`, `-0700`, `Z` = 0); nil for a date-only string.
  public var secondsFromGMT: Int?
  /// True for `yyyy-MM-dd` (the instant is then 00:00 UTC of that date).
  public var isDateOnly: Bool

  /// Parses `yyyy-MM-dd`, or `yyyy-MM-ddTHH:mm:ss` with optional fraction and a zone of `Z`,
  /// `±HH:MM`, `±HHMM` or `±HH` (AppCore `2015-02-25T16:42:11+00:00`, ResearchUXFactory
  /// `2017-09-13T15:58:52.704-07:00`, ORKESerializer `2015-02-15T19:35:10+0000`).
  /// Returns nil for anything else, including impossible dates such as `2015-02-30`.
  public init?(_ text: String) {
    var text = text
    guard let parsed = text.withUTF8(Self.parse) else { return nil }
    self = parsed
  }

  /// `init(_:)` of the UTF-8 bytes of a text (a JSON document's string, read in place).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONDateText? {
    guard bytes.count >= 10, let year = digits(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
      let month = digits(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"),
      let day = digits(bytes, 8, 2), (1...12).contains(month),
      (1...daysInMonth(year: year, month: month)).contains(day)
    else { return nil }
    let days = daysSince1970(year: year, month: month, day: day)
    if bytes.count == 10 {
      return JSONDateText(
        instant: Instant(secondsSince1970: Double(days) * 86_400), secondsFromGMT: nil,
        isDateOnly: true)
    }
    guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
      let hour = digits(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"),
      let minute = digits(bytes, 14, 2), bytes[16] == UInt8(ascii: ":"),
      let second = digits(bytes, 17, 2), hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    var fraction = 0.0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      var scale = 0.1
      let start = index
      while index < bytes.count, let digit = digits(bytes, index, 1) {
        fraction += Double(digit) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    guard let offset = parseZone(bytes, from: index) else { return nil }
    let local = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction
    return JSONDateText(
      instant: Instant(secondsSince1970: local - Double(offset)), secondsFromGMT: offset,
      isDateOnly: false)
  }

  public init(instant: Instant, secondsFromGMT: Int?, isDateOnly: Bool) {
    self.instant = instant
    self.secondsFromGMT = secondsFromGMT
    self.isDateOnly = isDateOnly
  }

  /// The model's date answer: date-only strings keep their calendar date by pinning the zone
  /// to UTC (the instant is that date's midnight in UTC); others keep the written offset.
  public var dateAnswer: DateAnswer {
    DateAnswer(
      instant: instant, timeZone: TimeZoneInfo(secondsFromGMT: secondsFromGMT ?? 0),
      isDateOnly: isDateOnly)
  }

  /// Parses `HH:mm` or `HH:mm:ss` (ResearchUXFactory writes `dateComponentsAnswer` so).
  public static func timeOfDay(_ text: String) -> TimeOfDay? {
    var text = text
    return text.withUTF8(timeOfDay(bytes:))
  }

  /// `timeOfDay(_:)` of the UTF-8 bytes of a text.
  static func timeOfDay(bytes: UnsafeBufferPointer<UInt8>) -> TimeOfDay? {
    guard bytes.count == 5 || bytes.count == 8, let hour = digits(bytes, 0, 2),
      bytes[2] == UInt8(ascii: ":"), let minute = digits(bytes, 3, 2), hour < 24, minute < 60
    else { return nil }
    if bytes.count == 5 { return TimeOfDay(hour: hour, minute: minute) }
    guard bytes[5] == UInt8(ascii: ":"), let second = digits(bytes, 6, 2), second < 61 else {
      return nil
    }
    return TimeOfDay(hour: hour, minute: minute, second: second)
  }
}

/// Seconds east of GMT from `Z`, `±HH:MM`, `±HHMM` or `±HH` filling the rest of `bytes`.
private func parseZone(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
  let rest = bytes.count - index
  if rest == 1, bytes[index] == UInt8(ascii: "Z") { return 0 }
  guard rest == 3 || rest == 5 || rest == 6 else { return nil }
  let sign: Int
  switch bytes[index] {
  case UInt8(ascii: "+"): sign = 1
  case UInt8(ascii: "-"): sign = -1
  default: return nil
  }
  guard let hours = digits(bytes, index + 1, 2), hours <= 18 else { return nil }
  var minutes = 0
  if rest == 5 {
    guard let value = digits(bytes, index + 3, 2) else { return nil }
    minutes = value
  } else if rest == 6 {
    guard bytes[index + 3] == UInt8(ascii: ":"), let value = digits(bytes, index + 4, 2) else {
      return nil
    }
    minutes = value
  }
  guard minutes < 60 else { return nil }
  return sign * (hours * 3600 + minutes * 60)
}

/// The decimal value of `count` ASCII digits at `start`, or nil when any is not a digit.
private func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
  guard start >= 0, start + count <= bytes.count else { return nil }
  var value = 0
  for byte in bytes[start..<start + count] {
    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
    value = value * 10 + Int(byte - UInt8(ascii: "0"))
  }
  return value
}

private func daysInMonth(year: Int, month: Int) -> Int {
  switch month {
  case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
  case 4, 6, 9, 11: return 30
  default: return 31
  }
}

/// Days from 1970-01-01 to the given proleptic Gregorian date.
func daysSince1970(year: Int, month: Int, day: Int) -> Int {
  CivilTime.daysSince1970(year: year, month: month, day: day)
}
