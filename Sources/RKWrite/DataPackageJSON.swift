// A minimal JSON tree with deterministic, pretty-printed output for datapackage.json.
import RKTable

/// A JSON value whose objects keep their key order, so the same schemas give the same bytes.
enum DataPackageJSON: Equatable {
  case string(String)
  case number(String)
  case bool(Bool)
  case array([DataPackageJSON])
  case object([(String, DataPackageJSON)])

  static func == (lhs: DataPackageJSON, rhs: DataPackageJSON) -> Bool {
    lhs.text() == rhs.text()
  }

  /// The value as JSON text, indented by two spaces per level, without a trailing newline.
  func text(indent: Int = 0) -> String {
    String(decoding: utf8(indent: indent), as: UTF8.self)
  }

  /// `text(indent:)` as UTF-8 bytes.
  func utf8(indent: Int = 0) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(4096)
    append(to: &out, indent: indent)
    return out
  }

  // Bytes, not String: appending to a String scalar by scalar cost ~400 instructions per
  // output byte.
  private func append(to out: inout [UInt8], indent: Int) {
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
          item.append(to: &out, indent: 0)
        }
        out.append(UInt8(ascii: "]"))
        return
      }
      out.append(contentsOf: "[\n".utf8)
      for (index, item) in items.enumerated() {
        Self.appendSpaces(indent + 2, to: &out)
        item.append(to: &out, indent: indent + 2)
        out.append(contentsOf: (index + 1 < items.count ? ",\n" : "\n").utf8)
      }
      Self.appendSpaces(indent, to: &out)
      out.append(UInt8(ascii: "]"))
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
        member.1.append(to: &out, indent: indent + 2)
        out.append(contentsOf: (index + 1 < members.count ? ",\n" : "\n").utf8)
      }
      Self.appendSpaces(indent, to: &out)
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func appendSpaces(_ count: Int, to out: inout [UInt8]) {
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
  }

  private var isScalar: Bool {
    switch self {
    case .string, .number, .bool: return true
    case .array, .object: return false
    }
  }
}
