// Gregorian calendar arithmetic in UTC, without Foundation: XML plist dates and inspector output.

/// Converts between seconds since 2001-01-01T00:00:00Z and UTC calendar fields.
enum CivilTime {
  /// Days from 1970-01-01 to 2001-01-01.
  static let referenceDay = 11_323

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let shifted = month <= 2 ? year - 1 : year
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day count since 1970-01-01 (`civil_from_days`).
  static func date(days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Parses `YYYY-MM-DDTHH:MM:SSZ` (the XML plist date form) into seconds since 2001.
  static func parseXMLDate(_ text: String) -> Double? {
    let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map { Int($0) }
    guard text.hasSuffix("Z"), parts.count == 6, parts.allSatisfy({ $0 != nil }) else {
      return nil
    }
    let fields = parts.compactMap { $0 }
    guard (1...12).contains(fields[1]), (1...31).contains(fields[2]), abs(fields[0]) < 1_000_000
    else { return nil }
    let day = days(year: fields[0], month: fields[1], day: fields[2]) - referenceDay
    return Double(day * 86_400 + fields[3] * 3600 + fields[4] * 60 + fields[5])
  }

  /// ISO 8601 UTC with milliseconds (`2016-05-16T19:34:25.846Z`) of seconds since 2001.
  static func iso8601(secondsSince2001 seconds: Double) -> String {
    let milliseconds = (seconds * 1000).rounded()
    guard milliseconds.isFinite, abs(milliseconds) < 1.0e16 else { return "\(seconds)" }
    let total = Int64(milliseconds)
    let (wholeSeconds, millis) = floorDivide(total, 1000)
    let (dayCount, secondOfDay) = floorDivide(wholeSeconds, 86_400)
    let date = date(days: Int(dayCount) + referenceDay)
    let time = Int(secondOfDay)
    return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) + "T"
      + pad(time / 3600, 2) + ":" + pad(time / 60 % 60, 2) + ":" + pad(time % 60, 2) + "."
      + pad(Int(millis), 3) + "Z"
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    return (quotient, value - quotient * divisor)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let sign = value < 0 ? "-" : ""
    return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
