// Strings and numbers of the JSON parser: escape decoding, strict UTF-8 validation and the
// RFC 8259 number grammar, each error pointing at the offending byte.

extension JSONCursor {
  /// Reads a string starting at its opening quote; validates UTF-8 and decodes escapes.
  mutating func readString() throws -> String {
    let start = offset + 1
    let kind = try skipString()
    let run = UnsafeBufferPointer(rebasing: bytes[start..<offset - 1])
    guard kind.hasEscapes else { return String(decoding: run, as: UTF8.self) }
    return Self.decodeEscapes(in: run)
  }

  /// What `skipString` met in a string's text.
  struct StringKind {
    /// A backslash escape: the text must be decoded (`decodeEscapes`).
    var hasEscapes = false
    /// A byte of 0x80 or more: a character outside ASCII.
    var hasNonASCII = false
  }

  /// Steps over a string starting at its opening quote, to just past its closing quote,
  /// validating its UTF-8 and escapes as `readString` reads them.
  mutating func skipString() throws -> StringKind {
    offset += 1
    let start = offset
    var kind = StringKind()
    var noText: [UInt8]? = nil  // escapes are checked here, not decoded
    while true {
      skipPlainBytes()
      guard let byte = current else {
        throw error("unterminated string (opened at byte \(start - 1))")
      }
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return kind
      case UInt8(ascii: "\\"):
        kind.hasEscapes = true
        try readEscape(into: &noText)
      case 0..<0x20:
        throw error("control character \(describe(byte)) in a string must be escaped")
      case 0x80...:
        kind.hasNonASCII = true
        try skipUTF8Sequence()
      default:
        offset += 1
      }
    }
  }

  /// Steps over printable ASCII other than `"` and `\\`, the bytes a string's text is mostly
  /// made of, in a loop over the raw bytes (the switch of `skipString` cost ~14
  /// instructions a byte).
  @inline(__always)
  mutating func skipPlainBytes() {
    guard let base = bytes.baseAddress else { return }
    var at = offset
    let end = bytes.count
    while at < end {
      let byte = base[at]
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\")
      else { break }
      at &+= 1
    }
    offset = at
  }

  /// The text of a string's content (between its quotes) that `skipString` accepted and found
  /// escapes in, its escapes decoded.
  static func decodeEscapes(in run: UnsafeBufferPointer<UInt8>) -> String {
    var cursor = JSONCursor(bytes: run, maximumDepth: 0)
    var decoded: [UInt8]? = []
    decoded?.reserveCapacity(run.count)
    var runStart = 0
    while let byte = cursor.current {
      guard byte == UInt8(ascii: "\\") else {
        cursor.offset += 1
        continue
      }
      decoded?.append(contentsOf: UnsafeBufferPointer(rebasing: run[runStart..<cursor.offset]))
      // Checked by `skipString`: an escape here cannot fail.
      guard (try? cursor.readEscape(into: &decoded)) != nil else { break }
      runStart = cursor.offset
    }
    decoded?.append(contentsOf: UnsafeBufferPointer(rebasing: run[runStart..<run.count]))
    return String(decoding: decoded ?? [], as: UTF8.self)
  }

  /// Validates one multi-byte UTF-8 sequence at `offset` (Unicode Table 3-7) and steps over it.
  mutating func skipUTF8Sequence() throws {
    let lead = bytes[offset]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: (length, secondRange) = (3, 0x80...0x9F)  // no UTF-16 surrogates in UTF-8
    case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
    case 0xF1...0xF3: length = 4
    case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
    default: throw error("invalid UTF-8 byte \(describe(lead))")
    }
    guard offset + length <= bytes.count else { throw error("truncated UTF-8 sequence") }
    guard secondRange.contains(bytes[offset + 1]) else {
      throw error("invalid UTF-8 sequence starting with \(describe(lead))")
    }
    for index in 2..<length where !(0x80...0xBF).contains(bytes[offset + index]) {
      throw error("invalid UTF-8 sequence starting with \(describe(lead))")
    }
    offset += length
  }

  /// Decodes one backslash escape at `offset` into `decoded`.
  mutating func readEscape(into decoded: inout [UInt8]?) throws {
    let escapeStart = offset
    offset += 1
    guard let byte = current else { throw error("unterminated escape", at: escapeStart) }
    offset += 1
    let simple: UInt8?
    switch byte {
    case UInt8(ascii: "\""): simple = 0x22
    case UInt8(ascii: "\\"): simple = 0x5C
    case UInt8(ascii: "/"): simple = 0x2F
    case UInt8(ascii: "b"): simple = 0x08
    case UInt8(ascii: "f"): simple = 0x0C
    case UInt8(ascii: "n"): simple = 0x0A
    case UInt8(ascii: "r"): simple = 0x0D
    case UInt8(ascii: "t"): simple = 0x09
    case UInt8(ascii: "u"): simple = nil
    default: throw error("invalid escape \\\(Character(Unicode.Scalar(byte)))", at: escapeStart)
    }
    if let simple {
      decoded?.append(simple)
      return
    }
    var code = UInt32(try readHex4(escapeStart: escapeStart))
    if (0xDC00...0xDFFF).contains(code) {
      throw error("unpaired UTF-16 low surrogate \\u\(hex4(code))", at: escapeStart)
    }
    if (0xD800...0xDBFF).contains(code) {
      let lowStart = offset
      guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
        bytes[offset + 1] == UInt8(ascii: "u")
      else { throw error("unpaired UTF-16 high surrogate \\u\(hex4(code))", at: escapeStart) }
      offset += 2
      let low = UInt32(try readHex4(escapeStart: lowStart))
      guard (0xDC00...0xDFFF).contains(low) else {
        throw error("unpaired UTF-16 high surrogate \\u\(hex4(code))", at: escapeStart)
      }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
    }
    guard let scalar = Unicode.Scalar(code) else {
      throw error("invalid code point \\u\(hex4(code))", at: escapeStart)
    }
    decoded?.append(contentsOf: Array(String(scalar).utf8))
  }

  mutating func readHex4(escapeStart: Int) throws -> UInt16 {
    guard offset + 4 <= bytes.count else { throw error("truncated \\u escape", at: escapeStart) }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("invalid hex digit in \\u escape", at: escapeStart)
      }
      value = value << 4 | UInt16(digit)
      offset += 1
    }
    return value
  }

  func hex4(_ code: UInt32) -> String {
    let hex = String(code, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// Reads a number per RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  mutating func readNumber() throws -> JSONNumber {
    let start = offset
    let isWhole = try skipNumber()
    return JSONNumber(UnsafeBufferPointer(rebasing: bytes[start..<offset]), isWhole: isWhole)
  }

  /// Steps over a number (the grammar of `readNumber`); true when it has no fraction and no
  /// exponent.
  mutating func skipNumber() throws -> Bool {
    let start = offset
    var isWhole = true
    if current == UInt8(ascii: "-") { offset += 1 }
    guard let first = current, isDigit(first) else {
      throw error("invalid number: expected a digit", at: start)
    }
    offset += 1
    if first == UInt8(ascii: "0"), let next = current, isDigit(next) {
      throw error("invalid number: leading zero", at: start)
    }
    skipDigits()
    if current == UInt8(ascii: ".") {
      isWhole = false
      offset += 1
      guard let digit = current, isDigit(digit) else {
        throw error("invalid number: expected a digit after '.'", at: start)
      }
      skipDigits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      isWhole = false
      offset += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
      guard let digit = current, isDigit(digit) else {
        throw error("invalid number: expected a digit in the exponent", at: start)
      }
      skipDigits()
    }
    return isWhole
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  mutating func skipDigits() {
    while let byte = current, isDigit(byte) { offset += 1 }
  }
}
