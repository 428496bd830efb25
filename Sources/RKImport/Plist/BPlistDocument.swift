// Reads a binary property list (`bplist00`) in place: a flat object table over the byte buffer.

/// The type of one property-list object.
enum PlistType: Sendable, Equatable {
  case null, bool, integer, real, date, data, string, uid, array, set, dictionary

  /// How messages name the type ("expected an array, found a string").
  var phrase: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer: "an integer"
    case .real: "a real"
    case .date: "a date"
    case .data: "data"
    case .string: "a string"
    case .uid: "a reference"
    case .array: "an array"
    case .set: "a set"
    case .dictionary: "a dictionary"
    }
  }
}

/// Where one object's payload lies: its type, first payload byte and element count.
///
/// For strings `count` is in code units (bytes for ASCII/UTF-8, 16-bit units for UTF-16), for
/// dictionaries it is the number of entries (keys come first, then values).
struct PlistObjectHeader: Sendable {
  var ref: Int
  var type: PlistType
  /// The low nibble of the marker byte (size exponent for numbers, encoding for strings).
  var info: UInt8
  var payloadOffset: Int
  var count: Int
  /// True for strings stored as UTF-16 big-endian (marker 0x6n).
  var isUTF16 = false
}

/// A parsed binary property list: the trailer and offset table are checked up front, objects
/// are decoded only when asked for, and every offset, count and reference is bounds-checked.
struct BPlistDocument: Sendable {
  let bytes: [UInt8]
  /// Number of objects in the offset table.
  let objectCount: Int
  /// The top object's number.
  let topObject: Int
  let offsetSize: Int
  let refSize: Int
  let offsetTableOffset: Int

  static let magic: [UInt8] = Array("bplist0".utf8)

  init(bytes: [UInt8]) throws(ImportError) {
    self.bytes = bytes
    guard bytes.count >= 40, bytes.starts(with: Self.magic) else {
      throw ImportError(reason: "not a binary property list (too short or no bplist header)")
    }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    refSize = Int(bytes[trailer + 7])
    let count = Self.bigEndian(bytes, at: trailer + 8, size: 8)
    let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
    let table = Self.bigEndian(bytes, at: trailer + 24, size: 8)
    // Named only when an error needs it: built for every input, the text cost ~1.5 k
    // instructions an archive.
    var place: String { "trailer at byte \(trailer)" }
    guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
      throw ImportError(
        location: place, reason: "invalid offset size \(offsetSize) or reference size \(refSize)")
    }
    // Every object takes at least one byte plus one offset-table entry, so this caps counts.
    guard count >= 1, count <= UInt64(trailer) else {
      throw ImportError(location: place, reason: "object count \(count) does not fit the file")
    }
    guard top < count else {
      throw ImportError(
        location: place, reason: "top object \(top) out of range (\(count) objects)")
    }
    guard table >= 8, table <= UInt64(trailer),
      UInt64(trailer) - table >= count * UInt64(offsetSize)
    else {
      throw ImportError(location: place, reason: "offset table at byte \(table) out of range")
    }
    objectCount = Int(count)
    topObject = Int(top)
    offsetTableOffset = Int(table)
  }

  /// The unsigned big-endian integer of `size` (1…8) bytes at `offset` (the caller checked
  /// bounds): one load, as `readBigEndian` reads (eight bytes are readable wherever such a
  /// value starts: before the trailer, or the trailer's last eight). A read outside `bytes`
  /// traps, as an out-of-range subscript would.
  @inline(__always)
  static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
    bytes.withUnsafeBufferPointer { buffer in
      precondition(offset >= 0 && offset <= buffer.count - 8, "plist read out of range")
      return readBigEndian(buffer.baseAddress.unsafelyUnwrapped, at: offset, size)
    }
  }

  /// The byte offset of object `ref`, checked to lie between the header and the offset table.
  @inline(__always)
  func offset(of ref: Int) throws(ImportError) -> Int {
    guard ref >= 0, ref < objectCount else {
      throw ImportError(reason: "reference to object \(ref) out of range (\(objectCount) objects)")
    }
    let raw = Self.bigEndian(bytes, at: offsetTableOffset + ref * offsetSize, size: offsetSize)
    guard raw >= 8, raw < UInt64(offsetTableOffset) else {
      throw ImportError(location: "object \(ref)", reason: "offset \(raw) out of range")
    }
    return Int(raw)
  }

  /// `offset(of:)`, or nil instead of an error.
  @inline(__always)
  func checkedOffset(of ref: Int) -> Int? {
    guard ref >= 0, ref < objectCount else { return nil }
    let raw = Self.bigEndian(bytes, at: offsetTableOffset + ref * offsetSize, size: offsetSize)
    guard raw >= 8, raw < UInt64(offsetTableOffset) else { return nil }
    return Int(raw)
  }

  /// Decodes object `ref`'s marker and length, checking that its payload fits the object area.
  @inline(__always)
  func header(_ ref: Int) throws(ImportError) -> PlistObjectHeader {
    // Most objects have their count in the marker: decoded inline, the rest (and every error)
    // by the full decoder.
    if let header = shortHeader(ref) { return header }
    return try decodeHeader(ref)
  }

  /// The header of a dictionary, array, ASCII string, UID, integer, real or date whose count
  /// or size is in its marker, when it fits the object area; nil for anything else (the full
  /// decoder reads it and names what is wrong).
  @inline(__always)
  private func shortHeader(_ ref: Int) -> PlistObjectHeader? {
    guard let start = checkedOffset(of: ref) else { return nil }
    let marker = bytes[start]
    let info = marker & 0x0F
    let type: PlistType
    var count = 1
    let unit: Int
    switch marker >> 4 {
    case 0xD where info != 0x0F:
      type = .dictionary
      count = Int(info)
      unit = refSize &* 2
    case 0x5 where info != 0x0F:
      type = .string
      count = Int(info)
      unit = 1
    case 0xA where info != 0x0F:
      type = .array
      count = Int(info)
      unit = refSize
    case 0x8:
      type = .uid
      unit = Int(info) &+ 1
    case 0x1 where info <= 4:
      type = .integer
      unit = 1 << Int(info)
    case 0x2 where info == 2 || info == 3:
      type = .real
      unit = 1 << Int(info)
    case 0x3 where marker == 0x33:
      type = .date
      unit = 8
    default: return nil
    }
    // count < 15 and unit ≤ 16: no overflow; the same bound as `decodeHeader`'s.
    let payload = start + 1
    guard count &* unit <= offsetTableOffset - payload else { return nil }
    return PlistObjectHeader(
      ref: ref, type: type, info: info, payloadOffset: payload, count: count)
  }

  /// `decodeHeader(_:)`, for tests that compare it with the inline path.
  func fullHeader(_ ref: Int) throws(ImportError) -> PlistObjectHeader { try decodeHeader(ref) }

  /// `header(_:)` for every marker, with the errors.
  @inline(never)
  private func decodeHeader(_ ref: Int) throws(ImportError) -> PlistObjectHeader {
    let start = try offset(of: ref)
    let marker = bytes[start]
    let info = marker & 0x0F
    var payload = start + 1
    var count = Int(info)
    let type: PlistType
    var unit = 1
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x00: type = .null
      case 0x08, 0x09: type = .bool
      default: throw invalid(ref, start, "unknown marker 0x\(String(marker, radix: 16))")
      }
      count = 0
    case 0x1:
      guard info <= 4 else { throw invalid(ref, start, "integer of 2^\(info) bytes") }
      type = .integer
      unit = 1 << Int(info)
      count = 1
    case 0x2:
      guard info == 2 || info == 3 else { throw invalid(ref, start, "real of 2^\(info) bytes") }
      type = .real
      unit = 1 << Int(info)
      count = 1
    case 0x3:
      guard marker == 0x33 else { throw invalid(ref, start, "invalid date marker") }
      type = .date
      unit = 8
      count = 1
    case 0x4: type = .data
    case 0x5, 0x7: type = .string
    case 0x6:
      type = .string
      unit = 2
    case 0x8:
      type = .uid
      unit = Int(info) + 1
      count = 1
    case 0xA: type = .array
    case 0xB, 0xC: type = .set
    case 0xD: type = .dictionary
    default: throw invalid(ref, start, "unknown marker 0x\(String(marker, radix: 16))")
    }
    switch type {
    case .data, .string, .array, .set, .dictionary:
      if info == 0x0F { (count, payload) = try extendedCount(ref, at: payload) }
      if type == .array || type == .set { unit = refSize }
      if type == .dictionary { unit = refSize * 2 }
    default: break
    }
    // count ≤ file size and unit ≤ 16, so the product cannot overflow.
    guard payload <= offsetTableOffset, count <= offsetTableOffset - payload,
      count * unit <= offsetTableOffset - payload
    else {
      throw invalid(ref, start, "\(type.phrase) of \(count) elements runs past the object area")
    }
    return PlistObjectHeader(
      ref: ref, type: type, info: info, payloadOffset: payload, count: count,
      isUTF16: marker >> 4 == 0x6)
  }

  /// Reads a length stored after a marker whose low nibble is 0xF.
  private func extendedCount(_ ref: Int, at offset: Int) throws(ImportError) -> (Int, Int) {
    guard offset < offsetTableOffset else { throw invalid(ref, offset, "truncated length") }
    let marker = bytes[offset]
    guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
      throw invalid(ref, offset, "invalid length marker")
    }
    let size = 1 << Int(marker & 0x0F)
    guard offset + 1 + size <= offsetTableOffset else {
      throw invalid(ref, offset, "truncated length")
    }
    let value = Self.bigEndian(bytes, at: offset + 1, size: size)
    guard value <= UInt64(offsetTableOffset) else {
      throw invalid(ref, offset, "length \(value) larger than the file")
    }
    return (Int(value), offset + 1 + size)
  }

  /// The `index`-th reference inside an array, set or dictionary payload (dictionary values
  /// start at `count`), checked against the object count.
  @inline(__always)
  func childRef(_ header: PlistObjectHeader, _ index: Int) throws(ImportError) -> Int {
    let value = Self.bigEndian(bytes, at: header.payloadOffset + index * refSize, size: refSize)
    guard value < UInt64(objectCount) else {
      throw ImportError(
        location: "object \(header.ref)",
        reason: "reference to object \(value) out of range (\(objectCount) objects)")
    }
    return Int(value)
  }

  /// `childRef`, or nil instead of an error when the reference is out of range.
  @inline(__always)
  func checkedChildRef(_ header: PlistObjectHeader, _ index: Int) -> Int? {
    let value = Self.bigEndian(bytes, at: header.payloadOffset + index * refSize, size: refSize)
    return value < UInt64(objectCount) ? Int(value) : nil
  }

  func invalid(_ ref: Int, _ byte: Int, _ reason: String) -> ImportError {
    ImportError(location: "object \(ref) at byte \(byte)", reason: reason)
  }
}
