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
