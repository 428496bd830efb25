// The walk's name order by bytes: the order of String's `<`, checked against `<` itself.
import Foundation
import RKTestSupport
import XCTest

@testable import RKImport

final class ByteOrderTests: XCTestCase {
  /// Names of the shapes a study's folders hold: shared prefixes, digits, punctuation that sorts
  /// around the digits and letters, and prefixes of one another.
  private static func randomName(_ generator: inout SplitMix, alphabet: [String]) -> String {
    let stems = ["batch-", "batch-0", "P0", "task_", "", "a", "A", "z"]
    var name = stems[Int(generator.next() % UInt64(stems.count))]
    for _ in 0..<(generator.next() % 8) {
      name += alphabet[Int(generator.next() % UInt64(alphabet.count))]
    }
    return name
  }

  func testSortedAsStrings_ASCIINames_SameOrderAsStringLessThan() {
    var generator = SplitMix(seed: 7)
    let alphabet = ["0", "1", "9", "a", "b", "Z", "-", "_", ".", " ", "!", "~", "/"]
    for _ in 0..<500 {
      let names = (0..<Int(generator.next() % 60)).map { _ in
        (name: Self.randomName(&generator, alphabet: alphabet), type: 8)
      }
      let sorted = ByteOrder.sortedAsStrings(names) { $0.name }
      XCTAssertEqual(sorted.map(\.name), names.map(\.name).sorted())
    }
    // By hand: "-" (0x2D) before "." before digits before upper case before "_" before lower.
    XCTAssertEqual(
      ByteOrder.sortedAsStrings(["b", "_x", "a", "B", "1", ".x", "-x", "a1", ""]) { $0 },
      ["", "-x", ".x", "1", "B", "_x", "a", "a1", "b"])
  }

  func testSortedAsStrings_NonASCIINames_SameOrderAsStringLessThan() {
    // Canonically equivalent spellings compare equal as Strings, and a decomposed é sorts as
    // U+00E9 (after "z"): byte order would differ, so these take the String comparison.
    var generator = SplitMix(seed: 11)
    let alphabet = ["a", "e", "z", "\u{E9}", "e\u{301}", "\u{FC}", "\u{1F600}", "-", "1"]
    for _ in 0..<300 {
      let names = (0..<Int(generator.next() % 30)).map { _ in
        Self.randomName(&generator, alphabet: alphabet)
      }
      let sorted = ByteOrder.sortedAsStrings(names) { $0 }
      XCTAssertEqual(sorted, names.sorted())
    }
    XCTAssertEqual(
      ByteOrder.sortedAsStrings(["\u{E9}", "f", "e\u{301}x", "e"]) { $0 }.prefix(2), ["e", "f"])
  }

  func testPrecedes_RandomBytes_SameAsLexicographicallyPrecedes() {
    var generator = SplitMix(seed: 3)
    for _ in 0..<5_000 {
      let a = (0..<Int(generator.next() % 12)).map { _ in UInt8(generator.next() % 4) + 0x61 }
      let b = (0..<Int(generator.next() % 12)).map { _ in UInt8(generator.next() % 4) + 0x61 }
      a.withUnsafeBufferPointer { left in
        b.withUnsafeBufferPointer { right in
          XCTAssertEqual(
            ByteOrder.precedes(left, right), a.lexicographicallyPrecedes(b), "\(a) \(b)")
        }
      }
    }
  }
}
