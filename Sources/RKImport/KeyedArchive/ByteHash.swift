// The hashes of the tables keyed by raw bytes: class-record signatures (process-wide), class
// names and identifiers (per thread). One pass of multiplies, not SipHash, which cost more
// than reading the bytes.

enum ByteHash {
  /// A multiply-rotate hash of `bytes`, a word at a time; the last 1–7 bytes are folded in as
  /// one more word (the text's last eight bytes when it has eight, else byte by byte).
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var mixed = UInt64(bytes.count)
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      mixed = (mixed ^ word) &* 0x9E37_79B9_7F4A_7C15
      mixed = mixed << 29 | mixed >> 35
      offset += 8
    }
    var tail: UInt64 = 0
    if offset < bytes.count && bytes.count >= 8 {
      tail = UInt64(
        littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
    } else {
      while offset < bytes.count {
        tail = tail << 8 | UInt64(bytes[offset])
        offset += 1
      }
    }
    return (mixed ^ tail) &* 0xC2B2_AE3D_27D4_EB4F
  }

  /// `hash` of the `count` bytes at `start`.
  @inline(__always)
  static func hash(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    hash(UnsafeRawBufferPointer(start: start, count: count))
  }

  /// A hash of a key already held as two words (a short text, a class record's name numbers).
  @inline(__always)
  static func hash(words first: UInt64, _ second: UInt64) -> UInt64 {
    (first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xC2B2_AE3D_27D4_EB4F)
  }
}
