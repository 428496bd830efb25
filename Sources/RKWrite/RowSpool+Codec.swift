// The byte layout of spooled rows: compact, versionless, private to one process run.
import RKTable

/// Encodes and decodes rows for `RowSpool`: a 4-byte row length, then a tag byte per cell,
/// LEB128 varints, zigzag integers, UTF-8 text and 8-byte IEEE doubles (little-endian).
///
/// A cell may also be a field already in CSV form (`Tag.csvField`), as a CSV writer of the same
/// zone and `excelSafe` rendered it: a row's values that were formatted for another table are
/// copied, not formatted again. Such a cell has no `Cell`: rows holding one are for the CSV
/// writer only, and do not decode into cells.
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
    /// A field's CSV bytes, quoted and guarded as written (a varint length, then the bytes).
    case csvField = 8
  }

  /// Fills in the length of the row begun at `start`; false, removing the row, when it is
  /// 4 GiB or more.
  static func endRow(startingAt start: Int, in buffer: inout [UInt8]) -> Bool {
    let length = buffer.count - start - 4
    guard length <= Int(UInt32.max) else {
      buffer.removeSubrange(start...)
      return false
    }
    for index in 0..<4 { buffer[start + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
    return true
  }

  /// The most bytes `write(_:at:)` writes for `cell`.
  @inline(__always)
  static func maximumSize(of cell: Cell) -> Int {
    switch cell {
    case .empty, .bool: 1
    case .text(let text): 1 + maximumVarintSize + text.utf8.count
    case .number(let text, _): 1 + maximumVarintSize + text.utf8.count + 8
    case .integer, .instant: 1 + maximumVarintSize
    case .seconds: 1 + 8
    }
  }

  /// Writes one cell (its tag, then its payload) at `start`, where `maximumSize(of:)` bytes
  /// are writable; returns the bytes written. Stores through a pointer: appending each part
  /// to an array cost over a hundred instructions per part in checks.
  @inline(__always)
  static func write(_ cell: Cell, at start: UnsafeMutablePointer<UInt8>) -> Int {
    switch cell {
    case .empty:
      start.pointee = Tag.empty.rawValue
      return 1
    case .text(let text):
      start.pointee = Tag.text.rawValue
      return 1 + write(text, at: start + 1)
    case .number(let text, let value):
      start.pointee = Tag.number.rawValue
      let length = 1 + write(text, at: start + 1)
      return length + write(value, at: start + length)
    case .integer(let value):
      start.pointee = Tag.integer.rawValue
      return 1 + write(varint: zigzag(value), at: start + 1)
    case .bool(let value):
      start.pointee = value ? Tag.boolTrue.rawValue : Tag.boolFalse.rawValue
      return 1
    case .instant(let ms):
      start.pointee = Tag.instant.rawValue
      return 1 + write(varint: zigzag(ms), at: start + 1)
    case .seconds(let value):
      start.pointee = Tag.seconds.rawValue
      return 1 + write(value, at: start + 1)
    }
  }

  /// Decodes the cells of one row whose bytes (after the length) are all in `bytes`.
  static func decodeRow(_ bytes: UnsafeBufferPointer<UInt8>) -> [Cell]? {
    var cursor = Cursor(bytes: bytes)
    guard let count = cursor.varint(), count <= UInt64(bytes.count) else { return nil }
    var row: [Cell] = []
    row.reserveCapacity(Int(count))
    for _ in 0..<Int(count) {
      guard let rawTag = cursor.byte(), let tag = Tag(rawValue: rawTag),
        let cell = decodeCell(tag, &cursor)
      else { return nil }
      row.append(cell)
    }
    return cursor.isAtEnd ? row : nil
  }

  /// Decodes the payload of one cell whose tag was just read.
  @inline(__always)
  static func decodeCell(_ tag: Tag, _ cursor: inout Cursor) -> Cell? {
    switch tag {
    case .empty: return .empty
    case .text: return cursor.string().map(Cell.text)
    case .number:
      guard let text = cursor.string(), let value = cursor.double() else { return nil }
      return .number(text: text, value: value)
    case .integer: return cursor.varint().map { .integer(unzigzag($0)) }
    case .boolFalse: return .bool(false)
    case .boolTrue: return .bool(true)
    case .instant: return cursor.varint().map { .instant(millisecondsSince1970: unzigzag($0)) }
    case .seconds: return cursor.double().map(Cell.seconds)
    // Its type is gone: only the CSV writer reads it (`CSVRowBuilder.appendCell(of:at:)`).
    case .csvField: return nil
    }
  }

  /// Checks every cell of one row (bytes after the length) and stores where each cell's tag
  /// is in `starts` (grown when the row has more cells; later entries are stale); returns the
  /// number of cells, or nil when the row does not decode. Reads through the buffer with a
  /// position of its own: the cursor's optional reads cost ~35 instructions a cell, and every
  /// wide row of the tail is scanned.
  static func scanRow(_ bytes: UnsafeBufferPointer<UInt8>, into starts: inout [Int]) -> Int? {
    var cursor = Cursor(bytes: bytes)
    guard let count = cursor.varint(), count <= UInt64(bytes.count) else { return nil }
    let cellCount = Int(count)
    if starts.count < cellCount {
      starts.append(contentsOf: repeatElement(0, count: cellCount - starts.count))
    }
    let end = bytes.count
    var position = cursor.position
    let valid = starts.withUnsafeMutableBufferPointer { starts -> Bool in
      for cell in 0..<cellCount {
        guard position < end else { return false }
        starts[cell] = position
        let tag = bytes[position]
        position &+= 1
        switch tag {
        case Tag.empty.rawValue, Tag.boolFalse.rawValue, Tag.boolTrue.rawValue:
          continue
        case Tag.text.rawValue, Tag.csvField.rawValue:
          guard let length = skipVarint(bytes, &position), length <= UInt64(end - position)
          else { return false }
          position &+= Int(length)
        case Tag.number.rawValue:
          guard let length = skipVarint(bytes, &position), length <= UInt64(end - position),
            end - position - Int(length) >= 8
          else { return false }
          position &+= Int(length) &+ 8
        case Tag.integer.rawValue, Tag.instant.rawValue:
          guard skipVarintValue(bytes, &position) else { return false }
        case Tag.seconds.rawValue:
          guard end - position >= 8 else { return false }
          position &+= 8
        default:
          return false
        }
      }
      return position == end
    }
    return valid ? cellCount : nil
  }

  /// Moves `position` past the varint there; false when it runs past the bytes or is too long.
  /// A wide row's keys (`question << 32 | option`) take five or six bytes: the first byte
  /// without a continuation bit is found in one word when eight bytes are left.
  @inline(__always)
  private static func skipVarintValue(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int)
    -> Bool
  {
    if let base = bytes.baseAddress, bytes.count - position >= 8 {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
      let lastBytes = ~word & 0x8080_8080_8080_8080
      if lastBytes != 0 {
        position &+= lastBytes.trailingZeroBitCount &>> 3 &+ 1
        return true
      }
    }
    return skipVarint(bytes, &position) != nil
  }

  /// The varint at `position` (moved past it); nil when it runs past the bytes or is too long.
  /// `Cursor.varint` reads a one-byte varint (a text's length) at once.
  @inline(__always)
  private static func skipVarint(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int)
    -> UInt64?
  {
    var cursor = Cursor(bytes: bytes, position: position)
    let value = cursor.varint()
    position = cursor.position
    return value
  }

  /// The UTF-8 bytes of a row's first cell when it is text (a wide row's task id), read
  /// without scanning the rest; nil for a row without cells or whose first cell is not text.
  static func leadingText(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
    var cursor = Cursor(bytes: bytes)
    guard let count = cursor.varint(), count > 0, cursor.byte() == Tag.text.rawValue else {
      return nil
    }
    return cursor.stringBytes()
  }

  /// Reads primitives from a row's bytes; every read returns nil instead of running past them.
  struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    @inline(__always)
    mutating func byte() -> UInt8? {
      guard position < bytes.count else { return nil }
      defer { position += 1 }
      return bytes[position]
    }

    // Inlined, with one-byte values (text lengths, small integers) read at once: the wide
    // tables' writer reads every cell of every row through here.
    @inline(__always)
    mutating func varint() -> UInt64? {
      if position < bytes.count && bytes[position] < 0x80 {
        defer { position += 1 }
        return UInt64(bytes[position])
      }
      return longVarint()
    }

    private mutating func longVarint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while shift < 64, let byte = byte() {
        value |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
      }
      return nil
    }

    mutating func string() -> String? {
      stringBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// A string's UTF-8 bytes, in place.
    @inline(__always)
    mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
      guard let length = varint(), length <= UInt64(bytes.count - position) else { return nil }
      let end = position + Int(length)
      defer { position = end }
      return UnsafeBufferPointer(rebasing: bytes[position..<end])
    }

    mutating func double() -> Double? {
      fixed64().map(Double.init(bitPattern:))
    }

    /// Eight bytes, little-endian.
    mutating func fixed64() -> UInt64? {
      guard bytes.count - position >= 8 else { return nil }
      let bits = UnsafeRawBufferPointer(bytes).loadUnaligned(
        fromByteOffset: position, as: UInt64.self)
      position += 8
      return UInt64(littleEndian: bits)
    }
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

  /// The bytes of the longest LEB128 varint (a UInt64 has 64 bits, seven a byte).
  static let maximumVarintSize = 10

  /// Writes `value` as a LEB128 varint at `start` (room for `maximumVarintSize` bytes);
  /// returns the bytes written.
  @inline(__always)
  static func write(varint value: UInt64, at start: UnsafeMutablePointer<UInt8>) -> Int {
    var rest = value
    var count = 0
    while rest >= 0x80 {
      start[count] = UInt8(truncatingIfNeeded: rest) | 0x80
      rest >>= 7
      count += 1
    }
    start[count] = UInt8(truncatingIfNeeded: rest)
    return count + 1
  }

  /// Writes `text` as its UTF-8 length (a varint) and bytes at `start` (room for
  /// `maximumVarintSize` bytes and the text); returns the bytes written.
  @inline(__always)
  static func write(_ text: String, at start: UnsafeMutablePointer<UInt8>) -> Int {
    // Native strings lend their bytes in place; others (bridged, rare here) are copied once.
    if let written = text.utf8.withContiguousStorageIfAvailable({ bytes in
      write(utf8: bytes, at: start)
    }) {
      return written
    }
    return Array(text.utf8).withUnsafeBufferPointer { write(utf8: $0, at: start) }
  }

  @inline(__always)
  static func write(
    utf8 bytes: UnsafeBufferPointer<UInt8>, at start: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let length = write(varint: UInt64(bytes.count), at: start)
    if let source = bytes.baseAddress, bytes.count > 0 {
      (start + length).update(from: source, count: bytes.count)
    }
    return length + bytes.count
  }

  /// Writes `value`'s eight bytes (little-endian) at `start`; returns 8.
  @inline(__always)
  static func write(_ value: Double, at start: UnsafeMutablePointer<UInt8>) -> Int {
    UnsafeMutableRawPointer(start).storeBytes(
      of: value.bitPattern.littleEndian, as: UInt64.self)
    return 8
  }
}
