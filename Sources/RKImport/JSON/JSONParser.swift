// A strict RFC 8259 JSON parser over raw bytes: no Foundation, bounded depth and size, and every
// error names the byte offset where the document went wrong.

/// Parses JSON text into a `JSONValue` tree.
///
/// Strict: one value per document, no comments, no trailing commas, no leading zeros, no raw
/// control characters in strings, UTF-8 only (an initial byte order mark is skipped). Errors are
/// `ImportError(location: "byte N", reason: …)` with `N` counted from 0.
public struct JSONParser: Sendable {
  /// Containers nested deeper than this are rejected (the parser recurses once per level).
  public var maximumDepth: Int
  /// Documents longer than this many bytes are rejected before parsing.
  public var maximumBytes: Int

  public init(maximumDepth: Int = 512, maximumBytes: Int = 256 << 20) {
    self.maximumDepth = maximumDepth
    self.maximumBytes = maximumBytes
  }

  /// Parses a whole document.
  public func parse(_ bytes: [UInt8]) throws -> JSONValue {
    guard bytes.count <= maximumBytes else {
      throw ImportError(
        reason: "JSON document is \(bytes.count) bytes, over the limit of \(maximumBytes) bytes")
    }
    return try bytes.withUnsafeBufferPointer { buffer in
      var cursor = JSONCursor(bytes: buffer, maximumDepth: maximumDepth)
      return try cursor.parseDocument()
    }
  }

  /// Reads a document whose top level is an object without building the value of the member
  /// named `streamedKey` whole: that value, when an object, goes to `streamedMember` one member
  /// at a time (a large collection keyed by name, such as the 100,000 inputs of a state file).
  /// Every other top-level member goes to `member`. Throws as `parse` does, and when the top
  /// level is not an object.
  public func parseObject(
    _ bytes: [UInt8], streaming streamedKey: String,
    member: (String, JSONValue) throws -> Void,
    streamedMember: (String, JSONValue) throws -> Void
  ) throws {
    try bytes.withUnsafeBufferPointer { buffer in
      try parseObject(
        buffer, streaming: streamedKey, member: member,
        streamedMember: { key, value, _ in try streamedMember(key, value) })
    }
  }

  /// `parseObject` over bytes in place (a mapped file); `streamedMember` also gets where the
  /// member's value lies in `bytes` (its end is where the document has been read up to, so that
  /// a caller may let go of what lies before it, or come back for the value later).
  ///
  /// `readInPlace` is offered each streamed member's value first, by the offset
  /// where it starts: it returns the offset just past the value when it read the value itself
  /// (which must then be valid JSON), or nil to have it parsed and handed to `streamedMember`.
  public func parseObject(
    _ bytes: UnsafeBufferPointer<UInt8>, streaming streamedKey: String,
    member: (String, JSONValue) throws -> Void,
    streamedMember: (String, JSONValue, _ span: Range<Int>) throws -> Void,
    readInPlace: (String, _ start: Int) throws -> Int? = { _, _ in nil }
  ) throws {
    guard bytes.count <= maximumBytes else {
      throw ImportError(
        reason: "JSON document is \(bytes.count) bytes, over the limit of \(maximumBytes) bytes")
    }
    var cursor = JSONCursor(bytes: bytes, maximumDepth: maximumDepth)
    try cursor.parseDocument { cursor in
      guard cursor.current == UInt8(ascii: "{") else {
        throw cursor.error("expected an object at the top level")
      }
      try cursor.readMembers { key, cursor in
        if key == streamedKey, cursor.current == UInt8(ascii: "{") {
          try cursor.readMembers { key, cursor in
            let start = cursor.offset
            if let end = try readInPlace(key, start) {
              guard end > start, end <= bytes.count else {
                throw cursor.error("a value read in place ends outside the document")
              }
              cursor.offset = end
              return
            }
            let value = try cursor.readValue()
            try streamedMember(key, value, start..<cursor.offset)
          }
        } else {
          try member(key, try cursor.readValue())
        }
      }
    }
  }

  /// Parses a whole document given as text.
  public func parse(_ text: String) throws -> JSONValue {
    try parse(Array(text.utf8))
  }
}

/// The parser's position in the document; `read…` methods advance it.
struct JSONCursor {
  let bytes: UnsafeBufferPointer<UInt8>
  let maximumDepth: Int
  var offset = 0
  var depth = 0
  /// The deepest `depth` reached so far (the outermost container is at 1).
  var deepest = 0

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  func error(_ reason: String, at byteOffset: Int? = nil) -> ImportError {
    ImportError(location: "byte \(byteOffset ?? offset)", reason: reason)
  }

  var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  mutating func parseDocument() throws -> JSONValue {
    var value = JSONValue.null
    try parseDocument { value = try $0.readValue() }
    return value
  }

  /// The document's one value, read by `read` (after a byte order mark and white space; only
  /// white space may follow it).
  mutating func parseDocument(_ read: (inout JSONCursor) throws -> Void) throws {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
    skipWhitespace()
    guard current != nil else { throw error("empty document: expected a JSON value") }
    try read(&self)
    skipWhitespace()
    if current != nil { throw error("unexpected content after the JSON value") }
  }

  mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      offset += 1
    }
  }

  mutating func readValue() throws -> JSONValue {
    guard let byte = current else { throw error("unexpected end of document: expected a value") }
    switch byte {
    case UInt8(ascii: "{"): return try readObject()
    case UInt8(ascii: "["): return try readArray()
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"): return try readLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try readLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try readLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
    default: throw error("unexpected character \(describe(byte)): expected a value")
    }
  }

  mutating func readLiteral(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
    try skipLiteral(word)
    return value
  }

  mutating func skipLiteral(_ word: StaticString) throws {
    let start = offset
    let count = word.utf8CodeUnitCount
    guard offset + count <= bytes.count else { throw error("invalid literal", at: start) }
    for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
      throw error("invalid literal: expected \(word)", at: start)
    }
    offset += count
  }

  mutating func enterContainer() throws {
    depth += 1
    if depth > maximumDepth {
      throw error("nesting deeper than \(maximumDepth) levels")
    }
    deepest = max(deepest, depth)
  }

  mutating func readArray() throws -> JSONValue {
    var elements: [JSONValue] = []
    try readElements { cursor in elements.append(try cursor.readValue()) }
    return .array(elements)
  }

  /// Reads the array at the cursor (which is at its `[`), calling `body` with the cursor at
  /// each element, which `body` must read.
  @inline(__always)
  mutating func readElements(_ body: (inout JSONCursor) throws -> Void) throws {
    try enterContainer()
    offset += 1
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      offset += 1
      depth -= 1
      return
    }
    while true {
      skipWhitespace()
      try body(&self)
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): offset += 1
      case UInt8(ascii: "]"):
        offset += 1
        depth -= 1
        return
      case nil: throw error("unexpected end of document inside an array")
      case let byte?: throw error("unexpected character \(describe(byte)): expected ',' or ']'")
      }
    }
  }

  mutating func readObject() throws -> JSONValue {
    var members: [JSONMember] = []
    try readMembers { key, cursor in members.append(JSONMember(key, try cursor.readValue())) }
    return .object(members)
  }

  /// Reads the object at the cursor (which is at its `{`), handing each member's name to `body`
  /// with the cursor at the member's value, which `body` must read. Inlined: `readObject`, on
  /// every JSON import's path, then calls no closure per member.
  @inline(__always)
  mutating func readMembers(_ body: (String, inout JSONCursor) throws -> Void) throws {
    try readMemberNames { name, kind, cursor in
      let run = UnsafeBufferPointer(rebasing: cursor.bytes[name])
      let key =
        kind.hasEscapes
        ? JSONCursor.decodeEscapes(in: run) : String(decoding: run, as: UTF8.self)
      try body(key, &cursor)
    }
  }

  /// Reads the object at the cursor (which is at its `{`), calling `body` with each member's
  /// name as the bytes of its text (between its quotes) and what `skipString` found in it, the
  /// cursor at the member's value, which `body` must read.
  @inline(__always)
  mutating func readMemberNames(
    _ body: (_ name: Range<Int>, StringKind, inout JSONCursor) throws -> Void
  ) throws {
    try enterContainer()
    offset += 1
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      offset += 1
      depth -= 1
      return
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else {
        if current == nil { throw error("unexpected end of document inside an object") }
        throw error("expected a member name in double quotes")
      }
      let nameStart = offset + 1
      let kind = try skipString()
      let name = nameStart..<offset - 1
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
      offset += 1
      skipWhitespace()
      try body(name, kind, &self)
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): offset += 1
      case UInt8(ascii: "}"):
        offset += 1
        depth -= 1
        return
      case nil: throw error("unexpected end of document inside an object")
      case let byte?: throw error("unexpected character \(describe(byte)): expected ',' or '}'")
      }
    }
  }

  func describe(_ byte: UInt8) -> String {
    if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "0x" + (hex.count == 1 ? "0" + hex : hex)
  }
}
