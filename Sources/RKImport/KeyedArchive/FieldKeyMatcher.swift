// Key bytes → `FieldKey` without a String: the hot path of reading key strings.

/// Finds the `FieldKey` spelled by some bytes: the bytes as four masked words are hashed into
/// an open-addressing table of the keys, and the one candidate there is compared in full. The
/// table is plain storage built once.
enum FieldKeyMatcher {
  /// Longest key plus one.
  static let lengthLimit = 32
  /// Words per key: the key zero-padded to 32 bytes, in memory order.
  private static let wordsPerKey = 4
  /// Slots in the hash table (a power of two, about ten times the number of keys, so that
  /// most lookups, hits or misses, look at one slot).
  private static let slotCount = 1024

  struct Table: @unchecked Sendable {
    /// `wordsPerKey` words per key, in `FieldKey.allCases` order.
    let words: UnsafeMutablePointer<UInt64>
    /// Each key's length.
    let lengths: UnsafeMutablePointer<Int>
    let keys: UnsafeMutablePointer<FieldKey>
    /// Per slot: the key's index plus one, or 0 for an empty slot.
    let slots: UnsafeMutablePointer<UInt16>
    /// Per length: the masks that keep a word's first `length` bytes.
    let masks: UnsafeMutablePointer<UInt64>
  }

  /// Built once and never freed (a few kilobytes for the process).
  static let table: Table = {
    let cases = FieldKey.allCases
    let words = UnsafeMutablePointer<UInt64>.allocate(capacity: cases.count * wordsPerKey)
    words.initialize(repeating: 0, count: cases.count * wordsPerKey)
    let lengths = UnsafeMutablePointer<Int>.allocate(capacity: cases.count)
    let keys = UnsafeMutablePointer<FieldKey>.allocate(capacity: cases.count)
    let slots = UnsafeMutablePointer<UInt16>.allocate(capacity: slotCount)
    slots.initialize(repeating: 0, count: slotCount)
    let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: lengthLimit * wordsPerKey)
    for length in 0..<lengthLimit {
      for index in 0..<wordsPerKey {
        let valid = min(max(length - index * 8, 0), 8)
        let mask: UInt64 = valid == 8 ? ~0 : (1 << UInt64(valid * 8)) - 1
        // Masks apply to words loaded in memory order.
        (masks + length * wordsPerKey + index).initialize(to: UInt64(littleEndian: mask))
      }
    }
    for (number, key) in cases.enumerated() {
      let bytes = Array(key.name.utf8)
      (keys + number).initialize(to: key)
      (lengths + number).initialize(to: bytes.count)
      var padded = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
      withUnsafeMutableBytes(of: &padded) { raw in
        for (offset, byte) in bytes.enumerated() { raw[offset] = byte }
      }
      let base = words + number * wordsPerKey
      (base[0], base[1], base[2], base[3]) = padded
      var slot = hash(padded, count: bytes.count)
      while slots[slot] != 0 { slot = (slot + 1) & (slotCount - 1) }
      slots[slot] = UInt16(number + 1)
    }
    return Table(words: words, lengths: lengths, keys: keys, slots: slots, masks: masks)
  }()

  /// The slot where the search for a key of `count` bytes, zero-padded to `words`, starts.
  @inline(__always)
  private static func hash(_ words: (UInt64, UInt64, UInt64, UInt64), count: Int) -> Int {
    var mixed = words.0 &* 0x9E37_79B9_7F4A_7C15
    mixed ^= (words.1 ^ UInt64(count)) &* 0xC2B2_AE3D_27D4_EB4F
    mixed ^= (words.2 ^ words.3 &* 0x1656_67B1_9E37_79F9) &* 0x27D4_EB2F_1656_67C5
    return Int(truncatingIfNeeded: mixed >> 54) & (slotCount - 1)
  }

  /// The key spelled by `bytes`, or nil.
  static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldKey? {
    let count = bytes.count
    guard count < lengthLimit else { return nil }
    // The input as words, zero-padded like the table.
    var input = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    withUnsafeMutableBytes(of: &input) { raw in
      for index in 0..<count { raw[index] = bytes[index] }
    }
    return key(words: input, count: count)
  }

  /// The key spelled by the `count` (< `lengthLimit`) bytes at `bytes`, of which 32 are
  /// readable.
  @inline(__always)
  static func key(loadingFrom bytes: UnsafeRawPointer, count: Int) -> FieldKey? {
    key(loadingFrom: bytes, count: count, in: table)
  }

  /// `key(loadingFrom:count:)` with `table` fetched once by a caller matching many keys.
  @inline(__always)
  static func key(
    loadingFrom bytes: UnsafeRawPointer, count: Int, in table: Table
  ) -> FieldKey? {
    let masks = table.masks + count * wordsPerKey
    let words = (
      bytes.loadUnaligned(as: UInt64.self) & masks[0],
      bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & masks[1],
      bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self) & masks[2],
      bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self) & masks[3]
    )
    return key(words: words, count: count, in: table)
  }

  /// The key whose zero-padded bytes are `input` (in memory order), or nil.
  @inline(__always)
  private static func key(
    words input: (UInt64, UInt64, UInt64, UInt64), count: Int, in table: Table = table
  ) -> FieldKey? {
    var slot = hash(input, count: count)
    while true {
      let entry = Int(table.slots[slot])
      if entry == 0 { return nil }
      let number = entry - 1
      let words = table.words + number * wordsPerKey
      if table.lengths[number] == count, words[0] == input.0, words[1] == input.1,
        words[2] == input.2, words[3] == input.3
      {
        return table.keys[number]
      }
      slot = (slot + 1) & (slotCount - 1)
    }
  }
}
