// Dates of XML plists and of the inspector's output, on RKTable's calendar arithmetic.
import RKModel
import RKTable

/// Converts between seconds since 2001-01-01T00:00:00Z and the text forms plists use.
enum PlistDate {
  /// Days from 1970-01-01 to 2001-01-01.
  static let referenceDay = 11_323

  /// Parses `YYYY-MM-DDTHH:MM:SSZ` (the XML plist date form) into seconds since 2001.
  static func parseXMLDate(_ text: String) -> Double? {
    let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map { Int($0) }
    guard text.hasSuffix("Z"), parts.count == 6, parts.allSatisfy({ $0 != nil }) else {
      return nil
    }
    let fields = parts.compactMap { $0 }
    // The time fields are not held to a clock's range (as before), only kept from overflowing.
    guard (1...12).contains(fields[1]), (1...31).contains(fields[2]), abs(fields[0]) < 1_000_000,
      fields[3...].allSatisfy({ abs($0) < 1_000_000_000 })
    else { return nil }
    let day =
      CivilTime.daysSince1970(year: fields[0], month: fields[1], day: fields[2]) - referenceDay
    return Double(day * 86_400 + fields[3] * 3600 + fields[4] * 60 + fields[5])
  }

  /// ISO 8601 UTC with milliseconds (`2016-05-16T19:34:25.846Z`) of seconds since 2001; the
  /// number itself when it is no writable instant.
  static func iso8601(secondsSince2001 seconds: Double) -> String {
    guard let ms = Instant(secondsSinceReferenceDate: seconds).millisecondsSince1970 else {
      return "\(seconds)"
    }
    return ISO8601.utcMilliseconds(ms)
  }
}
