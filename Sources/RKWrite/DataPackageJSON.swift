// A minimal JSON tree with deterministic, pretty-printed output for datapackage.json.
import RKTable

/// A JSON value whose objects keep their key order, so the same schemas give the same bytes.
enum DataPackageJSON: Equatable {
  case string(String)
  case number(String)
  case bool(Bool)
  case array([DataPackageJSON])
  case object([(String, DataPackageJSON)])
  /// An array of `count` objects or arrays, each made by `item` only when it is written, so
  /// a descriptor of tens of thousands of fields never holds them all. Written one item per
  /// line, as an `array` of objects is.
  case lazyArray(count: Int, item: (Int) -> DataPackageJSON)

  static func == (lhs: DataPackageJSON, rhs: DataPackageJSON) -> Bool {
    lhs.text() == rhs.text()
  }

  /// The value as JSON text, indented by two spaces per level, without a trailing newline.
  func text(indent: Int = 0) -> String {
    var out: [UInt8] = []
    append(to: &out, indent: indent) { _ in }
    return String(decoding: out, as: UTF8.self)
  }

  // Bytes, not String: appending to a String scalar by scalar cost ~400 instructions per
  // output byte.
  /// Appends `text(indent:)`'s bytes to `out`. After each item of a `lazyArray` it calls
  /// `drain`, which may write out the bytes so far and empty `out`: a large value then never
  /// sits whole in memory.
  func append(
    to out: inout [UInt8], indent: Int, drain: (inout [UInt8]) throws -> Void
  ) rethrows {
    switch self {
    case .string(let text): JSONText.appendString(text, to: &out)
    case .number(let text): out.append(contentsOf: text.utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .array(let items):
      // Arrays of scalars stay on one line (field lists, enums); others get one item per line.
      if items.allSatisfy(\.isScalar) {
        out.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
          if index > 0 { out.append(contentsOf: ", ".utf8) }
          try item.append(to: &out, indent: 0, drain: drain)
        }
        out.append(UInt8(ascii: "]"))
        return
      }
      try Self.appendLines(count: items.count, indent: indent, to: &out) { index, out in
        try items[index].append(to: &out, indent: indent + 2, drain: drain)
      }
    case .lazyArray(let count, let item):
      try Self.appendLines(count: count, indent: indent, to: &out) { index, out in
        try item(index).append(to: &out, indent: indent + 2, drain: drain)
        try drain(&out)
      }
    case .object(let members):
      if members.isEmpty {
        out.append(contentsOf: "{}".utf8)
        return
      }
      out.append(contentsOf: "{\n".utf8)
      for (index, member) in members.enumerated() {
        Self.appendSpaces(indent + 2, to: &out)
        JSONText.appendString(member.0, to: &out)
        out.append(contentsOf: ": ".utf8)
        try member.1.append(to: &out, indent: indent + 2, drain: drain)
        out.append(contentsOf: (index + 1 < members.count ? ",\n" : "\n").utf8)
      }
      Self.appendSpaces(indent, to: &out)
      out.append(UInt8(ascii: "}"))
    }
  }

  /// An array with one item per line, each appended by `appendItem`; `[]` when empty, as an
  /// empty array of scalars is.
  private static func appendLines(
    count: Int, indent: Int, to out: inout [UInt8],
    appendItem: (Int, inout [UInt8]) throws -> Void
  ) rethrows {
    if count == 0 {
      out.append(contentsOf: "[]".utf8)
      return
    }
    out.append(contentsOf: "[\n".utf8)
    for index in 0..<count {
      appendSpaces(indent + 2, to: &out)
      try appendItem(index, &out)
      out.append(contentsOf: (index + 1 < count ? ",\n" : "\n").utf8)
    }
    appendSpaces(indent, to: &out)
    out.append(UInt8(ascii: "]"))
  }

  private static func appendSpaces(_ count: Int, to out: inout [UInt8]) {
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
  }

  private var isScalar: Bool {
    switch self {
    case .string, .number, .bool: return true
    case .array, .object, .lazyArray: return false
    }
  }
}
