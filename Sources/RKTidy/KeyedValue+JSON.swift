// JSON text for generic keyed values, so unmodelled results fit in one cell losslessly.
import RKModel
import RKTable

extension KeyedValue {
  /// Compact JSON text for a cell: objects gain a `"_class"` key (as ResearchKit's own JSON
  /// serializer writes them), dates are ISO 8601 UTC with milliseconds, data is base64.
  public var jsonText: String {
    // Built as bytes: a String grown a scalar at a time cost ~6 k instructions a Bridge run's
    // metadata.
    var out: [UInt8] = []
    appendJSON(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  fileprivate func appendJSON(to out: inout [UInt8]) {
    switch self {
    case .null: out += "null".utf8
    case .bool(let b): out += (b ? "true" : "false").utf8
    case .number(let n):
      out += (n.double.isFinite ? n.text : "null").utf8
    case .string(let s): JSONText.appendString(s, to: &out)
    case .data(let bytes): JSONText.appendString(base64(bytes), to: &out)
    case .date(let instant):
      JSONText.appendString(
        instant.millisecondsSince1970.map(ISO8601.utcMilliseconds) ?? "", to: &out)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        item.appendJSON(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .dictionary(let fields):
      appendJSONObject(className: nil, fields: fields, to: &out)
    case .object(let className, let fields):
      appendJSONObject(className: className, fields: fields, to: &out)
    }
  }
}

private func appendJSONObject(className: String?, fields: [Field], to out: inout [UInt8]) {
  out.append(UInt8(ascii: "{"))
  var first = true
  if let className {
    out += "\"_class\":".utf8
    JSONText.appendString(className, to: &out)
    first = false
  }
  for field in fields {
    if !first { out.append(UInt8(ascii: ",")) }
    first = false
    JSONText.appendString(field.name, to: &out)
    out.append(UInt8(ascii: ":"))
    field.value.appendJSON(to: &out)
  }
  out.append(UInt8(ascii: "}"))
}

private func base64(_ bytes: [UInt8]) -> String {
  let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  var out = [UInt8]()
  out.reserveCapacity((bytes.count + 2) / 3 * 4)
  var i = 0
  while i + 2 < bytes.count {
    let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
    out += [
      table[Int(n >> 18)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], table[Int(n & 63)],
    ]
    i += 3
  }
  let rest = bytes.count - i
  if rest == 1 {
    let n = UInt32(bytes[i]) << 16
    out += [table[Int(n >> 18)], table[Int(n >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
  } else if rest == 2 {
    let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
    out += [
      table[Int(n >> 18)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], UInt8(ascii: "="),
    ]
  }
  return String(decoding: out, as: UTF8.self)
}
