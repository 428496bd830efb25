// What resolving an archive object found, kept per UID: decoders reach the same object
// several times (a question's answer is probed for "no answer", presence, then read).

/// Per archive UID (the first `maximumCapacity`): the object's header, class record index and
/// key set, once `KeyedArchive.value(uid:depth:)` has resolved it without error. Plain
/// storage, not thread-safe, like the archive that owns it.
final class ObjectMemo {
  /// UIDs remembered at most (about 80 bytes each).
  static let maximumCapacity = 1 << 16

  struct Entry {
    var header: PlistObjectHeader
    var classIndex: Int
    var keys: FieldKeySet
  }

  private let capacity: Int
  private let filled: UnsafeMutablePointer<Bool>
  private let entries: UnsafeMutablePointer<Entry>

  init(objectCount: Int) {
    capacity = max(1, min(objectCount, Self.maximumCapacity))
    filled = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
    filled.initialize(repeating: false, count: capacity)
    entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
  }

  deinit {
    for index in 0..<capacity where filled[index] { (entries + index).deinitialize(count: 1) }
    entries.deallocate()
    filled.deallocate()
  }

  /// The entry of `uid` (≥ 0), if remembered.
  @inline(__always)
  func entry(_ uid: Int) -> Entry? {
    guard uid < capacity, filled[uid] else { return nil }
    return entries[uid]
  }

  func remember(_ entry: Entry, for uid: Int) {
    guard uid < capacity, !filled[uid] else { return }
    (entries + uid).initialize(to: entry)
    filled[uid] = true
  }
}
