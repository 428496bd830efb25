// Decoded key strings of one archive, so that each key is decoded once, not once per object.

/// Key strings by plist object number. NSKeyedArchiver stores each key string once, so all
/// objects of a class share them; `ArchivedObject.entries()` asks for them again and again.
///
/// A zero-filled table of slot numbers (no hashing, nothing to destroy per entry) over a short
/// array of the distinct names, both allocated when the first name is remembered. Only the first `maximumCapacity`
/// object numbers are cached, so a hostile object count cannot make it large.
final class KeyNameCache {
  /// Object numbers cached at most (4 bytes each).
  static let maximumCapacity = 1 << 20

  private let capacity: Int
  /// Per object number: 0 when not cached, else the index in `names` plus one. Allocated on
  /// the first name: most archives never ask for keys by name.
  private var slots: UnsafeMutablePointer<UInt32>?
  /// The distinct names, `nameCount` of `nameCapacity` initialised; plain storage, as an
  /// array property would pay an exclusivity check on every read.
  private var names: UnsafeMutablePointer<String>?
  private var nameCount = 0
  private var nameCapacity = 64

  init(objectCount: Int) {
    capacity = max(0, min(objectCount, Self.maximumCapacity))
  }

  deinit {
    slots?.deallocate()
    names?.deinitialize(count: nameCount)
    names?.deallocate()
  }

  /// The cached key string of plist object `ref`, if any.
  @inline(__always)
  func name(_ ref: Int) -> String? {
    guard ref >= 0, ref < capacity, let slots, let names else { return nil }
    let slot = Int(slots[ref])
    return slot == 0 ? nil : names[slot - 1]
  }

  /// Remembers the key string of plist object `ref`.
  func remember(_ name: String, for ref: Int) {
    guard ref >= 0, ref < capacity else { return }
    let slots = self.slots ?? Self.zeroedSlots(capacity)
    self.slots = slots
    guard slots[ref] == 0 else { return }
    var names = self.names ?? UnsafeMutablePointer<String>.allocate(capacity: nameCapacity)
    if nameCount == nameCapacity {
      // At most one name per cached object number, so this stays below `capacity` entries.
      let larger = UnsafeMutablePointer<String>.allocate(capacity: nameCapacity * 2)
      larger.moveInitialize(from: names, count: nameCount)
      names.deallocate()
      names = larger
      nameCapacity *= 2
    }
    self.names = names
    (names + nameCount).initialize(to: name)
    nameCount += 1
    slots[ref] = UInt32(nameCount)
  }

  private static func zeroedSlots(_ count: Int) -> UnsafeMutablePointer<UInt32> {
    let slots = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
    slots.initialize(repeating: 0, count: count)
    return slots
  }
}
