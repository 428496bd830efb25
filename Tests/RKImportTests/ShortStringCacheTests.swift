// The per-thread cache of short texts' Strings: every answer is the String the bytes make, hit or
// miss, whatever the bytes.
import Foundation
import RKTestSupport
import XCTest

@testable import RKImport

final class ShortStringCacheTests: XCTestCase {
  /// What the archive reader made before the cache: the reference every answer is held to.
  private func decoded(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  /// The cache's String for `bytes`, read from a buffer with `padding` bytes after them (the
  /// plist's offset table follows its strings; near the end of a buffer it may not).
  private func cached(_ cache: ShortStringCache, _ bytes: [UInt8], padding: Int = 16) -> String {
    let buffer = bytes + [UInt8](repeating: 0xAB, count: padding)
    return buffer.withUnsafeBufferPointer { all in
      cache.string(all.baseAddress!, count: bytes.count, available: all.count)
    }
  }

  /// Each text's String from the cache, three times over (misses, then hits), is the one its
  /// bytes make; also with no bytes readable after the text (fewer than 16 readable bytes: a
  /// short text is decoded, not read as two words).
  private func assertSameAsDecoding(
    _ texts: [[UInt8]], in cache: ShortStringCache, line: UInt = #line
  ) {
    for round in 0..<3 {
      for text in texts {
        XCTAssertEqual(
          cached(cache, text), decoded(text), "\(text) round \(round)", line: line)
        XCTAssertEqual(cached(cache, text, padding: 0), decoded(text), "\(text)", line: line)
      }
    }
  }

  func testString_EveryLengthAndKindOfByte_SameAsDecodingHitOrMiss() {
    let cache = ShortStringCache.current
    var generator = SplitMix(seed: 25)
    // ASCII identifiers of every length around the 15-byte limit, and texts a String repairs
    // (a lone continuation byte, a cut sequence), which must never come from the table.
    var texts: [[UInt8]] = (0...20).map { Array("question_identifier".utf8.prefix($0)) }
    texts += [[0x80], [0x61, 0xC3], Array("né".utf8), [0xFF, 0x41, 0x42], Array("日本".utf8)]
    for _ in 0..<500 {
      let count = Int(generator.next() % 16)
      texts.append((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next() % 128) })
    }
    assertSameAsDecoding(texts, in: cache)
  }

  func testString_TextsThatDifferInOneByteOrTheirLength_NeverConfused() {
    let cache = ShortStringCache.current
    // Prefixes of one another (the same words but for the length) and one-byte changes, over
    // more texts than the table has slots, so slots are overwritten.
    var texts: [[UInt8]] = []
    for number in 0..<(3 * ShortStringCache.slotCount) {
      let text = Array("q\(number)".utf8)
      texts.append(text)
      texts.append(text + [0])
    }
    for _ in 0..<2 {
      for text in texts { XCTAssertEqual(cached(cache, text), decoded(text)) }
    }
  }

  func testLongString_EveryLengthAndByte_SameAsDecodingHitOrMiss() {
    let cache = ShortStringCache.current
    var generator = SplitMix(seed: 64)
    // Every length across both tables and past the longer one's limit (64), ASCII and with one
    // byte of 0x80 or more at each place: those Strings are repaired, and a slot must give
    // back exactly what its bytes make.
    let base = Array("headache_severity_and_other_symptom_text_identifier_of_a_question_".utf8)
    var texts: [[UInt8]] = (0...base.count).map { Array(base.prefix($0)) }
    for count in [16, 17, 23, 24, 25, 40, 63, 64] {
      for place in 0..<count {
        var text = Array(base.prefix(count))
        text[place] = 0xC3
        texts.append(text)
      }
    }
    for _ in 0..<2_000 {
      let count = 16 + Int(generator.next() % 49)
      texts.append((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next() % 128) })
    }
    assertSameAsDecoding(texts, in: cache)
  }

  func testLongString_OneByteApartOrOverwritten_NeverConfused_HitsShareStorage() {
    let cache = ShortStringCache.current
    // Texts one byte apart at every place, and more texts than the table has slots.
    let base = Array("supplement_types_question_identifier".utf8)
    var texts: [[UInt8]] = []
    for place in base.indices {
      var text = base
      text[place] ^= 0x01
      texts.append(text)
    }
    for number in 0..<(3 * ShortStringCache.longSlotCount) {
      texts.append(Array("question_number_\(number)".utf8))
    }
    for _ in 0..<2 {
      for text in texts { XCTAssertEqual(cached(cache, text), decoded(text)) }
    }
    // A hit is the String the first lookup made: one storage, not a copy.
    let first = cached(cache, base)
    let second = cached(cache, base)
    XCTAssertEqual(first, decoded(base))
    let storage = { (text: String) in
      text.utf8.withContiguousStorageIfAvailable { $0.baseAddress.map(UInt.init(bitPattern:)) }
    }
    XCTAssertNotNil(storage(first) ?? nil)
    XCTAssertEqual(storage(first), storage(second))
  }

  func testCurrent_OnePerThread() throws {
    let here = ObjectIdentifier(ShortStringCache.current)
    XCTAssertEqual(ObjectIdentifier(ShortStringCache.current), here)
    let other = OtherThreadCache()
    let done = expectation(description: "other thread")
    let thread = Thread {
      other.identifier = ObjectIdentifier(ShortStringCache.current)
      done.fulfill()
    }
    thread.start()
    wait(for: [done], timeout: 10)
    XCTAssertNotNil(other.identifier)
    XCTAssertNotEqual(other.identifier, here)
  }
}

/// The other thread's answer (written before the expectation is fulfilled, read after).
private final class OtherThreadCache: @unchecked Sendable {
  var identifier: ObjectIdentifier?
}
