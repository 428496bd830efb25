// Instants as Excel date serials: days since 1899-12-30, local time, no zone.
import RKTable

/// Converts milliseconds since 1970 to Excel's 1900 date system.
enum XLSXDates {
  /// Serial of 1970-01-01 (days from Excel's day 0, 1899-12-30).
  static let unixEpochSerial: Int64 = 25_569
  /// 1900-03-01, the first date whose serial is right: Excel counts 1900-02-29, which never was.
  static let firstSerial: Int64 = 61
  /// 9999-12-31, Excel's last date, plus one day.
  static let endSerial: Int64 = 2_958_466
  private static let millisecondsPerDay: Int64 = 86_400_000

  /// True when an instant in UTC is within a day of Excel's date range (zone offsets stay under
  /// a day), so adding an offset can neither overflow nor leave the range unchecked.
  static func isNearExcelRange(_ utcMilliseconds: Int64) -> Bool {
    let low = (firstSerial - unixEpochSerial - 1) * millisecondsPerDay
    let high = (endSerial - unixEpochSerial + 1) * millisecondsPerDay
    return utcMilliseconds >= low && utcMilliseconds < high
  }

  /// The serial of a local wall-clock time (milliseconds since 1970 shifted by the zone
  /// offset), or nil before 1900-03-01 or after 9999-12-31.
  ///
  /// Whole days and the day fraction are converted apart so the millisecond survives in the
  /// Double (a serial near 45,000 keeps about 1e-11 days, a microsecond).
  static func serial(localMilliseconds: Int64) -> Double? {
    var days = localMilliseconds / millisecondsPerDay
    var milliseconds = localMilliseconds % millisecondsPerDay
    if milliseconds < 0 {
      milliseconds += millisecondsPerDay
      days -= 1
    }
    let serialDay = days + unixEpochSerial
    guard serialDay >= firstSerial, serialDay < endSerial else { return nil }
    return Double(serialDay) + Double(milliseconds) / Double(millisecondsPerDay)
  }

  /// ISO 8601 text for an instant Excel cannot show as a date, so it is kept rather than lost.
  static func fallbackText(_ utcMilliseconds: Int64, zone: TimeZoneRule) -> String {
    // Within ±30,000 years the zone lookup and formatting cannot overflow.
    guard utcMilliseconds.magnitude < 1_000_000_000_000_000 else {
      return "\(utcMilliseconds) ms since 1970-01-01T00:00:00Z"
    }
    return zone.format(millisecondsSince1970: utcMilliseconds)
  }
}
