// Reads Apple's XML property lists into the same flat object table as binary plists.

/// Parses an XML plist and transcodes it to `bplist00` bytes, so one reader (`BPlistDocument`)
/// serves both syntaxes. `{"CF$UID": n}` dictionaries become UIDs.
///
/// Supported: `dict`, `key`, `array`, `string`, `integer`, `real`, `true`, `false`, `date`,
/// `data` (base64), empty-element forms, the five XML entities and numeric character
/// references, CDATA, comments, the XML declaration and DOCTYPE. Nesting is capped at
/// `maximumDepth`.
struct XMLPlistReader {
  static let maximumDepth = 256

  let bytes: [UInt8]
  var position = 0
  private var objects = [PlistObject]()

  /// Parses `bytes` and returns the equivalent binary plist.
  static func transcode(_ bytes: [UInt8]) throws(ImportError) -> [UInt8] {
    var reader = XMLPlistReader(bytes: bytes)
    let top = try reader.parseDocument()
    return BPlistWriter.write(reader.objects, top: top)
  }

  /// Whether `bytes` starts like XML (after an optional BOM and whitespace).
  static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    return index < bytes.count && bytes[index] == UInt8(ascii: "<")
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private mutating func parseDocument() throws(ImportError) -> Int {
    try skipMisc()
    var tag = try readTag()
    if tag.name == "plist" {
      guard !tag.isEmpty else { throw failure("empty <plist> element") }
      try skipMisc()
      tag = try readTag()
      let top = try parseValue(tag, depth: 1)
      try skipMisc()
      let end = try readTag()
      guard end.isClosing, end.name == "plist" else { throw failure("expected </plist>") }
      return top
    }
    return try parseValue(tag, depth: 1)
  }

  private mutating func parseValue(_ tag: Tag, depth: Int) throws(ImportError) -> Int {
    guard depth <= Self.maximumDepth else {
      throw failure("nesting deeper than \(Self.maximumDepth) levels")
    }
    guard !tag.isClosing else { throw failure("unexpected </\(tag.name)>") }
    switch tag.name {
    case "dict": return try parseDictionary(tag, depth: depth)
    case "array":
      let slot = add(.null)
      var refs = [Int]()
      if !tag.isEmpty {
        while true {
          try skipMisc()
          let next = try readTag()
          if next.isClosing, next.name == "array" { break }
          refs.append(try parseValue(next, depth: depth + 1))
        }
      }
      objects[slot] = .array(refs)
      return slot
    case "string", "key": return add(.string(try text(of: tag)))
    case "integer":
      let digits = try text(of: tag).trimmingWhitespace()
      if let value = Int64(digits) { return add(.integer(value)) }
      if let value = UInt64(digits) { return add(.unsignedInteger(value)) }
      throw failure("invalid integer")
    case "real":
      let digits = try text(of: tag).trimmingWhitespace()
      guard let value = Double(digits) else { throw failure("invalid real") }
      return add(.real(value))
    case "true", "false":
      if !tag.isEmpty { _ = try text(of: tag) }
      return add(.bool(tag.name == "true"))
    case "date":
      guard let seconds = PlistDate.parseXMLDate(try text(of: tag).trimmingWhitespace()) else {
        throw failure("invalid date")
      }
      return add(.date(seconds))
    case "data":
      guard let decoded = Base64.decode(try text(of: tag)) else { throw failure("invalid base64") }
      return add(.data(decoded))
    default:
      throw failure("unknown element <\(tag.name)>")
    }
  }

  private mutating func parseDictionary(_ tag: Tag, depth: Int) throws(ImportError) -> Int {
    let slot = add(.null)
    var keys = [Int]()
    var values = [Int]()
    if !tag.isEmpty {
      while true {
        try skipMisc()
        let next = try readTag()
        if next.isClosing, next.name == "dict" { break }
        guard next.name == "key", !next.isClosing else { throw failure("expected <key> in <dict>") }
        keys.append(add(.string(try text(of: next))))
        try skipMisc()
        values.append(try parseValue(try readTag(), depth: depth + 1))
      }
    }
    objects[slot] = .dictionary(keys: keys, values: values)
    // {"CF$UID": n} is how XML archives write a UID (formats.md §1.2).
    if keys.count == 1, case .string("CF$UID") = objects[keys[0]] {
      switch objects[values[0]] {
      case .integer(let value) where value >= 0: objects[slot] = .uid(UInt64(value))
      case .unsignedInteger(let value): objects[slot] = .uid(value)
      default: break
      }
    }
    return slot
  }

  private mutating func add(_ object: PlistObject) -> Int {
    objects.append(object)
    return objects.count - 1
  }

  func failure(_ reason: String) -> ImportError {
    ImportError(location: "byte \(position)", reason: "XML plist: \(reason)")
  }
}

extension String {
  /// The string without leading and trailing ASCII whitespace.
  func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
