// A parsed JSON document as one flat table of nodes over its bytes: reading a result file's
// JSON makes no allocation per value, and strings and numbers become Swift values only when a
// reader asks for them. (The `JSONValue` tree made three to four allocations per member and
// freed them again: about half of the import of a ResearchKit JSON file.)
import RKModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A JSON document checked by the same grammar as `JSONParser.parse`, kept as its bytes and
/// one node per value in document order: a container's node comes first, then its contents
/// (an object's as name and value, name and value…), each node knowing where the next
/// sibling starts. Immutable.
public final class JSONDocument: Sendable {
  let bytes: [UInt8]
  let nodes: [JSONNode]
  /// How deeply containers nest: 1 for an object or array of scalars, 0 for a lone scalar.
  public let nesting: Int

  init(bytes: [UInt8], nodes: [JSONNode], nesting: Int) {
    self.bytes = bytes
    self.nodes = nodes
    self.nesting = nesting
  }

  /// The document's one value.
  public var root: JSONItem { JSONItem(document: self, index: 0) }
}

/// One value of a parsed document.
struct JSONNode {
  enum Kind: UInt8 {
    case null, `false`, `true`, number, string, array, object
  }

  var kind: Kind
  /// A string: `skipString` found an escape in it.
  var hasEscapes = false
  /// A string: a byte of 0x80 or more is in its text (as written, escapes undecoded).
  var hasNonASCII = false
  /// A number: written without fraction and exponent. (The four flags fit in the bytes the
  /// offsets leave: a node is 16 bytes.)
  var isWholeNumber = false
  /// Strings and numbers: where the text starts in the document (a string's after its quote).
  var start: UInt32 = 0
  /// Strings and numbers: the text's length in bytes; containers: their elements or members.
  var count: UInt32 = 0
  /// The index of the node after this one and its contents.
  var next: UInt32 = 0
}

extension JSONParser {
  /// Parses a whole document into a `JSONDocument`: the same grammar, limits and errors as
  /// `parse`.
  public func parseDocument(_ bytes: [UInt8]) throws -> JSONDocument {
    guard bytes.count <= maximumBytes else {
      throw ImportError(
        reason: "JSON document is \(bytes.count) bytes, over the limit of \(maximumBytes) bytes")
    }
    var nodes: [JSONNode] = []
    // About one value per 12 bytes in result files: one allocation for most documents.
    nodes.reserveCapacity(bytes.count / 12 + 4)
    let nesting = try bytes.withUnsafeBufferPointer { buffer in
      var cursor = JSONCursor(bytes: buffer, maximumDepth: maximumDepth)
      try cursor.parseDocument { cursor in try cursor.readValue(into: &nodes) }
      return cursor.deepest
    }
    return JSONDocument(bytes: bytes, nodes: nodes, nesting: nesting)
  }
}

extension JSONCursor {
  /// Reads the value at the cursor into `nodes` (see `JSONDocument`).
  mutating func readValue(into nodes: inout [JSONNode]) throws {
    guard let byte = current else { throw error("unexpected end of document: expected a value") }
    let index = nodes.count
    switch byte {
    case UInt8(ascii: "{"):
      nodes.append(JSONNode(kind: .object))
      var count: UInt32 = 0
      try readMemberNames { name, kind, cursor in
        nodes.append(
          JSONNode(
            kind: .string, hasEscapes: kind.hasEscapes, hasNonASCII: kind.hasNonASCII,
            start: UInt32(name.lowerBound), count: UInt32(name.count),
            next: UInt32(nodes.count + 1)))
        try cursor.readValue(into: &nodes)
        count += 1
      }
      nodes[index].count = count
    case UInt8(ascii: "["):
      nodes.append(JSONNode(kind: .array))
      var count: UInt32 = 0
      try readElements { cursor in
        try cursor.readValue(into: &nodes)
        count += 1
      }
      nodes[index].count = count
    case UInt8(ascii: "\""):
      let start = offset + 1
      let kind = try skipString()
      nodes.append(
        JSONNode(
          kind: .string, hasEscapes: kind.hasEscapes, hasNonASCII: kind.hasNonASCII,
          start: UInt32(start), count: UInt32(offset - 1 - start)))
    case UInt8(ascii: "t"):
      try skipLiteral("true")
      nodes.append(JSONNode(kind: .true))
    case UInt8(ascii: "f"):
      try skipLiteral("false")
      nodes.append(JSONNode(kind: .false))
    case UInt8(ascii: "n"):
      try skipLiteral("null")
      nodes.append(JSONNode(kind: .null))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let start = offset
      let isWhole = try skipNumber()
      nodes.append(
        JSONNode(
          kind: .number, isWholeNumber: isWhole, start: UInt32(start),
          count: UInt32(offset - start)))
    default: throw error("unexpected character \(describe(byte)): expected a value")
    }
    nodes[index].next = UInt32(nodes.count)
  }
}

/// The scalar accessors `JSONValue` and `JSONItem` share, for readers of either.
public protocol JSONScalars {
  var stringValue: String? { get }
  var numberValue: JSONNumber? { get }
  var boolValue: Bool? { get }
  var isNull: Bool { get }
}

extension JSONValue: JSONScalars {}
extension JSONItem: JSONScalars {}

/// One value of a `JSONDocument`, read as `JSONValue` reads: the same accessors, answering
/// the same (strings and numbers made when asked).
public struct JSONItem: Sendable {
  let document: JSONDocument
  let index: Int

  var node: JSONNode { document.nodes[index] }

  public var isNull: Bool { node.kind == .null }
  public var isObject: Bool { node.kind == .object }
  public var isArray: Bool { node.kind == .array }

  /// The string, when this is a string.
  public var stringValue: String? {
    let node = node
    guard node.kind == .string else { return nil }
    return document.text(of: node)
  }

  /// The string read as a date (`JSONDateText`), when this is a string; from the document's
  /// bytes when it has no escape (no String made: the usual start and end dates).
  public var dateText: JSONDateText? {
    let node = node
    guard node.kind == .string else { return nil }
    guard !node.hasEscapes else { return JSONDateText(document.text(of: node)) }
    return document.withText(of: node, JSONDateText.parse)
  }

  /// The number, when this is a number.
  public var numberValue: JSONNumber? {
    let node = node
    guard node.kind == .number else { return nil }
    return document.number(of: node)
  }

  /// The Boolean, when this is `true` or `false`.
  public var boolValue: Bool? {
    switch node.kind {
    case .true: true
    case .false: false
    default: nil
    }
  }

  /// A one-word name of the value's kind for error messages, as `JSONValue.kindDescription`.
  public var kindDescription: String {
    switch node.kind {
    case .null: "null"
    case .false, .true: "a Boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The elements, when this is an array.
  public var arrayValue: [JSONItem]? {
    let node = node
    guard node.kind == .array else { return nil }
    var elements: [JSONItem] = []
    elements.reserveCapacity(Int(node.count))
    var child = index + 1
    for _ in 0..<node.count {
      elements.append(JSONItem(document: document, index: child))
      child = Int(document.nodes[child].next)
    }
    return elements
  }

  /// The members, names decoded, when this is an object.
  public var objectMembers: [(key: String, value: JSONItem)]? {
    let node = node
    guard node.kind == .object else { return nil }
    var members: [(key: String, value: JSONItem)] = []
    members.reserveCapacity(Int(node.count))
    var name = index + 1
    for _ in 0..<node.count {
      members.append(
        (document.text(of: document.nodes[name]), JSONItem(document: document, index: name + 1)))
      name = Int(document.nodes[name + 1].next)
    }
    return members
  }

  /// The first member named `key` when this is an object, else nil. Names compare as
  /// `String`s do (canonical equivalence); ASCII names by their bytes.
  public subscript(key: String) -> JSONItem? {
    document.member(named: key, of: index).map { JSONItem(document: document, index: $0) }
  }

  /// The value as a `JSONValue` tree.
  public var value: JSONValue { document.value(at: index) }

  /// The same value as the model's generic keyed value (for data kept but not modelled).
  public var keyedValue: KeyedValue { value.keyedValue }
}

extension JSONDocument {
  /// The value of node `index` as a `JSONValue` tree, each array made at its final size (the
  /// tree parser grows them as it goes).
  func value(at index: Int) -> JSONValue {
    let node = nodes[index]
    switch node.kind {
    case .null: return .null
    case .false: return .bool(false)
    case .true: return .bool(true)
    case .number: return .number(number(of: node))
    case .string: return .string(text(of: node))
    case .array:
      var elements: [JSONValue] = []
      elements.reserveCapacity(Int(node.count))
      var child = index + 1
      for _ in 0..<node.count {
        elements.append(value(at: child))
        child = Int(nodes[child].next)
      }
      return .array(elements)
    case .object:
      var members: [JSONMember] = []
      members.reserveCapacity(Int(node.count))
      var name = index + 1
      for _ in 0..<node.count {
        members.append(JSONMember(text(of: nodes[name]), value(at: name + 1)))
        name = Int(nodes[name + 1].next)
      }
      return .object(members)
    }
  }

  /// Calls `body` with the bytes of a string's or number's text as written (a string's
  /// between its quotes, escapes undecoded).
  @inline(__always)
  func withText<Result>(
    of node: JSONNode, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    bytes.withUnsafeBufferPointer { buffer in
      body(
        UnsafeBufferPointer(
          rebasing: buffer[Int(node.start)..<Int(node.start) + Int(node.count)]))
    }
  }

  /// The number of a number node.
  func number(of node: JSONNode) -> JSONNumber {
    withText(of: node) { JSONNumber($0, isWhole: node.isWholeNumber) }
  }

  /// The text of a string node, escapes decoded.
  func text(of node: JSONNode) -> String {
    withText(of: node) { run in
      node.hasEscapes ? JSONCursor.decodeEscapes(in: run) : String(decoding: run, as: UTF8.self)
    }
  }

  /// The `FieldKey`s the members of object node `object` are named by (a name names a key
  /// when it equals the key's name as a String: ASCII names without escapes matched by their
  /// bytes, others by `FieldKey.named`, which compares Strings), whether a member is named
  /// by no key and is not `_class`, and the value of the first member named `_class` (as
  /// `JSONItem.subscript` finds it).
  func fieldKeys(
    ofObject object: Int
  ) -> (keys: FieldKeySet, hasOtherNames: Bool, classValue: Int?) {
    var keys = FieldKeySet()
    var hasOtherNames = false
    var classValue: Int?
    let matcher = FieldKeyMatcher.table
    bytes.withUnsafeBufferPointer { buffer in
      nodes.withUnsafeBufferPointer { nodes in
        let node = nodes[object]
        guard node.kind == .object, let base = buffer.baseAddress else { return }
        var name = object + 1
        for _ in 0..<node.count {
          let nameNode = nodes[name]
          let start = Int(nameNode.start)
          let count = Int(nameNode.count)
          let key: FieldKey?
          let isClassMarker: Bool
          if nameNode.hasEscapes || nameNode.hasNonASCII {
            let text = text(of: nameNode)
            key = FieldKey.named(text)
            isClassMarker = text == "_class"
          } else {
            let plain = UnsafeBufferPointer(rebasing: buffer[start..<start + count])
            if count < FieldKeyMatcher.lengthLimit, start + 32 <= buffer.count {
              key = FieldKeyMatcher.key(loadingFrom: base + start, count: count, in: matcher)
            } else {
              key = FieldKeyMatcher.key(plain)
            }
            isClassMarker = plain.elementsEqual("_class".utf8)
          }
          if isClassMarker, classValue == nil { classValue = name + 1 }
          if let key { keys.insert(key) } else if !isClassMarker { hasOtherNames = true }
          name = Int(nodes[name + 1].next)
        }
      }
    }
    return (keys, hasOtherNames, classValue)
  }

  /// The index of the value of the first member of object node `object` named `key` (see
  /// `JSONItem.subscript`), or nil. No item is made per member: a loop over the nodes.
  func member(named key: String, of object: Int) -> Int? {
    var utf8 = key
    return utf8.withUTF8 { keyBytes -> Int? in
      let keyIsASCII = keyBytes.allSatisfy { $0 < 0x80 }
      return nodes.withUnsafeBufferPointer { nodes -> Int? in
        let node = nodes[object]
        guard node.kind == .object else { return nil }
        var name = object + 1
        for _ in 0..<node.count {
          if self.name(nodes[name], equals: key, bytes: keyBytes, isASCII: keyIsASCII) {
            return name + 1
          }
          name = Int(nodes[name + 1].next)
        }
        return nil
      }
    }
  }

  /// Whether name `node` is `key` as `String` equality judges (`keyBytes` its UTF-8):
  /// byte for byte when both are ASCII without escapes, which is the same; else as Strings
  /// (a non-ASCII name may be canonically equivalent to another spelling, even an ASCII one).
  func name(
    _ node: JSONNode, equals key: String, bytes keyBytes: UnsafeBufferPointer<UInt8>,
    isASCII keyIsASCII: Bool
  ) -> Bool {
    guard keyIsASCII, !node.hasEscapes, !node.hasNonASCII else { return text(of: node) == key }
    guard Int(node.count) == keyBytes.count else { return false }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, let keyBase = keyBytes.baseAddress else {
        return keyBytes.isEmpty
      }
      return memcmp(base + Int(node.start), keyBase, keyBytes.count) == 0
    }
  }
}
