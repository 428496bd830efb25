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
  static func appendText(_ text: String, to buffer: inout ByteWriter) {
    // Native strings lend their UTF-8 in place; others are copied once.
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendText($0, to: &buffer) }
    guard done == nil else { return }
    var copy = text
    copy.withUTF8 { appendText($0, to: &buffer) }
  }

  static func appendText(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteWriter) {
    guard needsQuotes(bytes) else {
      buffer.append(bytes)
      return
    }
    buffer.append(0x22)
    for byte in bytes {
      if byte == 0x22 { buffer.append(0x22) }
      buffer.append(byte)
    }
    buffer.append(0x22)
  }

  /// True when the bytes hold a comma, quote, LF or CR. Tests eight bytes per step (the last
  /// step re-reads a few bytes, or pads a short field with `A`): most fields need no quotes,
  /// and this scan runs over every byte of every text field.
  static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let raw = UnsafeRawBufferPointer(bytes)
    let count = raw.count
    guard count >= 8 else {
      var word = 0x4141_4141_4141_4141 as UInt64
      withUnsafeMutableBytes(of: &word) { padded in
        guard let source = raw.baseAddress, let target = padded.baseAddress else { return }
        target.copyMemory(from: source, byteCount: count)
      }
      return hasSpecialByte(word)
    }
    var offset = 0
    while offset + 8 <= count {
      if hasSpecialByte(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
      offset += 8
    }
    return offset < count
      && hasSpecialByte(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
  }

  /// True when one of the eight bytes of `word` is a comma, quote, LF or CR.
  @inline(__always)
  private static func hasSpecialByte(_ word: UInt64) -> Bool {
    // All four are below `-` (0x2D), and most words (digits, letters, `-`, `:`, `.`) hold no
    // byte below it.
    guard ByteWord.bytesBelow(0x2D, in: word) != 0 else { return false }
    return ByteWord.bytesEqual(to: 0x2C, in: word) | ByteWord.bytesEqual(to: 0x22, in: word)
      | ByteWord.bytesEqual(to: 0x0A, in: word) | ByteWord.bytesEqual(to: 0x0D, in: word) != 0
  }

  static func appendASCII(_ text: StaticString, to buffer: inout ByteWriter) {
    text.withUTF8Buffer { buffer.append($0) }
  }

  static func appendInteger(_ value: Int64, to buffer: inout ByteWriter) {
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    appendUnsigned(value.magnitude, to: &buffer)
  }

  static func appendUnsigned(_ value: UInt64, to buffer: inout ByteWriter) {
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
    let digits = buffer.reserve(digitCount)
    var remaining = value
    var index = digitCount - 1
    while index >= 0 {
      digits[index] = UInt8(truncatingIfNeeded: remaining % 10) &+ 48
      remaining /= 10
      index -= 1
    }
  }

  static func appendSeconds(_ seconds: Double, to buffer: inout ByteWriter) {
    guard seconds.isFinite else { return }
    guard let ms = roundedMilliseconds(seconds * 1000) else {
      // Beyond exact millisecond integers (~285,000 years): shortest round-trip text instead.
      buffer.append(Array("\(seconds)".utf8))
      return
    }
    let magnitude = ms.magnitude
    var whole = magnitude / 1000
    var fraction = Int(magnitude % 1000)
    // Written right to left on the stack, ending at byte 32 (at most 13 digits, a point, 3
    // digits and a sign), and appended as four words read from where it starts: one capacity
    // check and no copy loop per value.
    var stack: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
      0, 0, 0, 0, 0, 0, 0, 0
    )
    withUnsafeMutableBytes(of: &stack) { text in
      var start = 32
      func put(_ byte: UInt8) {
        start -= 1
        text[start] = byte
      }
      if fraction != 0 {
        var width = 3
        while fraction % 10 == 0 {
          fraction /= 10
          width -= 1
        }
        for _ in 0..<width {
          put(UInt8(48 + fraction % 10))
          fraction /= 10
        }
        put(UInt8(ascii: "."))
      }
      repeat {
        put(UInt8(truncatingIfNeeded: whole % 10) &+ 48)
        whole /= 10
      } while whole > 0
      if ms < 0 { put(UInt8(ascii: "-")) }
      func word(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: text.loadUnaligned(fromByteOffset: start + offset, as: UInt64.self))
      }
      buffer.appendWords((word(0), word(8), word(16), word(24)), count: 32 - start)
    }
  }
}
