// The byte layout of spooled rows: compact, versionless, private to one process run.
import RKTable

/// Encodes and decodes rows for `RowSpool` (tag byte per cell, LEB128 varints, zigzag integers).
enum RowCodec {
  enum Tag: UInt8 {
    case empty = 0
    case text = 1
    case number = 2
    case integer = 3
    case boolFalse = 4
    case boolTrue = 5
    case instant = 6
    case seconds = 7
  }

  static func encode(_ row: [Cell], to buffer: inout [UInt8]) {
    appendVarint(UInt64(row.count), to: &buffer)
    for cell in row {
      switch cell {
      case .empty:
        buffer.append(Tag.empty.rawValue)
      case .text(let text):
        buffer.append(Tag.text.rawValue)
        appendString(text, to: &buffer)
      case .number(let text, let value):
        buffer.append(Tag.number.rawValue)
        appendString(text, to: &buffer)
        appendDouble(value, to: &buffer)
      case .integer(let value):
        buffer.append(Tag.integer.rawValue)
        appendVarint(zigzag(value), to: &buffer)
      case .bool(let value):
        buffer.append(value ? Tag.boolTrue.rawValue : Tag.boolFalse.rawValue)
      case .instant(let ms):
        buffer.append(Tag.instant.rawValue)
        appendVarint(zigzag(ms), to: &buffer)
      case .seconds(let value):
        buffer.append(Tag.seconds.rawValue)
        appendDouble(value, to: &buffer)
      }
    }
  }

  static func decodeRow(from reader: RowSpool.Reader) throws -> [Cell] {
    let count = try readVarint(from: reader)
    guard count <= UInt64(Int32.max) else { throw reader.damaged("cell count \(count)") }
    var row: [Cell] = []
    // A damaged count fails at the first missing byte; it never reserves memory up front.
    row.reserveCapacity(min(Int(count), 4096))
    for _ in 0..<Int(count) {
      let rawTag = try reader.readByte()
      guard let tag = Tag(rawValue: rawTag) else { throw reader.damaged("unknown tag \(rawTag)") }
      switch tag {
      case .empty: row.append(.empty)
      case .text: row.append(.text(try readString(from: reader)))
      case .number:
        let text = try readString(from: reader)
        row.append(.number(text: text, value: try readDouble(from: reader)))
      case .integer: row.append(.integer(unzigzag(try readVarint(from: reader))))
      case .boolFalse: row.append(.bool(false))
      case .boolTrue: row.append(.bool(true))
      case .instant: row.append(.instant(millisecondsSince1970: unzigzag(try readVarint(from: reader))))
      case .seconds: row.append(.seconds(try readDouble(from: reader)))
      }
    }
    return row
  }

  // MARK: - Primitives

  @inline(__always)
  static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  @inline(__always)
  static func unzigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  static func appendVarint(_ value: UInt64, to buffer: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      buffer.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    buffer.append(UInt8(truncatingIfNeeded: rest))
  }

  static func appendString(_ text: String, to buffer: inout [UInt8]) {
    appendVarint(UInt64(text.utf8.count), to: &buffer)
    buffer.append(contentsOf: text.utf8)
  }

  static func appendDouble(_ value: Double, to buffer: inout [UInt8]) {
    let bits = value.bitPattern
    for shift in stride(from: 0, to: 64, by: 8) {
      buffer.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
  }

  static func readVarint(from reader: RowSpool.Reader) throws -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = try reader.readByte()
      guard shift < 64 else { throw reader.damaged("varint too long") }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
  }

  static func readString(from reader: RowSpool.Reader) throws -> String {
    let length = try readVarint(from: reader)
    guard length <= UInt64(Int32.max) else { throw reader.damaged("text length \(length)") }
    return String(decoding: try reader.readBytes(Int(length)), as: UTF8.self)
  }

  static func readDouble(from reader: RowSpool.Reader) throws -> Double {
    let bytes = try reader.readBytes(8)
    var bits: UInt64 = 0
    for (index, byte) in bytes.enumerated() { bits |= UInt64(byte) << UInt64(index * 8) }
    return Double(bitPattern: bits)
  }
}
