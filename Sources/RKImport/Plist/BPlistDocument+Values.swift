// Scalar payloads of a binary property list: numbers, strings, data, dates and UIDs.
import RKModel

extension BPlistDocument {
  /// An integer object as a 128-bit value (1, 2 and 4-byte integers are unsigned, 8-byte ones
  /// signed, 16-byte ones two's complement, as CoreFoundation writes them).
  func integer(_ header: PlistObjectHeader) -> Int128 {
    let size = 1 << Int(header.info)
    let start = header.payloadOffset
    switch size {
    case 16:
      let high = Self.bigEndian(bytes, at: start, size: 8)
      let low = Self.bigEndian(bytes, at: start + 8, size: 8)
      return Int128(bitPattern: UInt128(high) << 64 | UInt128(low))
    case 8:
      return Int128(Int64(bitPattern: Self.bigEndian(bytes, at: start, size: 8)))
    default:
      return Int128(Self.bigEndian(bytes, at: start, size: size))
    }
  }

  /// A real object (4-byte floats widened; their text is the float's shortest form).
  func real(_ header: PlistObjectHeader) -> Double {
    let start = header.payloadOffset
    if header.info == 2 {
      let bits = UInt32(Self.bigEndian(bytes, at: start, size: 4))
      return Double(Float(bitPattern: bits))
    }
    return Double(bitPattern: Self.bigEndian(bytes, at: start, size: 8))
  }

  /// An integer, real or boolean object as a number with exact text.
  func number(_ header: PlistObjectHeader) -> NumberValue? {
    switch header.type {
    case .integer:
      let value = integer(header)
      if let small = Int64(exactly: value) { return NumberValue(small) }
      return NumberValue(text: String(value), double: Double(value), isInteger: false)
    case .real:
      let value = real(header)
      if header.info == 2, value != value.rounded() {
        return NumberValue(text: "\(Float(value))", double: value, isInteger: false)
      }
      return NumberValue(value)
    case .bool:
      return NumberValue(header.info == 9 ? 1 : 0)
    default:
      return nil
    }
  }

  /// `number(header)?.double` without the number's text: integers, reals and booleans.
  func numberDouble(_ header: PlistObjectHeader) -> Double? {
    switch header.type {
    case .integer:
      // Through Int64 when it fits, as `number` converts: Double(Int128) is a generic
      // conversion costing ~700 instructions.
      if let small = Int64(exactly: integer(header)) {
        Double(small)
      } else {
        Double(integer(header))
      }
    case .real: real(header)
    case .bool: header.info == 9 ? 1 : 0
    default: nil
    }
  }

  /// A date object: seconds since 2001-01-01T00:00:00Z.
  func date(_ header: PlistObjectHeader) -> Double {
    Double(bitPattern: Self.bigEndian(bytes, at: header.payloadOffset, size: 8))
  }

  /// A UID object's value. The marker may claim up to 16 bytes: a longer value keeps its last
  /// eight.
  func uid(_ header: PlistObjectHeader) -> UInt64 {
    let size = Int(header.info) + 1
    guard size > 8 else { return Self.bigEndian(bytes, at: header.payloadOffset, size: size) }
    return Self.bigEndian(bytes, at: header.payloadOffset + size - 8, size: 8)
  }

  /// The value of object `ref` when it is a UID of at most four bytes, read from its marker
  /// without a full header; nil for anything else (which `header` then judges).
  @inline(__always)
  func inlineUID(_ ref: Int) -> UInt64? {
    guard let start = checkedOffset(of: ref) else { return nil }
    let marker = bytes[start]
    guard marker >> 4 == 0x8, marker & 0x0F < 4 else { return nil }
    let size = Int(marker & 0x0F) + 1
    guard size <= offsetTableOffset - start - 1 else { return nil }
    return Self.bigEndian(bytes, at: start + 1, size: size)
  }

  /// The value of object `ref` when it is an 8-byte real (how NSDate stores `NS.time`), read
  /// from its marker without a full header; nil for anything else.
  @inline(__always)
  func inlineDouble(_ ref: Int) -> Double? {
    guard let start = checkedOffset(of: ref), bytes[start] == 0x23,
      offsetTableOffset - start > 8
    else { return nil }
    return Double(bitPattern: Self.bigEndian(bytes, at: start + 1, size: 8))
  }

  /// A data object's bytes.
  func data(_ header: PlistObjectHeader) -> [UInt8] {
    Array(bytes[header.payloadOffset..<(header.payloadOffset + header.count)])
  }

  /// A string object (ASCII, UTF-8 or UTF-16 big-endian); invalid sequences become U+FFFD.
  func string(_ header: PlistObjectHeader) -> String {
    let start = header.payloadOffset
    if header.isUTF16 { return utf16String(header) }
    return String(decoding: bytes[start..<(start + header.count)], as: UTF8.self)
  }

  /// A UTF-16 big-endian string (non-ASCII text answers) transcoded straight to UTF-8, each
  /// unpaired surrogate repaired to U+FFFD as `String(decoding:as: UTF16.self)` does; that
  /// call over an array of units cost ~9,000 instructions per string.
  private func utf16String(_ header: PlistObjectHeader) -> String {
    let count = header.count
    guard count > 0 else { return "" }
    return bytes.withUnsafeBufferPointer { buffer in
      // `header` checked that the 2 × count payload bytes lie before the offset table.
      let source = buffer.baseAddress! + header.payloadOffset
      @inline(__always) func unit(_ index: Int) -> UInt32 {
        UInt32(source[2 &* index]) << 8 | UInt32(source[2 &* index &+ 1])
      }
      // At most three bytes per unit (a surrogate pair, two units, takes four).
      return String(unsafeUninitializedCapacity: 3 * count) { utf8 in
        var written = 0
        var index = 0
        while index < count {
          var scalar = unit(index)
          index += 1
          if scalar & 0xF800 == 0xD800 {
            if scalar < 0xDC00, index < count, unit(index) & 0xFC00 == 0xDC00 {
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (unit(index) - 0xDC00)
              index += 1
            } else {
              scalar = 0xFFFD
            }
          }
          // No surrogate is left here, so the scalar is always valid.
          UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { byte in
            utf8[written] = byte
            written += 1
          }
        }
        return written
      }
    }
  }

  /// Whether object `ref` is an ASCII string equal to `key`: the hot path of key lookup, reading
  /// the marker directly instead of a full header. Falls back to `header` for long or UTF-16
  /// strings; any malformed object simply does not match.
  func string(ref: Int, equals key: String) -> Bool {
    let utf8 = key.utf8
    let count = utf8.count
    guard count < 15, let start = try? offset(of: ref) else {
      guard let header = try? header(ref) else { return false }
      return string(header, equals: key)
    }
    let marker = bytes[start]
    guard marker == 0x50 | UInt8(count) else {
      // A short key can only also be stored as UTF-16 (0x6n) or UTF-8 (0x7n).
      guard marker >> 4 == 0x6 || marker >> 4 == 0x7, let header = try? header(ref) else {
        return false
      }
      return string(header, equals: key)
    }
    guard start + 1 + count <= offsetTableOffset else { return false }
    var index = start + 1
    for byte in utf8 {
      if bytes[index] != byte { return false }
      index += 1
    }
    return true
  }

  /// An integer or real object as a Double (no text): dates and counts.
  func double(_ header: PlistObjectHeader) -> Double? {
    switch header.type {
    case .integer: Double(integer(header))
    case .real: real(header)
    default: nil
    }
  }

  /// Whether object `header` is a string equal to `key`, compared without building a String.
  func string(_ header: PlistObjectHeader, equals key: String) -> Bool {
    guard header.type == .string else { return false }
    if header.isUTF16 { return utf16String(header) == key }
    let utf8 = key.utf8
    guard utf8.count == header.count else { return false }
    var index = header.payloadOffset
    for byte in utf8 {
      if bytes[index] != byte { return false }
      index += 1
    }
    return true
  }
}
