// Writes a flat object table as a binary property list: the XML reader's output format.

/// One object of a flat property-list table; containers hold object numbers, not objects.
enum PlistObject: Sendable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  /// A non-negative integer above `Int64.max` (written as a 16-byte integer, as CF does).
  case unsignedInteger(UInt64)
  case real(Double)
  /// Seconds since 2001-01-01T00:00:00Z.
  case date(Double)
  case data([UInt8])
  case string(String)
  case uid(UInt64)
  case array([Int])
  case set([Int])
  case dictionary(keys: [Int], values: [Int])
}

/// Serialises a flat object table to `bplist00` bytes.
///
/// References are written as given and not checked, so tests can also build broken files.
enum BPlistWriter {
  static func write(_ objects: [PlistObject], top: Int) -> [UInt8] {
    let refSize = byteCount(for: UInt64(max(objects.count - 1, 0)))
    var out = Array("bplist00".utf8)
    var offsets = [Int]()
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(out.count)
      append(object, refSize: refSize, to: &out)
    }
    let tableOffset = out.count
    let offsetSize = byteCount(for: UInt64(tableOffset))
    for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize, to: &out) }
    out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
    appendBigEndian(UInt64(objects.count), size: 8, to: &out)
    appendBigEndian(UInt64(top), size: 8, to: &out)
    appendBigEndian(UInt64(tableOffset), size: 8, to: &out)
    return out
  }

  /// Smallest of 1, 2, 4, 8 bytes that holds `value`.
  static func byteCount(for value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }

  static func appendBigEndian(_ value: UInt64, size: Int, to out: inout [UInt8]) {
    for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
      out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }

  private static func appendMarker(_ kind: UInt8, count: Int, to out: inout [UInt8]) {
    if count < 15 {
      out.append(kind << 4 | UInt8(count))
    } else {
      out.append(kind << 4 | 0x0F)
      let size = byteCount(for: UInt64(count))
      out.append(0x10 | UInt8(size.trailingZeroBitCount))
      appendBigEndian(UInt64(count), size: size, to: &out)
    }
  }

  private static func append(_ object: PlistObject, refSize: Int, to out: inout [UInt8]) {
    switch object {
    case .null: out.append(0x00)
    case .bool(let value): out.append(value ? 0x09 : 0x08)
    case .integer(let value):
      let size = value < 0 ? 8 : byteCount(for: UInt64(value))
      out.append(0x10 | UInt8(size.trailingZeroBitCount))
      appendBigEndian(UInt64(bitPattern: value), size: size, to: &out)
    case .unsignedInteger(let value):
      out.append(0x14)
      appendBigEndian(0, size: 8, to: &out)
      appendBigEndian(value, size: 8, to: &out)
    case .real(let value):
      out.append(0x23)
      appendBigEndian(value.bitPattern, size: 8, to: &out)
    case .date(let value):
      out.append(0x33)
      appendBigEndian(value.bitPattern, size: 8, to: &out)
    case .data(let bytes):
      appendMarker(0x4, count: bytes.count, to: &out)
      out += bytes
    case .string(let text):
      if text.utf8.allSatisfy({ $0 < 0x80 }) {
        appendMarker(0x5, count: text.utf8.count, to: &out)
        out += text.utf8
      } else {
        let units = Array(text.utf16)
        appendMarker(0x6, count: units.count, to: &out)
        for unit in units { appendBigEndian(UInt64(unit), size: 2, to: &out) }
      }
    case .uid(let value):
      let size = byteCount(for: value)
      out.append(0x80 | UInt8(size - 1))
      appendBigEndian(value, size: size, to: &out)
    case .array(let refs): appendRefs(0xA, refs, refSize: refSize, to: &out)
    case .set(let refs): appendRefs(0xC, refs, refSize: refSize, to: &out)
    case .dictionary(let keys, let values):
      appendMarker(0xD, count: keys.count, to: &out)
      for ref in keys + values { appendBigEndian(UInt64(ref), size: refSize, to: &out) }
    }
  }

  private static func appendRefs(
    _ kind: UInt8, _ refs: [Int], refSize: Int, to out: inout [UInt8]
  ) {
    appendMarker(kind, count: refs.count, to: &out)
    for ref in refs { appendBigEndian(UInt64(ref), size: refSize, to: &out) }
  }
}
