// ISO 8601 text for instants, without Foundation: the hot path of every CSV row with a date.

/// Formats instants (milliseconds since 1970, UTC) as ISO 8601 (`2016-05-16T19:34:25.846Z`).
public enum ISO8601 {
  /// `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC.
  public static func utcMilliseconds(_ ms: Int64) -> String {
    format(millisecondsSince1970: ms, offsetSeconds: 0)
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
    parts.appendDate(to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    append2(parts.hour, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    append2(parts.minute, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    append2(parts.second, to: &bytes)
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
    var bytes = [UInt8]()
    parts.appendDate(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
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
