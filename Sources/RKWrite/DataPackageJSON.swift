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
    var out = ""
    append(to: &out, indent: indent)
    return out
  }

  private func append(to out: inout String, indent: Int) {
    let inner = String(repeating: " ", count: indent + 2)
    let closing = String(repeating: " ", count: indent)
    switch self {
    case .string(let text): JSONText.appendString(text, to: &out)
    case .number(let text): out += text
    case .bool(let value): out += value ? "true" : "false"
    case .array(let items):
      // Arrays of scalars stay on one line (field lists, enums); others get one item per line.
      if items.allSatisfy(\.isScalar) {
        out += "[" + items.map { $0.text() }.joined(separator: ", ") + "]"
        return
      }
      out += "[\n"
      for (index, item) in items.enumerated() {
        out += inner
        item.append(to: &out, indent: indent + 2)
        out += index + 1 < items.count ? ",\n" : "\n"
      }
      out += closing + "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{\n"
      for (index, member) in members.enumerated() {
        out += inner
        JSONText.appendString(member.0, to: &out)
        out += ": "
        member.1.append(to: &out, indent: indent + 2)
        out += index + 1 < members.count ? ",\n" : "\n"
      }
      out += closing + "}"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .string, .number, .bool: return true
    case .array, .object: return false
    }
  }
}
