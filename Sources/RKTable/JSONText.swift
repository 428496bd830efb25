// JSON string literals, written once for every JSON rkexport writes (cells, data package, logs).

/// Writes JSON text fragments.
public enum JSONText {
  /// Appends `text` as a JSON string literal (RFC 8259 §7): quote, backslash and control
  /// characters escaped, everything else kept as UTF-8.
  public static func appendString(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var out = ""
    appendString(text, to: &out)
    return out
  }
}
