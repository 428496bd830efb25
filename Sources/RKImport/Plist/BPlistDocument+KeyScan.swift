// The hot path of keyed-archive decoding: finding a key among a dictionary's keys by raw bytes.

/// What a raw-byte key scan concluded.
enum KeyScanResult: Equatable {
  /// The entry index (keys count from 0) whose key equals the searched key.
  case found(Int)
  /// No key equals the searched key.
  case absent
  /// The scan met something it does not judge (an out-of-range reference, a long or non-ASCII
  /// key); the caller repeats the lookup with the checked, slower path.
  case undecided
}

extension BPlistDocument {
  /// Looks for the ASCII `key` among the keys of `dictionary`, comparing bytes in place: no
  /// String, no hashing, no thrown errors. Every read is inside ranges `init` and `header`
  /// already checked (the offset table and the dictionary's payload).
  ///
  /// - Parameter fromEnd: scan the last key first (`$class` is written last).
  func scanKeys(
    _ dictionary: PlistObjectHeader, for key: UnsafeBufferPointer<UInt8>, fromEnd: Bool = false
  ) -> KeyScanResult {
    let keyLength = key.count
    guard dictionary.type == .dictionary else { return .undecided }
    let isLong = keyLength >= 15
    let wantedMarker: UInt8 = isLong ? 0x5F : 0x50 | UInt8(keyLength)
    let count = dictionary.count
    let refSize = refSize
    let offsetSize = offsetSize
    let objectCount = objectCount
    let tableStart = offsetTableOffset
    let words = KeyWords(key)
    return bytes.withUnsafeBufferPointer { buffer -> KeyScanResult in
      guard let base = buffer.baseAddress else { return .undecided }
      // Where two 8-byte loads from a key's first byte stay inside the buffer.
      let lastWordStart = buffer.count - 16
      for step in 0..<count {
        let index = fromEnd ? count - 1 - step : step
        let ref = Self.readBigEndian(base, at: dictionary.payloadOffset + index * refSize, refSize)
        guard ref < UInt64(objectCount) else { return .undecided }
        let start = Self.readBigEndian(base, at: tableStart + Int(ref) * offsetSize, offsetSize)
        guard start >= 8, start < UInt64(tableStart) else { return .undecided }
        let marker = base[Int(start)]
        guard marker == wantedMarker else {
          // Another length or type cannot match, except a string in another encoding.
          if marker >> 4 == 0x6 || marker >> 4 == 0x7 { return .undecided }
          continue
        }
        var first = Int(start) + 1
        if isLong {
          // A long string's length follows as an integer object (as `header` reads it); a
          // malformed one makes `header` fail, which never matches.
          guard let (length, payload) = Self.extendedLength(base, at: first, end: tableStart),
            length == keyLength
          else { continue }
          first = payload
        }
        guard first + keyLength <= tableStart else { continue }
        if let words, first <= lastWordStart {
          if words.match(UnsafeRawPointer(base + first)) { return .found(index) }
          continue
        }
        var offset = 0
        while offset < keyLength, base[first + offset] == key[offset] { offset += 1 }
        if offset == keyLength { return .found(index) }
      }
      return .absent
    }
  }

  /// The length stored after a 0xF marker nibble at `offset` and the first payload byte, or nil
  /// when it is malformed or runs past `end`.
  private static func extendedLength(
    _ base: UnsafePointer<UInt8>, at offset: Int, end: Int
  ) -> (Int, Int)? {
    guard offset < end else { return nil }
    let marker = base[offset]
    guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { return nil }
    let size = 1 << Int(marker & 0x0F)
    guard offset + 1 + size <= end else { return nil }
    let value = readBigEndian(base, at: offset + 1, size)
    guard value <= UInt64(end) else { return nil }
    return (Int(value), offset + 1 + size)
  }

  /// The bytes of the string object at `start` when it is stored as bytes (marker 0x5n: ASCII,
  /// or UTF-8 from lenient writers) with its length in the marker or in a one- or two-byte
  /// integer object after it; nil for anything else (UTF-16, a four-byte length, another
  /// type, a length reaching past `end`, the offset table's start).
  @inline(__always)
  static func byteStringSpan(
    at start: Int, in base: UnsafePointer<UInt8>, end: Int
  ) -> Range<Int>? {
    let marker = base[start]
    guard marker >> 4 == 0x5 else { return nil }
    var first = start + 1
    var length = Int(marker & 0x0F)
    if length == 0x0F {
      guard first + 1 < end else { return nil }
      switch base[first] {
      case 0x10:
        length = Int(base[first + 1])
        first += 2
      case 0x11:
        guard first + 2 < end else { return nil }
        length = Int(base[first + 1]) << 8 | Int(base[first + 2])
        first += 3
      default: return nil
      }
    }
    guard length <= end - first else { return nil }
    return first..<(first + length)
  }

  /// The big-endian unsigned integer of `size` (1…8, which callers check or derive from
  /// checked sizes) bytes at `offset`; the caller checked that they lie before the trailer.
  ///
  /// One eight-byte load, shifted: the 32-byte trailer follows every object and offset-table
  /// entry, so eight bytes are readable wherever a reference, offset or integer starts. A
  /// switch over the sizes with a byte loop for the rest made every caller's loop set up
  /// that loop (hoisted masks and spills, ~30 instructions per read in `readPairs`).
  @inline(__always)
  static func readBigEndian(_ base: UnsafePointer<UInt8>, at offset: Int, _ size: Int) -> UInt64 {
    // Size 0 would read the whole word, above 8 trap in the shift's conversion: said in debug
    // builds, where the tests run.
    assert(size >= 1 && size <= 8, "plist integers are 1 to 8 bytes here")
    let word = UInt64(bigEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    return word &>> UInt64(64 &- 8 &* size)
  }
}

/// A key of at most 16 bytes as two masked little-endian words, so that comparing it with
/// bytes in the buffer takes two loads instead of a loop.
struct KeyWords {
  let first: UInt64
  let second: UInt64
  let firstMask: UInt64
  let secondMask: UInt64

  init?(_ key: UnsafeBufferPointer<UInt8>) {
    let count = key.count
    guard count <= 16 else { return nil }
    var low: UInt64 = 0
    var high: UInt64 = 0
    var index = count
    while index > 8 {
      index -= 1
      high = high << 8 | UInt64(key[index])
    }
    while index > 0 {
      index -= 1
      low = low << 8 | UInt64(key[index])
    }
    first = low
    second = high
    (firstMask, secondMask) = Self.masks(count: count)
  }

  /// The masks that keep the first `count` (0...16) bytes of two little-endian words.
  @inline(__always)
  static func masks(count: Int) -> (first: UInt64, second: UInt64) {
    (
      count >= 8 ? ~0 : (1 << (UInt64(count) * 8)) - 1,
      count <= 8 ? 0 : count == 16 ? ~0 : (1 << (UInt64(count - 8) * 8)) - 1
    )
  }

  /// Whether the 16 bytes at `bytes` start with the key (the caller checked they are readable).
  @inline(__always)
  func match(_ bytes: UnsafeRawPointer) -> Bool {
    let low = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
    let high = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    return low & firstMask == first && high & secondMask == second
  }
}

/// A plist's objects read through a pointer to its bytes, for the paths that read references
/// straight from the buffer (class records): references come from payloads the caller checked,
/// and each read checks only that its object lies in the object area.
struct PlistObjectArea {
  let base: UnsafePointer<UInt8>
  let refSize: Int
  let offsetSize: Int
  /// Where the offset table starts: the object area ends there.
  let tableStart: Int
  let objectCount: UInt64

  /// The start of object `ref` when it lies in the object area, as `checkedOffset` decides.
  @inline(__always)
  func start(of ref: UInt64) -> Int? {
    guard ref < objectCount else { return nil }
    let offset = Int(
      BPlistDocument.readBigEndian(base, at: tableStart &+ Int(ref) &* offsetSize, offsetSize))
    return offset >= 8 && offset < tableStart ? offset : nil
  }

  /// The reference at `offset` (inside a checked payload).
  @inline(__always)
  func reference(at offset: Int) -> UInt64 {
    BPlistDocument.readBigEndian(base, at: offset, refSize)
  }

  /// The bytes of object `ref` when it is a string stored as bytes (`byteStringSpan`).
  @inline(__always)
  func byteString(_ ref: UInt64) -> Range<Int>? {
    guard let start = start(of: ref) else { return nil }
    return BPlistDocument.byteStringSpan(at: start, in: base, end: tableStart)
  }

  /// Whether the bytes `span` are `text`'s.
  @inline(__always)
  func bytes(_ span: Range<Int>, are text: StaticString) -> Bool {
    guard span.count == text.utf8CodeUnitCount else { return false }
    var index = 0
    while index < span.count, base[span.lowerBound &+ index] == text.utf8Start[index] {
      index &+= 1
    }
    return index == span.count
  }
}

extension BPlistDocument {
  /// Calls `body` with the object area of these bytes; nil for an empty buffer.
  @inline(__always)
  func withObjectArea<Result>(_ body: (PlistObjectArea) -> Result?) -> Result? {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return nil }
      return body(
        PlistObjectArea(
          base: base, refSize: refSize, offsetSize: offsetSize, tableStart: offsetTableOffset,
          objectCount: UInt64(objectCount)))
    }
  }
}
