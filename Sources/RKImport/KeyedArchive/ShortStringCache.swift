// The Strings of texts met before on this thread (short ASCII ones, and identifiers of up to 64
// bytes): identifiers repeat from archive to archive, and making a String checks and copies its
// bytes each time.
import Foundation

/// A direct-mapped table of short ASCII texts (at most 15 bytes: Swift keeps such a String in
/// its own 16 bytes, with nothing to allocate or release) and their Strings, one per thread.
///
/// Why: `String(decoding:as:)` costs ~190 instructions a string (an ASCII scan, then the copy),
/// 56 strings an archive, mostly the same step and question identifiers in every archive of a
/// study. A hit costs two loads, a hash and two compares.
///
/// Each text is keyed by its bytes whole (two words, the length in the last byte), so a hit
/// returns exactly the String its bytes made the first time. Texts with a byte of 0x80 or more
/// are not cached: `String(decoding:as:)` repairs those, and a repaired String may no longer fit
/// in 16 bytes.
///
/// Longer texts, up to `longestLong` bytes (identifiers such as `supplement_types` or
/// `headache_severity`), have a second table keyed by a hash of their bytes, each slot holding
/// a copy of its text to compare: a hit returns the String made the first time, shared rather
/// than allocated anew, so that comparisons of the same identifier from two archives find one
/// storage (String's `==` then compares no bytes). Any bytes may go there: a slot matches only
/// the very bytes its String was decoded (or repaired) from.
final class ShortStringCache {
  /// Slots (a power of two): ~1,000 distinct identifiers fit with few collisions; 32 KB.
  static let slotBits = 10
  static let slotCount = 1 << slotBits
  private let keys: UnsafeMutablePointer<(UInt64, UInt64)>
  private let strings: UnsafeMutablePointer<String>

  /// The longer texts' table: 256 slots of `longestLong` bytes each, 16 KB and the Strings.
  static let longSlotBits = 8
  static let longSlotCount = 1 << longSlotBits
  static let longestLong = 64
  private let longTexts: UnsafeMutablePointer<UInt8>
  /// Each slot's hash and length (0: empty).
  private let longKeys: UnsafeMutablePointer<(hash: UInt64, count: Int)>
  private let longStrings: UnsafeMutablePointer<String>

  private init() {
    keys = .allocate(capacity: Self.slotCount)
    // The length byte of an empty slot is 0xFF: no text's key matches it.
    keys.initialize(repeating: (0, 0xFF00_0000_0000_0000), count: Self.slotCount)
    strings = .allocate(capacity: Self.slotCount)
    strings.initialize(repeating: "", count: Self.slotCount)
    longTexts = .allocate(capacity: Self.longSlotCount * Self.longestLong)
    longTexts.initialize(repeating: 0, count: Self.longSlotCount * Self.longestLong)
    longKeys = .allocate(capacity: Self.longSlotCount)
    longKeys.initialize(repeating: (0, 0), count: Self.longSlotCount)
    longStrings = .allocate(capacity: Self.longSlotCount)
    longStrings.initialize(repeating: "", count: Self.longSlotCount)
  }

  deinit {
    keys.deinitialize(count: Self.slotCount)
    keys.deallocate()
    strings.deinitialize(count: Self.slotCount)
    strings.deallocate()
    longTexts.deallocate()
    longKeys.deallocate()
    longStrings.deinitialize(count: Self.longSlotCount)
    longStrings.deallocate()
  }

  /// This thread's cache (made on first use, freed when the thread ends).
  static var current: ShortStringCache { threadSlot.object { ShortStringCache() } }

  /// The String of the `count` bytes at `start`, as `String(decoding:as: UTF8.self)` makes it.
  /// `available` bytes are readable from `start` on: with 16 or more the text is read as two
  /// words.
  @inline(__always)
  func string(_ start: UnsafePointer<UInt8>, count: Int, available: Int) -> String {
    guard count <= 15, available >= 16 else {
      return count > 15 ? longString(start, count: count) : Self.decode(start, count)
    }
    let raw = UnsafeRawPointer(start)
    // The bytes past `count` masked out; the length in the second word's last byte.
    let masks = KeyWords.masks(count: count)
    let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & masks.first
    let second =
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & masks.second
    guard (first | second) & 0x8080_8080_8080_8080 == 0 else { return Self.decode(start, count) }
    let key = (first, second | UInt64(count) &<< 56)
    let hash = ByteHash.hash(words: key.0, key.1)
    // The hash's top bits, as many as number the slots.
    let slot = Int(truncatingIfNeeded: hash &>> UInt64(64 - Self.slotBits))
    if keys[slot] == key { return strings[slot] }
    let string = Self.decode(start, count)
    keys[slot] = key
    strings[slot] = string
    return string
  }

  /// The String of a text of 16 bytes or more, from the longer texts' table when it is at most
  /// `longestLong` bytes. Out of line: it is the rarer path.
  @inline(never)
  private func longString(_ start: UnsafePointer<UInt8>, count: Int) -> String {
    guard count <= Self.longestLong else { return Self.decode(start, count) }
    let hash = ByteHash.hash(start, count: count)
    let slot = Int(truncatingIfNeeded: hash &>> UInt64(64 - Self.longSlotBits))
    let text = longTexts + slot * Self.longestLong
    if longKeys[slot] == (hash, count), memcmp(text, start, count) == 0 {
      return longStrings[slot]
    }
    let string = Self.decode(start, count)
    text.update(from: start, count: count)
    longKeys[slot] = (hash, count)
    longStrings[slot] = string
    return string
  }

  private static func decode(_ start: UnsafePointer<UInt8>, _ count: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  }
}

/// Each thread's `ShortStringCache`.
private let threadSlot = ThreadSlot<ShortStringCache>()
