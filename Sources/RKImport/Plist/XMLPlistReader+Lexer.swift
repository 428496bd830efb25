// The XML side of the XML plist reader: tags, text with entities, comments and base64.

extension XMLPlistReader {
  /// One start, end or empty-element tag.
  struct Tag {
    var name: String
    var isClosing: Bool
    /// `<name/>`: an element without content.
    var isEmpty: Bool
  }

  private func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

  private func starts(with text: String, at index: Int) -> Bool {
    var cursor = index
    for expected in text.utf8 {
      guard byte(at: cursor) == expected else { return false }
      cursor += 1
    }
    return true
  }

  /// Moves past `terminator`, or fails at the end of the input.
  private mutating func skip(past terminator: String) throws(ImportError) {
    while position < bytes.count {
      if starts(with: terminator, at: position) {
        position += terminator.utf8.count
        return
      }
      position += 1
    }
    throw failure("unexpected end of file, expected \(terminator)")
  }

  /// Skips whitespace, comments, processing instructions and the DOCTYPE.
  mutating func skipMisc() throws(ImportError) {
    while let next = byte(at: position) {
      if next == 0x20 || next == 0x0A || next == 0x0D || next == 0x09 {
        position += 1
      } else if starts(with: "<!--", at: position) {
        try skip(past: "-->")
      } else if starts(with: "<?", at: position) {
        try skip(past: "?>")
      } else if starts(with: "<!DOCTYPE", at: position) {
        try skip(past: ">")
      } else if position == 0, starts(with: "\u{FEFF}", at: position) {
        position += 3
      } else {
        return
      }
    }
  }

  /// Reads the tag at the current position.
  mutating func readTag() throws(ImportError) -> Tag {
    guard byte(at: position) == UInt8(ascii: "<") else {
      throw failure(position < bytes.count ? "expected a tag" : "unexpected end of file")
    }
    position += 1
    let isClosing = byte(at: position) == UInt8(ascii: "/")
    if isClosing { position += 1 }
    let nameStart = position
    while let next = byte(at: position), next != UInt8(ascii: ">"), next != UInt8(ascii: "/"),
      next > 0x20
    {
      position += 1
    }
    let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
    var quote: UInt8?
    var previous: UInt8 = 0
    while let next = byte(at: position) {
      position += 1
      if let open = quote {
        if next == open { quote = nil }
      } else if next == UInt8(ascii: "\"") || next == UInt8(ascii: "'") {
        quote = next
      } else if next == UInt8(ascii: ">") {
        return Tag(name: name, isClosing: isClosing, isEmpty: previous == UInt8(ascii: "/"))
      }
      if next > 0x20 { previous = next }
    }
    throw failure("unexpected end of file inside a tag")
  }

  /// The text content of `tag` up to its end tag, entities and CDATA decoded.
  mutating func text(of tag: Tag) throws(ImportError) -> String {
    if tag.isEmpty { return "" }
    var text = [UInt8]()
    while let next = byte(at: position) {
      if next == UInt8(ascii: "<") {
        if starts(with: "<![CDATA[", at: position) {
          let start = position + 9
          try skip(past: "]]>")
          text += bytes[start..<(position - 3)]
        } else if starts(with: "<!--", at: position) {
          try skip(past: "-->")
        } else {
          let end = try readTag()
          guard end.isClosing, end.name == tag.name else {
            throw failure("expected </\(tag.name)>")
          }
          return String(decoding: text, as: UTF8.self)
        }
      } else if next == UInt8(ascii: "&") {
        try appendEntity(to: &text)
      } else {
        text.append(next)
        position += 1
      }
    }
    throw failure("unexpected end of file in <\(tag.name)>")
  }

  private mutating func appendEntity(to text: inout [UInt8]) throws(ImportError) {
    let start = position + 1
    var end = start
    while let next = byte(at: end), next != UInt8(ascii: ";"), end - start < 12 { end += 1 }
    guard byte(at: end) == UInt8(ascii: ";") else { throw failure("unterminated entity") }
    let name = String(decoding: bytes[start..<end], as: UTF8.self)
    position = end + 1
    let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
    if let replacement = named[name] {
      text += replacement.utf8
      return
    }
    var code: UInt32?
    if name.hasPrefix("#x") || name.hasPrefix("#X") {
      code = UInt32(name.dropFirst(2), radix: 16)
    } else if name.hasPrefix("#") {
      code = UInt32(name.dropFirst())
    }
    guard let code, let scalar = Unicode.Scalar(code) else {
      throw failure("unknown entity &\(name);")
    }
    text += String(Character(scalar)).utf8
  }
}

/// Base64 decoding that skips whitespace (XML plists wrap data lines).
enum Base64 {
  static func decode(_ text: String) -> [UInt8]? {
    var output = [UInt8]()
    output.reserveCapacity(text.utf8.count * 3 / 4)
    var buffer: UInt32 = 0
    var bits = 0
    for char in text.utf8 {
      let value: UInt32
      switch char {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(char - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(char - UInt8(ascii: "a")) + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(char - UInt8(ascii: "0")) + 52
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      case UInt8(ascii: "="), 0x20, 0x0A, 0x0D, 0x09: continue
      default: return nil
      }
      buffer = buffer << 6 | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    return output
  }
}
