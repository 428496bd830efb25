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

  /// Appends `text` as the same JSON string literal, as UTF-8 bytes: runs of bytes that need
  /// no escape are copied whole (every byte of a multi-byte character is 0x80 or more).
  public static func appendString(_ text: String, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
      out.append(UInt8(ascii: "\""))
      var runStart = 0
      for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        runStart = index + 1
        appendEscape(byte, to: &out)
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
      out.append(UInt8(ascii: "\""))
    }
  }

  /// The escape of a quote, backslash or control byte.
  private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\\"))
    switch byte {
    case 0x22: out.append(UInt8(ascii: "\""))
    case 0x5C: out.append(UInt8(ascii: "\\"))
    case 0x0A: out.append(UInt8(ascii: "n"))
    case 0x0D: out.append(UInt8(ascii: "r"))
    case 0x09: out.append(UInt8(ascii: "t"))
    default:
      let hex = Array("0123456789abcdef".utf8)
      out.append(contentsOf: [
        UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
      ])
    }
  }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var out = ""
    appendString(text, to: &out)
    return out
  }
}
