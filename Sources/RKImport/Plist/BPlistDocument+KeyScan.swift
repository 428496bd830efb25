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
    return bytes.withUnsafeBufferPointer { buffer -> KeyScanResult in
      guard let base = buffer.baseAddress else { return .undecided }
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

  /// The big-endian unsigned integer of `size` (1…8) bytes at `offset`; the caller checked
  /// that they lie in the buffer.
  @inline(__always)
  static func readBigEndian(_ base: UnsafePointer<UInt8>, at offset: Int, _ size: Int) -> UInt64 {
    switch size {
    case 1: return UInt64(base[offset])
    case 2: return UInt64(base[offset]) << 8 | UInt64(base[offset + 1])
    default:
      var value: UInt64 = 0
      for index in offset..<(offset + size) { value = value << 8 | UInt64(base[index]) }
      return value
    }
  }
}
