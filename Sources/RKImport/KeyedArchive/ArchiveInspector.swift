// `rkexport inspect FILE`: one keyed archive's object graph as an indented tree.
import RKModel

/// Renders a keyed archive for a developer: every object with its class and number, every
/// key with its value (dates as ISO 8601 UTC with milliseconds), nested objects indented.
/// An object reached a second time is named, not repeated, so shared objects and cycles stay
/// readable. Answers are shown: this is a tool for looking at one file, not an export.
public enum ArchiveInspector {
  /// The tree of `bytes` (binary or XML plist keyed archive), one line per value.
  public static func render(_ bytes: [UInt8]) throws -> String {
    let archive = try KeyedArchive(bytes: bytes)
    // `ArchivedObject`s hold the archive without reference counting: keep it alive here.
    defer { withExtendedLifetime(archive) {} }
    var renderer = Renderer(archive: archive)
    renderer.lines.append(
      "NSKeyedArchiver archive: \(archive.objectRefs.count) objects, root object \(archive.rootUID)"
    )
    try renderer.render(try archive.root(), label: "root", indent: 0)
    return renderer.lines.joined(separator: "\n") + "\n"
  }

  private struct Renderer {
    let archive: KeyedArchive
    var lines = [String]()
    var shown = Set<Int>()

    mutating func render(_ value: ArchiveValue, label: String, indent: Int) throws(ImportError) {
      let pad = String(repeating: "  ", count: indent)
      guard case .object(let object) = value else {
        lines.append(pad + label + ": " + describe(try archive.keyedValue(value, depth: 1)))
        return
      }
      let name = "\(object.className) (object \(object.uid))"
      switch object.foundation {
      case .array, .set, .orderedSet:
        let elements = try archive.elements(value, depth: object.depth) ?? []
        lines.append(pad + label + ": " + name + ", \(elements.count) elements")
        for (index, element) in elements.enumerated() {
          try render(element, label: "[\(index)]", indent: indent + 1)
        }
      case .dictionary:
        let entries = try archive.dictionaryEntries(value, depth: object.depth) ?? []
        lines.append(pad + label + ": " + name + ", \(entries.count) entries")
        for entry in entries {
          let key = describe(try archive.keyedValue(entry.key, depth: object.depth + 1))
          try render(entry.value, label: key, indent: indent + 1)
        }
      case nil, .number:
        guard shown.insert(object.uid).inserted else {
          lines.append(pad + label + ": " + name + " (shown above)")
          return
        }
        lines.append(pad + label + ": " + name)
        for (key, ref) in try object.entries() {
          let child = try object.locate(key) { () throws(ImportError) in
            try archive.resolve(ref: ref, depth: object.depth + 1)
          }
          try render(child, label: key, indent: indent + 1)
        }
      default:
        let text = describe(try archive.keyedValue(value, depth: object.depth))
        lines.append(pad + label + ": " + text + " (" + name + ")")
      }
    }

    /// One value on one line.
    func describe(_ value: KeyedValue) -> String {
      switch value {
      case .null: return "nil"
      case .bool(let flag): return flag ? "true" : "false"
      case .number(let number): return number.text
      case .string(let text): return quoted(text)
      case .data(let bytes): return "<\(bytes.count) bytes>"
      case .date(let instant):
        return PlistDate.iso8601(secondsSince2001: instant.secondsSinceReferenceDate)
      case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
      case .dictionary(let fields): return "{" + describe(fields) + "}"
      case .object(let className, let fields): return className + " {" + describe(fields) + "}"
      }
    }

    private func describe(_ fields: [Field]) -> String {
      fields.map { $0.name + ": " + describe($0.value) }.joined(separator: ", ")
    }

    private func quoted(_ text: String) -> String {
      var result = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
          if scalar.value < 0x20 {
            result += "\\u{" + String(scalar.value, radix: 16) + "}"
          } else {
            result.unicodeScalars.append(scalar)
          }
        }
      }
      return result + "\""
    }
  }
}
