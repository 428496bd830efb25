// Archive objects resolved once, in flat per-archive storage: decoders reach the same object
// several times (a question's answer is probed for "no answer", presence, then read), and
// every lookup after the first is a short scan over a few integers.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What resolving one archive object found: where its dictionary lies, its class record, the
/// `FieldKey`s it holds, and where its key/value pairs start in the table's pair storage.
/// Trivially copyable, so that `ArchivedObject` copies cost no reference counting.
struct ResolvedObject {
  var payloadOffset: Int
  var count: Int
  var classIndex: Int
  /// The first of `count` pairs in `ObjectTable`'s storage, or -1 when the object's keys or
  /// values could not all be read in place (lookups then scan the plist, reporting errors).
  var pairStart: Int
  var keys: FieldKeySet
  var foundation: FoundationClass?
}

/// One key/value entry of a resolved object as one word: the key's `KeyIDTable` code in the
/// top byte, a flag telling a UID from a plist reference, and the number in the low 32 bits.
struct KeyPair {
  let bits: UInt64

  /// The key code of a key that is not a `FieldKey`.
  static let otherCode = KeyIDTable.otherCode
  private static let uidFlag: UInt64 = 1 << 32

  init(code: UInt8, ref: Int) { bits = UInt64(code) << 56 | UInt64(UInt32(ref)) }

  init(code: UInt8, uid: Int) { bits = UInt64(code) << 56 | Self.uidFlag | UInt64(UInt32(uid)) }

  @inline(__always) var code: UInt8 { UInt8(truncatingIfNeeded: bits >> 56) }
  /// The value is a UID within `$objects` (else a plist object number to resolve).
  @inline(__always) var isUID: Bool { bits & Self.uidFlag != 0 }
  @inline(__always) var number: Int { Int(UInt32(truncatingIfNeeded: bits)) }
}

/// Per archive UID (the first `maximumObjects`): the object's `ResolvedObject`, once
/// `KeyedArchive.value(uid:depth:)` has resolved it without error, or the seconds of a plain
/// date read in place (NSKeyedArchiver stores an NSDate once, however often it is referenced:
/// a step's and its result's dates are often the same objects); and the key/value pairs of
/// resolved objects, at most `maximumPairs` in all. Plain storage, not thread-safe, like the
/// archive that owns it.
final class ObjectTable {
  /// UIDs remembered at most (about 60 bytes each).
  static let maximumObjects = 1 << 20
  /// Pairs stored at most (8 bytes each); a hostile archive whose `$objects` names one large
  /// dictionary many times stops storing pairs and is read in place instead.
  static let maximumPairs = 1 << 22

  private let capacity: Int
  /// Per UID: `unknown`, `resolved` (an entry) or `plainDate` (seconds in `dates`).
  private let states: UnsafeMutablePointer<UInt8>
  private let entries: UnsafeMutablePointer<ResolvedObject>
  private let dates: UnsafeMutablePointer<Double>
  private static let unknown: UInt8 = 0
  private static let resolved: UInt8 = 1
  private static let plainDate: UInt8 = 2
  private let pairCapacity: Int
  /// `pairCount[0]` pairs are in use (one cell: no exclusivity check per object).
  private let pairCount: UnsafeMutablePointer<Int>
  let pairs: UnsafeMutablePointer<KeyPair>
  // Two memos of key references, both resting on NSKeyedArchiver storing each key string
  // once (objects of one class refer to the same key objects). They are kept apart because
  // their objects come apart: the plain readers' two-pair objects of three kinds (dates,
  // UUIDs, arrays) would take turns in the key layouts' places for two keys.
  /// Per key count below `keyLayoutLimit`, for the last two dictionaries `readPairs` read with
  /// that many keys (objects of two classes often alternate), newest first: where in the plist
  /// their key references start (-1: none yet), what their keys came to, and
  /// (`keyLayoutCodes`, `keyLayoutLimit` bytes each) their codes.
  private let keyLayoutStarts: UnsafeMutablePointer<Int>
  private let keyLayoutSummaries: UnsafeMutablePointer<KeyLayout>
  private let keyLayoutCodes: UnsafeMutablePointer<UInt8>
  private static let keyLayoutLimit = 32
  private static let keyLayoutSlots = 2 * keyLayoutLimit
  /// For each plain reader of `KeyedArchive` (`plainKeyReferences`), the plist references of
  /// the two keys of the last object it read, wanted key first (-1: none).
  private let plainKeys: UnsafeMutablePointer<Int>
  private static let plainReaders = 3
  /// The one allocation the arrays above lie in (an allocation costs ~250 instructions an
  /// archive with its `free`): the count, entries, dates, pairs, key layouts and plain
  /// readers' keys, all of eight-byte alignment, then the states and the key layouts' codes.
  private let storage: UnsafeMutableRawPointer

  /// `objectCount` UIDs; `pairLimit` caps the pair storage (the plist's size bounds the pairs
  /// of distinct dictionaries).
  init(objectCount: Int, pairLimit: Int) {
    capacity = max(1, min(objectCount, Self.maximumObjects))
    pairCapacity = max(1, min(pairLimit, Self.maximumPairs))
    let entriesStart = MemoryLayout<Int>.stride
    let datesStart = entriesStart + capacity * MemoryLayout<ResolvedObject>.stride
    let pairsStart = datesStart + capacity * MemoryLayout<Double>.stride
    let layoutStartsStart = pairsStart + pairCapacity * MemoryLayout<KeyPair>.stride
    let layoutsStart = layoutStartsStart + Self.keyLayoutSlots * MemoryLayout<Int>.stride
    let plainKeysStart = layoutsStart + Self.keyLayoutSlots * MemoryLayout<KeyLayout>.stride
    let statesStart = plainKeysStart + 2 * Self.plainReaders * MemoryLayout<Int>.stride
    let codesStart = statesStart + capacity
    // Every start above is then a multiple of its array's alignment (eight bytes at most).
    assert(
      MemoryLayout<ResolvedObject>.alignment <= MemoryLayout<Int>.alignment
        && MemoryLayout<ResolvedObject>.stride % MemoryLayout<Int>.alignment == 0
        && MemoryLayout<KeyPair>.alignment <= MemoryLayout<Int>.alignment
        && MemoryLayout<KeyLayout>.alignment <= MemoryLayout<Int>.alignment
        && MemoryLayout<KeyLayout>.stride % MemoryLayout<Int>.alignment == 0)
    storage = UnsafeMutableRawPointer.allocate(
      byteCount: codesStart + Self.keyLayoutSlots * Self.keyLayoutLimit,
      alignment: MemoryLayout<Int>.alignment)
    pairCount = storage.bindMemory(to: Int.self, capacity: 1)
    pairCount.initialize(to: 0)
    entries = (storage + entriesStart).bindMemory(to: ResolvedObject.self, capacity: capacity)
    dates = (storage + datesStart).bindMemory(to: Double.self, capacity: capacity)
    pairs = (storage + pairsStart).bindMemory(to: KeyPair.self, capacity: pairCapacity)
    states = (storage + statesStart).bindMemory(to: UInt8.self, capacity: capacity)
    states.initialize(repeating: Self.unknown, count: capacity)
    keyLayoutStarts = (storage + layoutStartsStart)
      .bindMemory(to: Int.self, capacity: Self.keyLayoutSlots)
    keyLayoutStarts.initialize(repeating: -1, count: Self.keyLayoutSlots)
    // Summaries and codes are written before a start is set (`rememberKeyLayout`).
    keyLayoutSummaries = (storage + layoutsStart)
      .bindMemory(to: KeyLayout.self, capacity: Self.keyLayoutSlots)
    keyLayoutCodes = (storage + codesStart)
      .bindMemory(to: UInt8.self, capacity: Self.keyLayoutSlots * Self.keyLayoutLimit)
    plainKeys = (storage + plainKeysStart).bindMemory(to: Int.self, capacity: 2 * Self.plainReaders)
    plainKeys.initialize(repeating: -1, count: 2 * Self.plainReaders)
  }

  deinit {
    // `Int`, `ResolvedObject`, `Double`, `KeyPair`, `KeyLayout` and `UInt8` are trivial:
    // nothing to deinitialise.
    storage.deallocate()
  }

  /// The entry of `uid` (≥ 0), if remembered.
  @inline(__always)
  func entry(_ uid: Int) -> ResolvedObject? {
    guard uid < capacity, states[uid] == Self.resolved else { return nil }
    return entries[uid]
  }

  func remember(_ entry: ResolvedObject, for uid: Int) {
    guard uid < capacity, states[uid] != Self.resolved else { return }
    (entries + uid).initialize(to: entry)
    states[uid] = Self.resolved
  }

  /// The seconds of `uid` (≥ 0) when it was read in place as a plain date.
  @inline(__always)
  func plainDate(_ uid: Int) -> Double? {
    guard uid < capacity, states[uid] == Self.plainDate else { return nil }
    return dates[uid]
  }

  /// Remembers `seconds` as the plain date `uid` holds (not once it is resolved).
  @inline(__always)
  func rememberPlainDate(_ seconds: Double, for uid: Int) {
    guard uid < capacity, states[uid] == Self.unknown else { return }
    (dates + uid).initialize(to: seconds)
    states[uid] = Self.plainDate
  }

  /// Room for `count` more pairs: the index of the first, or nil when the storage is full.
  func reservePairs(_ count: Int) -> Int? {
    let start = pairCount.pointee
    guard count <= pairCapacity - start else { return nil }
    pairCount.pointee = start + count
    return start
  }

  /// Gives back the pairs reserved last (an object whose pairs could not all be read).
  func releasePairs(from start: Int) { pairCount.pointee = start }

  /// The key codes and summary of a dictionary of `count` keys whose key references, at
  /// `keyReferences` in `base` (`count * refSize` bytes), are the same bytes as those of one
  /// of the last two dictionaries of that many keys remembered: the same key objects, so the
  /// same keys (`KeyedArchive.readPairs`). nil otherwise.
  @inline(__always)
  func keyLayout(
    count: Int, keyReferences: Int, refSize: Int, in base: UnsafePointer<UInt8>
  ) -> (codes: UnsafePointer<UInt8>, summary: KeyLayout)? {
    guard count > 0, count < Self.keyLayoutLimit else { return nil }
    for slot in (2 &* count)..<(2 &* count &+ 2) {
      let start = keyLayoutStarts[slot]
      guard start >= 0 else { return nil }
      if start == keyReferences
        || memcmp(base + start, base + keyReferences, count &* refSize) == 0
      {
        return (
          UnsafePointer(keyLayoutCodes + slot &* Self.keyLayoutLimit), keyLayoutSummaries[slot]
        )
      }
    }
    return nil
  }

  /// The two key references plain reader `reader` (0 dates, 1 UUIDs, 2 arrays) matched last,
  /// wanted key first, for it to read and set (`KeyedArchive.plainPair`): an archive's dates
  /// all refer to the same two key objects, and a match needs neither key read again.
  @inline(__always)
  func plainKeyReferences(_ reader: Int) -> UnsafeMutablePointer<Int> {
    plainKeys + 2 &* reader
  }

  /// Remembers the key codes (in `pairs`) and summary of a dictionary of `count` keys whose
  /// key references (all in range) start at `keyReferences`, as the newest of its count (the
  /// newest before becomes the other).
  @inline(__always)
  func rememberKeyLayout(
    count: Int, keyReferences: Int, pairs: UnsafePointer<KeyPair>, summary: KeyLayout
  ) {
    guard count > 0, count < Self.keyLayoutLimit else { return }
    let newest = 2 &* count
    let codes = keyLayoutCodes + newest &* Self.keyLayoutLimit
    // Trivial values: initialising over earlier ones is a plain store.
    if keyLayoutStarts[newest] >= 0 {
      (codes + Self.keyLayoutLimit).initialize(from: codes, count: count)
      (keyLayoutSummaries + (newest &+ 1)).initialize(to: keyLayoutSummaries[newest])
      keyLayoutStarts[newest &+ 1] = keyLayoutStarts[newest]
    }
    for index in 0..<count { (codes + index).initialize(to: pairs[index].code) }
    (keyLayoutSummaries + newest).initialize(to: summary)
    keyLayoutStarts[newest] = keyReferences
  }
}

/// What a dictionary's keys came to, apart from their codes: the `FieldKey`s among them and
/// the index of the last `$class` key (-1 without one).
struct KeyLayout {
  var keys: FieldKeySet
  var classEntry: Int
}
