// ISO 8601 text for instants, without Foundation: the hot path of every CSV row with a date.

/// Formats instants (milliseconds since 1970, UTC) as ISO 8601 (`2016-05-16T19:34:25.846Z`).
public enum ISO8601 {
  /// `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC.
  public static func utcMilliseconds(_ ms: Int64) -> String {
    format(millisecondsSince1970: ms, offsetSeconds: 0)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` in UTC: what Foundation's `ISO8601DateFormatter().string(from:)`
  /// writes (the instant to the nearest millisecond, then the second it falls in), without
  /// creating an ICU formatter (~2.6 M instructions at the start of every export, for the
  /// lock file's line).
  public static func utcSeconds(_ secondsSince1970: Double) -> String {
    guard secondsSince1970.isFinite, secondsSince1970.magnitude < 1e12 else { return "" }
    let milliseconds = Int64((secondsSince1970 * 1000).rounded())
    var bytes = [UInt8]()
    bytes.reserveCapacity(20)
    CivilTime(millisecondsSince1970: milliseconds).appendDateAndTime(to: &bytes)
    bytes.append(UInt8(ascii: "Z"))
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ISO 8601 with milliseconds at a fixed offset from UTC: `Z` when 0, else `±HH:MM`.
  public static func format(millisecondsSince1970 ms: Int64, offsetSeconds: Int) -> String {
    var bytes = [UInt8]()
    bytes.reserveCapacity(29)
    append(millisecondsSince1970: ms, offsetSeconds: offsetSeconds, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the same text as `format` to a byte buffer (the CSV writer's hot path). Every
  /// Int64 instant has a date (years beyond 9999 get more digits); only an offset that would
  /// overflow appends nothing.
  public static func append(
    millisecondsSince1970 ms: Int64, offsetSeconds: Int, to bytes: inout [UInt8]
  ) {
    guard offsetSeconds.magnitude < 1_000_000 else { return }
    let (local, overflow) = ms.addingReportingOverflow(Int64(offsetSeconds) * 1000)
    guard !overflow else { return }
    let parts = CivilTime(millisecondsSince1970: local)
    parts.appendDateAndTime(to: &bytes)
    bytes.append(UInt8(ascii: "."))
    let millis = parts.millisecond
    bytes.append(UInt8(48 + millis / 100))
    append2(millis % 100, to: &bytes)
    appendOffset(offsetSeconds, to: &bytes)
  }

  /// The local calendar date `YYYY-MM-DD` of an instant at a fixed offset from UTC.
  public static func localDate(millisecondsSince1970 ms: Int64, offsetSeconds: Int) -> String {
    guard offsetSeconds.magnitude < 1_000_000 else { return "" }
    let (local, overflow) = ms.addingReportingOverflow(Int64(offsetSeconds) * 1000)
    guard !overflow else { return "" }
    let parts = CivilTime(millisecondsSince1970: local)
    guard parts.year >= 0 && parts.year <= 9999 else {
      // Five-digit and negative years are rare: the general path writes them.
      var bytes = [UInt8]()
      parts.appendDate(to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
    // Ten bytes on the stack, and a String that keeps them inline: no allocation (a date-only
    // answer's value is made per answer).
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { text in
      func put2(_ value: Int, at index: Int) {
        text[index] = UInt8(48 + value / 10 % 10)
        text[index + 1] = UInt8(48 + value % 10)
      }
      put2(parts.year / 100, at: 0)
      put2(parts.year % 100, at: 2)
      text[4] = UInt8(ascii: "-")
      put2(parts.month, at: 5)
      text[7] = UInt8(ascii: "-")
      put2(parts.day, at: 8)
      return String(decoding: UnsafeBufferPointer(text), as: UTF8.self)
    }
  }

  static func appendOffset(_ offsetSeconds: Int, to bytes: inout [UInt8]) {
    if offsetSeconds == 0 {
      bytes.append(UInt8(ascii: "Z"))
      return
    }
    bytes.append(UInt8(ascii: offsetSeconds < 0 ? "-" : "+"))
    let minutes = abs(offsetSeconds) / 60
    append2(minutes / 60, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    append2(minutes % 60, to: &bytes)
  }
}

@inline(__always)
func append2(_ value: Int, to bytes: inout [UInt8]) {
  bytes.append(UInt8(48 + value / 10 % 10))
  bytes.append(UInt8(48 + value % 10))
}

/// Proleptic Gregorian calendar fields of a UTC (or offset-shifted) millisecond count.
public struct CivilTime: Sendable, Equatable {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int
  public var millisecond: Int

  public init(millisecondsSince1970 ms: Int64) {
    var days = ms / 86_400_000
    var msOfDay = ms % 86_400_000
    if msOfDay < 0 {
      msOfDay += 86_400_000
      days -= 1
    }
    // Days to civil date: Howard Hinnant's algorithm (public domain), exact for all Int64 days.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    year = Int(yoe + era * 400 + (m <= 2 ? 1 : 0))
    month = Int(m)
    day = Int(d)
    let msInt = Int(msOfDay)
    hour = msInt / 3_600_000
    minute = msInt / 60_000 % 60
    second = msInt / 1000 % 60
    millisecond = msInt % 1000
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`,
  /// the inverse of the conversion in `init`); month 1–12, day 1–31, any year.
  public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// `YYYY-MM-DDTHH:MM:SS`.
  func appendDateAndTime(to bytes: inout [UInt8]) {
    appendDate(to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    append2(hour, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    append2(minute, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    append2(second, to: &bytes)
  }

  func appendDate(to bytes: inout [UInt8]) {
    var y = year
    if y < 0 {
      bytes.append(UInt8(ascii: "-"))
      y = -y
    }
    if y > 9999 {
      bytes.append(contentsOf: Array(String(y).utf8))
    } else {
      append2(y / 100, to: &bytes)
      append2(y % 100, to: &bytes)
    }
    bytes.append(UInt8(ascii: "-"))
    append2(month, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    append2(day, to: &bytes)
  }
}

/// Appends instants as `ISO8601.append` does, remembering the date text of the last day:
/// the instants of one run mostly fall on one day, and the calendar conversion is the costly
/// part. The text is assembled in four words and appended at once. One per thread (a mutable
/// value).
public struct ISO8601Writer: Sendable {
  private var cachedDay = Int64.min
  /// `YYYY-MM-` of `cachedDay` as eight bytes, and `DD` as two (little-endian byte order).
  private var cachedDateHead: UInt64 = 0
  private var cachedDateTail: UInt64 = 0

  public init() {}

  /// Appends `YYYY-MM-DDTHH:MM:SS.mmm` and `Z` or `±HH:MM`, like `ISO8601.append`.
  public mutating func append(
    millisecondsSince1970 ms: Int64, offsetSeconds: Int, to bytes: inout ByteWriter
  ) {
    guard offsetSeconds.magnitude < 1_000_000 else { return }
    let (local, overflow) = ms.addingReportingOverflow(Int64(offsetSeconds) * 1000)
    guard !overflow else { return }
    var day = local / 86_400_000
    var msOfDay = Int(local % 86_400_000)
    if msOfDay < 0 {
      msOfDay += 86_400_000
      day -= 1
    }
    if day != cachedDay {
      let date = CivilTime(millisecondsSince1970: local)
      guard date.year >= 0 && date.year <= 9999 else {
        // Five-digit and negative years are rare: the general path writes them.
        var text: [UInt8] = []
        ISO8601.append(millisecondsSince1970: ms, offsetSeconds: offsetSeconds, to: &text)
        return bytes.append(text)
      }
      let year = date.year
      cachedDateHead =
        Self.digit(year / 1000) | Self.digit(year / 100) << 8 | Self.digit(year / 10) << 16
        | Self.digit(year) << 24 | Self.dash << 32 | Self.digit(date.month / 10) << 40
        | Self.digit(date.month) << 48 | Self.dash << 56
      cachedDateTail = Self.digit(date.day / 10) | Self.digit(date.day) << 8
      cachedDay = day
    }
    // Unsigned (msOfDay is 0..<86_400_000), each quotient reused for its remainder: this runs
    // for every date cell, and signed division and `%` cost several instructions each.
    let time = UInt(msOfDay)
    let seconds = time / 1000
    let millis = time &- seconds &* 1000
    let minutes = seconds / 60
    let second = seconds &- minutes &* 60
    let hour = minutes / 60
    let minute = minutes &- hour &* 60
    let centis = millis / 100
    // Bytes 8–15 `DDTHH:MM`, 16–23 `:SS.mmmZ` (or the offset's sign), 24–28 `HH:MM`.
    var words: (UInt64, UInt64, UInt64, UInt64) = (cachedDateHead, 0, 0, 0)
    words.1 =
      cachedDateTail | UInt64(UInt8(ascii: "T")) << 16 | Self.twoDigits(hour) << 24
      | Self.colon << 40 | Self.twoDigits(minute) << 48
    words.2 =
      Self.colon | Self.twoDigits(second) << 8 | UInt64(UInt8(ascii: ".")) << 24
      | UInt64(48 &+ centis) << 32 | Self.twoDigits(millis &- centis &* 100) << 40
    var length = 24
    if offsetSeconds == 0 {
      words.2 |= UInt64(UInt8(ascii: "Z")) << 56
    } else {
      words.2 |= UInt64(UInt8(ascii: offsetSeconds < 0 ? "-" : "+")) << 56
      let minutes = abs(offsetSeconds) / 60
      words.3 =
        Self.digit(minutes / 600) | Self.digit(minutes / 60) << 8 | Self.colon << 16
        | Self.digit(minutes % 60 / 10) << 24 | Self.digit(minutes % 60) << 32
      length = 29
    }
    bytes.appendWords(words, count: length)
  }

  private static var dash: UInt64 { UInt64(UInt8(ascii: "-")) }
  private static var colon: UInt64 { UInt64(UInt8(ascii: ":")) }

  /// `value` (0...99) as two ASCII digits, tens in the low byte, as a word to shift into place.
  @inline(__always)
  private static func twoDigits(_ value: UInt) -> UInt64 {
    // value * 103 >> 10 is value / 10 for every value below 179.
    let tens = (value &* 103) &>> 10
    return UInt64(truncatingIfNeeded: 0x3030 | tens | (value &- tens &* 10) << 8)
  }

  /// The ASCII digit of `value`'s last decimal digit, as a word to shift into place.
  @inline(__always)
  private static func digit(_ value: Int) -> UInt64 {
    UInt64(48 + value % 10)
  }
}
