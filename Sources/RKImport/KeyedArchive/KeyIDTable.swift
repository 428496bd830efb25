// Which `FieldKey` each key string of one archive is, decided once per key string.

/// What one plist object is when it serves as a dictionary key.
enum KeySlot: Equatable {
  /// Not looked at yet.
  case unread
  /// A key that is not a `FieldKey` (an app's own key, an escaped `$$` key).
  case other
  /// Not a string: an invalid key.
  case notString
  case known(FieldKey)
}

/// Key identities by plist object number. NSKeyedArchiver stores each key string once, so each
/// is hashed once per archive and every later lookup compares one byte per key.
///
/// Plain zero-filled storage (no exclusivity checks); only the first `maximumCapacity` object
/// numbers are cached, so a hostile object count cannot make it large.
final class KeyIDTable {
  /// Object numbers cached at most (1 byte each).
  static let maximumCapacity = 1 << 20

  private let capacity: Int
  private let slots: UnsafeMutablePointer<KeySlot>

  init(objectCount: Int) {
    capacity = max(0, min(objectCount, Self.maximumCapacity))
    slots = UnsafeMutablePointer<KeySlot>.allocate(capacity: max(capacity, 1))
    slots.initialize(repeating: .unread, count: max(capacity, 1))
  }

  deinit { slots.deallocate() }

  /// What plist object `ref` is as a key; `ref` is a checked object number.
  @inline(__always)
  func slot(_ ref: Int, in plist: BPlistDocument) -> KeySlot {
    guard ref < capacity else { return Self.read(ref, in: plist) }
    let cached = slots[ref]
    if cached != .unread { return cached }
    let slot = Self.read(ref, in: plist)
    slots[ref] = slot
    return slot
  }

  private static func read(_ ref: Int, in plist: BPlistDocument) -> KeySlot {
    if let slot = readASCII(ref, in: plist) { return slot }
    guard let header = try? plist.header(ref), header.type == .string else { return .notString }
    return FieldKey.byName[plist.string(header)].map { .known($0) } ?? .other
  }

  /// The slot of an ASCII string key read in place, without a String or hashing; nil for
  /// anything else (UTF-16 or UTF-8 strings, other types, malformed objects).
  private static func readASCII(_ ref: Int, in plist: BPlistDocument) -> KeySlot? {
    guard let start = plist.checkedOffset(of: ref) else { return nil }
    let end = plist.offsetTableOffset
    return plist.bytes.withUnsafeBufferPointer { buffer -> KeySlot? in
      guard let base = buffer.baseAddress else { return nil }
      let marker = base[start]
      guard marker >> 4 == 0x5 else { return nil }
      var first = start + 1
      var length = Int(marker & 0x0F)
      if length == 0x0F {
        // A long string's length follows as a 1- or 2-byte integer object.
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
      guard length < FieldKeyMatcher.lengthLimit else { return .other }
      let key: FieldKey?
      if first + 32 <= buffer.count {
        // The offset table follows, so 32 bytes can be loaded whole and masked.
        key = FieldKeyMatcher.key(loadingFrom: UnsafeRawPointer(base + first), count: length)
      } else {
        key = FieldKeyMatcher.key(UnsafeBufferPointer(start: base + first, count: length))
      }
      return key.map { .known($0) } ?? .other
    }
  }
}

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

/// Which `FieldKey`s an object holds, as a bit set, so that asking for an absent key costs
/// one test instead of a scan of the object's keys.
struct FieldKeySet {
  private var low: UInt64 = 0
  private var high: UInt64 = 0

  /// Every key: the set of an object whose keys could not all be read, so that every lookup
  /// scans (and reports) as it would without the set.
  static let all: FieldKeySet = {
    var set = FieldKeySet()
    set.low = ~0
    set.high = ~0
    return set
  }()

  @inline(__always)
  mutating func insert(_ key: FieldKey) {
    let bit = Int(key.rawValue)
    if bit < 64 { low |= 1 << UInt64(bit) } else { high |= 1 << UInt64(bit - 64) }
  }

  @inline(__always)
  func contains(_ key: FieldKey) -> Bool {
    let bit = Int(key.rawValue)
    return bit < 64 ? low & (1 << UInt64(bit)) != 0 : high & (1 << UInt64(bit - 64)) != 0
  }
}
