// Decoded key strings of one archive, so that each key is decoded once, not once per object.

/// Key strings by plist object number. NSKeyedArchiver stores each key string once, so all
/// objects of a class share them; `ArchivedObject.entries()` asks for them again and again.
///
/// Plain pointer storage: no hashing and no exclusivity checks on the hot path. Only the
/// first `capacity` object numbers are cached, so a hostile object count cannot make it large.
final class KeyNameCache {
  /// Object numbers cached at most (16 bytes each).
  static let maximumCapacity = 1 << 16

  private let capacity: Int
  private let storage: UnsafeMutablePointer<String?>

  init(objectCount: Int) {
    capacity = max(0, min(objectCount, Self.maximumCapacity))
    storage = UnsafeMutablePointer<String?>.allocate(capacity: max(capacity, 1))
    storage.initialize(repeating: nil, count: capacity)
  }

  deinit {
    storage.deinitialize(count: capacity)
    storage.deallocate()
  }

  /// The cached key string of plist object `ref`, if any.
  @inline(__always)
  subscript(ref: Int) -> String? {
    get { ref >= 0 && ref < capacity ? storage[ref] : nil }
    set {
      if ref >= 0 && ref < capacity { storage[ref] = newValue }
    }
  }
}
