// The `FieldKey`s one archived object holds, as two words of bits.

/// Which `FieldKey`s an object holds, as a bit set, so that asking for an absent key costs
/// one test instead of a scan of the object's keys.
struct FieldKeySet: Sendable {
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

  /// Inserts the key with raw value `rawValue` (< 128, as every `FieldKey`'s).
  @inline(__always)
  mutating func insert(rawValue: UInt8) {
    let bit = Int(rawValue)
    if bit < 64 { low |= 1 << UInt64(bit) } else { high |= 1 << UInt64(bit - 64) }
  }

  init() {}

  /// The keys for which `isIn` holds.
  init(where isIn: (FieldKey) -> Bool) {
    for key in FieldKey.allCases where isIn(key) { insert(key) }
  }

  /// How many keys the set holds.
  var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

  @inline(__always)
  func isSubset(of other: FieldKeySet) -> Bool {
    low & ~other.low == 0 && high & ~other.high == 0
  }

  @inline(__always)
  func contains(_ key: FieldKey) -> Bool {
    let bit = Int(key.rawValue)
    return bit < 64 ? low & (1 << UInt64(bit)) != 0 : high & (1 << UInt64(bit - 64)) != 0
  }
}
