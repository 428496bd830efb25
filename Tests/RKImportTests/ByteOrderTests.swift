// The walk's name order by bytes: the order of String's `<`, checked against `<` itself
// (`ByteOrder.precedes`, and the order `FolderListing` lists a folder's names in).
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

  /// The visible names of a folder listing `names`, in the order the walk takes them.
  private static func listed(_ names: [String]) -> [String] {
    let listing = FolderListing(names: names.map { ($0, 8) })
    return listing.visibleInOrder().map(listing.name)
  }

  func testFolderListing_ASCIINames_SameOrderAsStringLessThan() {
    var generator = SplitMix(seed: 7)
    let alphabet = ["0", "1", "9", "a", "b", "Z", "-", "_", ".", " ", "!", "~", "/"]
    for _ in 0..<500 {
      let names = (0..<Int(generator.next() % 60)).map { _ in
        Self.randomName(&generator, alphabet: alphabet)
      }
      // Hidden names (a leading dot) are not listed.
      XCTAssertEqual(Self.listed(names), names.filter { !$0.hasPrefix(".") }.sorted())
    }
    // By hand: "-" (0x2D) before digits before upper case before "_" before lower ("." sorts
    // between "-" and the digits, but a name starting with it is hidden).
    XCTAssertEqual(
      Self.listed(["b", "_x", "a", "B", "1", ".x", "-x", "a1", ""]),
      ["", "-x", "1", "B", "_x", "a", "a1", "b"])
  }

  func testFolderListing_NonASCIINames_SameOrderAsStringLessThan() {
    // Canonically equivalent spellings compare equal as Strings, and a decomposed é sorts as
    // U+00E9 (after "z"): byte order would differ, so these take the String comparison.
    var generator = SplitMix(seed: 11)
    let alphabet = ["a", "e", "z", "\u{E9}", "e\u{301}", "\u{FC}", "\u{1F600}", "-", "1"]
    for _ in 0..<300 {
      let names = (0..<Int(generator.next() % 30)).map { _ in
        Self.randomName(&generator, alphabet: alphabet)
      }
      XCTAssertEqual(Self.listed(names), names.sorted())
    }
    XCTAssertEqual(Self.listed(["\u{E9}", "f", "e\u{301}x", "e"]).prefix(2), ["e", "f"])
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
