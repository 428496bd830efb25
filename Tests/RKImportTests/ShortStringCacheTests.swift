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
    for round in 0..<3 {
      for text in texts {
        XCTAssertEqual(cached(cache, text), decoded(text), "\(text) round \(round)")
        // Fewer than 16 readable bytes: the text is decoded, not read as two words.
        XCTAssertEqual(cached(cache, text, padding: 0), decoded(text), "\(text)")
      }
    }
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
