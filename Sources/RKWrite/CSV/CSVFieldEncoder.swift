// Cell → CSV bytes without Foundation: the per-cell hot path of every CSV file.
import RKTable

/// Appends cells as RFC 4180 fields (design.md §4 conventions) to a byte buffer.
///
/// - text: as is; quoted (`"` doubled) only when it holds a comma, quote, CR or LF.
/// - number: its canonical text, unchanged (`NumberValue.text`).
/// - integer: decimal digits; bool: `true` / `false`.
/// - instant: ISO 8601 with milliseconds in the output zone (`Z` for UTC, else `±HH:MM`).
/// - seconds: the value × 1000 rounded half away from zero to whole milliseconds, then written
///   with trailing fraction zeros dropped (`2.5`, `19.846`, `3`, `-0.25`); NaN and ±∞ give an
///   empty field (a duration that cannot be measured is missing).
enum CSVFieldEncoder {
  /// True when RFC 4180 requires quoting the field.
  static func needsQuotes(_ text: String) -> Bool {
    text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
  }

  static func appendText(_ text: String, to buffer: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
      var needsQuotes = false
      for byte in bytes where byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D {
        needsQuotes = true
        break
      }
      guard needsQuotes else {
        buffer.append(contentsOf: bytes)
        return
      }
      buffer.append(0x22)
      for byte in bytes {
        if byte == 0x22 { buffer.append(0x22) }
        buffer.append(byte)
      }
      buffer.append(0x22)
    }
  }

  static func appendASCII(_ text: StaticString, to buffer: inout [UInt8]) {
    text.withUTF8Buffer { buffer.append(contentsOf: $0) }
  }

  static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    appendUnsigned(value.magnitude, to: &buffer)
  }

  static func appendUnsigned(_ value: UInt64, to buffer: inout [UInt8]) {
    if value < 10 {
      buffer.append(UInt8(truncatingIfNeeded: value) &+ 48)
      return
    }
    var digitCount = 1
    var rest = value / 10
    while rest > 0 {
      digitCount += 1
      rest /= 10
    }
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(UInt8(48), count: digitCount))
    var remaining = value
    var index = start + digitCount - 1
    while index >= start {
      buffer[index] = UInt8(truncatingIfNeeded: remaining % 10) &+ 48
      remaining /= 10
      index -= 1
    }
  }

  static func appendSeconds(_ seconds: Double, to buffer: inout [UInt8]) {
    guard seconds.isFinite else { return }
    let scaled = (seconds * 1000).rounded(.toNearestOrAwayFromZero)
    guard abs(scaled) < 9.0e15 else {
      // Beyond exact millisecond integers (~285,000 years): shortest round-trip text instead.
      buffer.append(contentsOf: "\(seconds)".utf8)
      return
    }
    let ms = Int64(scaled)
    if ms < 0 { buffer.append(UInt8(ascii: "-")) }
    let magnitude = ms.magnitude
    appendUnsigned(magnitude / 1000, to: &buffer)
    var fraction = Int(magnitude % 1000)
    guard fraction != 0 else { return }
    buffer.append(UInt8(ascii: "."))
    var width = 3
    while fraction % 10 == 0 {
      fraction /= 10
      width -= 1
    }
    if width == 3 { buffer.append(UInt8(48 + fraction / 100)) }
    if width >= 2 { buffer.append(UInt8(48 + fraction / 10 % 10)) }
    buffer.append(UInt8(48 + fraction % 10))
  }

  static func appendInstant(_ ms: Int64, zone: TimeZoneRule, to buffer: inout [UInt8]) {
    let offset = zone.isUTC ? 0 : zone.offsetSeconds(atMillisecondsSince1970: ms)
    ISO8601.append(millisecondsSince1970: ms, offsetSeconds: offset, to: &buffer)
  }

  @inline(__always)
  static func append2(_ value: Int, to buffer: inout [UInt8]) {
    buffer.append(UInt8(48 + value / 10 % 10))
    buffer.append(UInt8(48 + value % 10))
  }
}
