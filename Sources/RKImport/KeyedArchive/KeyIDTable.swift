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
/// is matched once per archive and every later lookup compares one byte per key.
///
/// Plain zero-filled storage of one-byte codes (no exclusivity checks); only the first
/// `maximumCapacity` object numbers are cached, so a hostile object count cannot make it large.
final class KeyIDTable {
  /// Object numbers cached at most (1 byte each).
  static let maximumCapacity = 1 << 20

  /// Codes of a key that is not a `FieldKey`, of a key that is not a string, and of an entry
  /// not read yet; every other code is a `FieldKey` raw value.
  static let otherCode: UInt8 = 0xFF
  static let notStringCode: UInt8 = 0xFE
  private static let unreadCode: UInt8 = 0xFD
  /// Codes from here on are no `FieldKey`.
  static let firstSpecialCode: UInt8 = 0xFD

  private let capacity: Int
  private let codes: UnsafeMutablePointer<UInt8>
  /// The key `$class` as stored (marker 0x56 and six bytes): the low seven bytes of a
  /// little-endian word.
  static let classKeyWord: UInt64 = 0x0073_7361_6C63_2456

  init(objectCount: Int) {
    capacity = max(0, min(objectCount, Self.maximumCapacity))
    codes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity, 1))
    codes.initialize(repeating: Self.unreadCode, count: max(capacity, 1))
  }

  deinit { codes.deallocate() }

  /// What plist object `ref` is as a key; `ref` is a checked object number.
  func slot(_ ref: Int, in plist: BPlistDocument) -> KeySlot {
    let code = self.code(ref, in: plist)
    switch code {
    case Self.otherCode: return .other
    case Self.notStringCode: return .notString
    default: return FieldKey(rawValue: code).map { .known($0) } ?? .other
    }
  }

  /// The code of plist object `ref` as a key (a `FieldKey` raw value, `otherCode` or
  /// `notStringCode`); `ref` is a checked object number.
  @inline(__always)
  func code(_ ref: Int, in plist: BPlistDocument) -> UInt8 {
    guard ref < capacity else { return Self.code(of: Self.read(ref, in: plist)) }
    let cached = codes[ref]
    if cached != Self.unreadCode { return cached }
    let code = Self.code(of: Self.read(ref, in: plist))
    codes[ref] = code
    return code
  }

  /// `code(_:in:)` for a caller that holds the plist's bytes at `base` (`count` of them):
  /// a short ASCII key, the usual kind, is matched straight from there. Archives that do not
  /// share key strings between objects (each object has its own) read every key this way.
  @inline(__always)
  func code(
    _ ref: Int, at base: UnsafePointer<UInt8>, count: Int, in plist: BPlistDocument,
    matching matcher: FieldKeyMatcher.Table
  ) -> UInt8 {
    if ref < capacity {
      let cached = codes[ref]
      if cached != Self.unreadCode { return cached }
    }
    var code: UInt8
    let tableStart = plist.offsetTableOffset
    let entry = tableStart + ref * plist.offsetSize
    let start = Int(BPlistDocument.readBigEndian(base, at: entry, plist.offsetSize))
    let marker = start >= 8 && start < tableStart ? base[start] : 0
    let length = Int(marker & 0x0F)
    if marker >> 4 == 0x5, length != 0x0F, length < tableStart - start, start + 33 <= count {
      // `$class`, in every object, compared as one word (marker and text) before matching:
      // archives that store each key string anew ask for it once per object.
      let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
      if word & 0x00FF_FFFF_FFFF_FFFF == Self.classKeyWord {
        if ref < capacity { codes[ref] = FieldKey.classMarker.rawValue }
        return FieldKey.classMarker.rawValue
      }
      // The offset table follows the objects, so 32 bytes after the marker are readable.
      let key = FieldKeyMatcher.key(
        loadingFrom: UnsafeRawPointer(base + start + 1), count: length, in: matcher)
      code = key?.rawValue ?? Self.otherCode
    } else {
      code = Self.code(of: Self.read(ref, in: plist))
    }
    if ref < capacity { codes[ref] = code }
    return code
  }

  private static func code(of slot: KeySlot) -> UInt8 {
    switch slot {
    case .known(let key): key.rawValue
    case .notString: notStringCode
    case .other, .unread: otherCode
    }
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
      guard let span = BPlistDocument.byteStringSpan(at: start, in: base, end: end)
      else { return nil }
      let first = span.lowerBound
      let length = span.count
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
