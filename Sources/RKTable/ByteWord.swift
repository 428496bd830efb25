// Tests on eight bytes at once: the scans over every field and path byte.

/// Bit tests on the eight bytes of a word (SWAR), for scans that look at every byte of a text.
public enum ByteWord {
  /// `byte` in each of the eight bytes.
  @inlinable
  public static func repeating(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

  /// Non-zero exactly when a byte of `word` is below `limit` (at most 0x80): `(x − n·0x01…) &
  /// ~x & 0x80…`. (Used as a yes or no: past the first such byte the bits may be set wrongly.)
  @inlinable
  public static func bytesBelow(_ limit: UInt8, in word: UInt64) -> UInt64 {
    (word &- repeating(limit)) & ~word & repeating(0x80)
  }

  /// Non-zero exactly when a byte of `word` is `byte`.
  @inlinable
  public static func bytesEqual(to byte: UInt8, in word: UInt64) -> UInt64 {
    bytesBelow(1, in: word ^ repeating(byte))
  }

  /// True when every byte is ASCII and none is a CR: each byte is then one Character (Swift
  /// takes `"\r\n"` as one), so byte offsets and Character offsets agree.
  public static func isASCIIWithoutCarriageReturn(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let raw = UnsafeRawBufferPointer(bytes)
    func clean(_ word: UInt64) -> Bool {
      word & repeating(0x80) == 0 && bytesEqual(to: 0x0D, in: word) == 0
    }
    var offset = 0
    while offset + 8 <= raw.count {
      guard clean(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) else {
        return false
      }
      offset += 8
    }
    while offset < raw.count {
      let byte = raw[offset]
      guard byte < 0x80, byte != 0x0D else { return false }
      offset += 1
    }
    return true
  }
}
