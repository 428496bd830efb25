// Key bytes → `FieldKey` without a String or hashing: the hot path of reading key strings.

/// Finds the `FieldKey` spelled by some bytes: candidates of the same length, told apart by
/// their first eight bytes, then compared in full. The table is plain storage built once.
enum FieldKeyMatcher {
  /// Longest key plus one.
  static let lengthLimit = 32
  /// Words per candidate: the key zero-padded to 32 bytes, little-endian.
  private static let wordsPerKey = 4

  private struct Table: @unchecked Sendable {
    /// `wordsPerKey` words per candidate, candidates grouped by length.
    let words: UnsafeMutablePointer<UInt64>
    let keys: UnsafeMutablePointer<FieldKey>
    /// Candidates of length `n` are `firsts[n]..<firsts[n + 1]`.
    let firsts: UnsafeMutablePointer<Int>
  }

  /// Built once and never freed (a few kilobytes for the process).
  private static let table: Table = {
    let cases = FieldKey.allCases.sorted { $0.name.utf8.count < $1.name.utf8.count }
    let words = UnsafeMutablePointer<UInt64>.allocate(capacity: cases.count * wordsPerKey)
    words.initialize(repeating: 0, count: cases.count * wordsPerKey)
    let keys = UnsafeMutablePointer<FieldKey>.allocate(capacity: cases.count)
    let firsts = UnsafeMutablePointer<Int>.allocate(capacity: lengthLimit + 1)
    firsts.initialize(repeating: cases.count, count: lengthLimit + 1)
    for (number, key) in cases.enumerated() {
      let bytes = Array(key.name.utf8)
      (keys + number).initialize(to: key)
      for (offset, byte) in bytes.enumerated() {
        words[number * wordsPerKey + offset / 8] |= UInt64(byte) << (UInt64(offset % 8) * 8)
      }
      for length in 0...bytes.count where firsts[length] > number { firsts[length] = number }
    }
    return Table(words: words, keys: keys, firsts: firsts)
  }()

  /// The key spelled by the `count` bytes at `bytes`, or nil.
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
    func word(_ index: Int) -> UInt64 {
      let valid = min(max(count - index * 8, 0), 8)
      let mask: UInt64 = valid == 8 ? ~0 : (1 << UInt64(valid * 8)) - 1
      let raw = bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
      return raw & UInt64(littleEndian: mask)
    }
    return key(words: (word(0), word(1), word(2), word(3)), count: count)
  }

  /// The key whose zero-padded bytes are `input` (in memory order), or nil.
  @inline(__always)
  private static func key(
    words input: (UInt64, UInt64, UInt64, UInt64), count: Int
  ) -> FieldKey? {
    let table = Self.table
    var candidate = table.firsts[count]
    let end = table.firsts[count + 1]
    while candidate < end {
      let words = table.words + candidate * wordsPerKey
      if words[0] == UInt64(littleEndian: input.0), words[1] == UInt64(littleEndian: input.1),
        words[2] == UInt64(littleEndian: input.2), words[3] == UInt64(littleEndian: input.3)
      {
        return table.keys[candidate]
      }
      candidate += 1
    }
    return nil
  }
}
