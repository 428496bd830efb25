// A --state entry read straight from its JSON bytes, for the entries rkexport itself writes.
import Foundation

/// Reads one state entry object (`{"hash" : …, "taskRunUUIDs" : […]}`) from bytes, without
/// building a JSON tree: a state of 100,000 inputs is read two or three times a run, and
/// through `JSONValue` each entry cost ~35 k instructions.
///
/// Only the plain form is read here: the six members at most once each, strings of printable
/// ASCII (escapes only `\/`, as every path has, `\\` and `\"`), integer sizes, decimal
/// modification times, `null` or a string path.
/// Anything else (other escapes, other bytes, unknown or repeated members, exponents) gives
/// nil, and the caller parses the entry as any JSON, which decides as before. What is read
/// here is valid JSON with the meaning `ExportState.Entry(json:)` gives it.
enum StateEntryScanner {
  /// The entry whose object starts at `start` (after any whitespace) and the offset just past
  /// its closing brace; nil when it is not of the plain form.
  static func entry(in bytes: UnsafeBufferPointer<UInt8>, from start: Int)
    -> (entry: ExportState.Entry, end: Int)?
  {
    var scanner = Scanner(bytes: bytes, offset: start)
    return scanner.entry()
  }

  /// The entry of exactly `bytes` (whitespace around it allowed).
  static func entry(in bytes: UnsafeBufferPointer<UInt8>) -> ExportState.Entry? {
    var scanner = Scanner(bytes: bytes, offset: 0)
    guard let (entry, _) = scanner.entry() else { return nil }
    scanner.skipWhitespace()
    return scanner.offset == bytes.count ? entry : nil
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset: Int

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
      while let byte = current,
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
      {
        offset += 1
      }
    }

    /// `byte` after any whitespace.
    mutating func expect(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard current == byte else { return false }
      offset += 1
      return true
    }

    /// A string of printable ASCII, as the range of its text between the quotes; escapes
    /// only of `/`, `\\` and `"`.
    mutating func plainString() -> PlainString? {
      guard expect(UInt8(ascii: "\"")) else { return nil }
      let start = offset
      var escaped = false
      while let byte = current {
        if byte == UInt8(ascii: "\"") {
          offset += 1
          return PlainString(range: start..<(offset - 1), escaped: escaped)
        }
        guard byte >= 0x20, byte < 0x7F else { return nil }
        if byte == UInt8(ascii: "\\") {
          guard offset + 1 < bytes.count else { return nil }
          let next = bytes[offset + 1]
          guard
            next == UInt8(ascii: "/") || next == UInt8(ascii: "\\") || next == UInt8(ascii: "\"")
          else { return nil }
          escaped = true
          offset += 1
        }
        offset += 1
      }
      return nil
    }

    /// The string's bytes, unescaped, appended to `target`.
    func appendBytes(of string: PlainString, to target: inout [UInt8]) {
      let text = UnsafeBufferPointer(rebasing: bytes[string.range])
      guard string.escaped else { return target.append(contentsOf: text) }
      var index = 0
      while index < text.count {
        if text[index] == UInt8(ascii: "\\") { index += 1 }
        target.append(text[index])
        index += 1
      }
    }

    func text(_ string: PlainString) -> String {
      guard string.escaped else { return text(string.range) }
      var unescaped: [UInt8] = []
      unescaped.reserveCapacity(string.range.count)
      appendBytes(of: string, to: &unescaped)
      return String(decoding: unescaped, as: UTF8.self)
    }

    func text(_ range: Range<Int>) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// `-? (0 | [1-9][0-9]*)`, and with `fraction` also `(. [0-9]+)?`: the range of its text.
    mutating func plainNumber(fraction: Bool) -> Range<Int>? {
      skipWhitespace()
      let start = offset
      if current == UInt8(ascii: "-") { offset += 1 }
      guard let first = current, isDigit(first) else { return nil }
      offset += 1
      if first == UInt8(ascii: "0") {
        if let next = current, isDigit(next) { return nil }
      } else {
        while let byte = current, isDigit(byte) { offset += 1 }
      }
      if current == UInt8(ascii: ".") {
        guard fraction else { return nil }
        offset += 1
        guard let digit = current, isDigit(digit) else { return nil }
        while let byte = current, isDigit(byte) { offset += 1 }
      }
      // An exponent, or a number running into a letter: left to the JSON parser.
      if let byte = current, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || isDigit(byte)
      {
        return nil
      }
      return start..<offset
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func entry() -> (entry: ExportState.Entry, end: Int)? {
      guard expect(UInt8(ascii: "{")) else { return nil }
      var hash: PlainString?
      var status: PlainString?
      var path: PlainString??
      var size: Int64?
      var modified: Double?
      var uuids: [UInt8]?
      var uuidCount = 0
      skipWhitespace()
      if current == UInt8(ascii: "}") { return nil }  // members missing
      while true {
        guard let key = plainString(), expect(UInt8(ascii: ":")) else { return nil }
        guard !key.escaped else { return nil }
        switch Member(bytes: UnsafeBufferPointer(rebasing: bytes[key.range])) {
        case .hash?:
          guard hash == nil, let value = plainString() else { return nil }
          hash = value
        case .status?:
          guard status == nil, let value = plainString() else { return nil }
          status = value
        case .path?:
          guard path == nil else { return nil }
          skipWhitespace()
          if current == UInt8(ascii: "n") {
            guard offset + 4 <= bytes.count, bytes[offset + 1] == UInt8(ascii: "u"),
              bytes[offset + 2] == UInt8(ascii: "l"), bytes[offset + 3] == UInt8(ascii: "l")
            else { return nil }
            offset += 4
            path = .some(nil)
          } else {
            guard let value = plainString() else { return nil }
            path = value
          }
        case .size?:
          guard size == nil, let range = plainNumber(fraction: false),
            let value = Int64(text(range))
          else { return nil }
          size = value
        case .modified?:
          guard modified == nil, let range = plainNumber(fraction: true),
            let value = Double(text(range))
          else { return nil }
          modified = value
        case .taskRunUUIDs?:
          guard uuids == nil, expect(UInt8(ascii: "[")) else { return nil }
          var joined: [UInt8] = []
          skipWhitespace()
          if current == UInt8(ascii: "]") {
            offset += 1
          } else {
            while true {
              guard let value = plainString() else { return nil }
              if uuidCount > 0 { joined.append(0x0A) }
              appendBytes(of: value, to: &joined)
              uuidCount += 1
              skipWhitespace()
              if current == UInt8(ascii: "]") {
                offset += 1
                break
              }
              guard current == UInt8(ascii: ",") else { return nil }
              offset += 1
            }
          }
          uuids = joined
        case nil:
          return nil
        }
        skipWhitespace()
        if current == UInt8(ascii: "}") {
          offset += 1
          break
        }
        guard current == UInt8(ascii: ",") else { return nil }
        offset += 1
      }
      guard let hash, let status, let size, let modified, let uuids else { return nil }
      let entry = ExportState.Entry(
        size: size, modified: modified, hash: text(hash),
        runUUIDs: JoinedStrings(joinedASCII: uuids, count: uuidCount), status: text(status),
        path: path.flatMap { $0.map(text) })
      return (entry, offset)
    }
  }

  /// A string's text between its quotes, and whether it has escapes.
  private struct PlainString {
    var range: Range<Int>
    var escaped: Bool
  }

  /// The members an entry has.
  private enum Member {
    case hash, modified, path, size, status, taskRunUUIDs

    init?(bytes: UnsafeBufferPointer<UInt8>) {
      switch bytes.count {
      case 4 where Self.equal(bytes, "hash"): self = .hash
      case 4 where Self.equal(bytes, "path"): self = .path
      case 4 where Self.equal(bytes, "size"): self = .size
      case 6 where Self.equal(bytes, "status"): self = .status
      case 8 where Self.equal(bytes, "modified"): self = .modified
      case 12 where Self.equal(bytes, "taskRunUUIDs"): self = .taskRunUUIDs
      default: return nil
      }
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
      name.withUTF8Buffer { name in
        name.count == bytes.count && memcmp(name.baseAddress!, bytes.baseAddress!, name.count) == 0
      }
    }
  }
}
