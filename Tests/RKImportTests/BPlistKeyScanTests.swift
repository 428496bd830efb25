// The raw-byte key scan behind keyed-archive lookups: found, absent, and when it defers.
import XCTest

@testable import RKImport

final class BPlistKeyScanTests: XCTestCase {
  /// A dictionary (object 0) whose keys are `keys` (objects 1…n), each holding null.
  private func dictionary(_ keys: [PlistObject]) throws -> (BPlistDocument, PlistObjectHeader) {
    let keyRefs = Array(1...keys.count)
    let nullRef = keys.count + 1
    let objects =
      [PlistObject.dictionary(keys: keyRefs, values: keyRefs.map { _ in nullRef })] + keys
      + [.null]
    let document = try BPlistDocument(bytes: BPlistWriter.write(objects, top: 0))
    return (document, try document.header(0))
  }

  private func scan(
    _ key: String, in pair: (BPlistDocument, PlistObjectHeader), fromEnd: Bool = false
  ) -> KeyScanResult {
    var key = key
    return key.withUTF8 { pair.0.scanKeys(pair.1, for: $0, fromEnd: fromEnd) }
  }

  func testScanKeys_ShortAndLongKeys_FindTheirIndex() throws {
    let keys = ["identifier", "startDate", "enabledAssistiveTechnology", "$class"]
    let pair = try dictionary(keys.map(PlistObject.string))
    XCTAssertEqual(scan("identifier", in: pair), .found(0))
    XCTAssertEqual(scan("startDate", in: pair), .found(1))
    // 26 bytes: a long string (marker 0x5F and a separate length).
    XCTAssertEqual(scan("enabledAssistiveTechnology", in: pair), .found(2))
    XCTAssertEqual(scan("$class", in: pair, fromEnd: true), .found(3))
  }

  func testScanKeys_SamePrefixOrLength_AreAbsent() throws {
    let pair = try dictionary(["identifier", "startDate", "endDate"].map(PlistObject.string))
    XCTAssertEqual(scan("identifiers", in: pair), .absent)
    XCTAssertEqual(scan("identifieR", in: pair), .absent)  // same length, last byte differs
    XCTAssertEqual(scan("endDat", in: pair), .absent)
    XCTAssertEqual(scan("enabledAssistiveTechnology", in: pair), .absent)
  }

  func testScanKeys_NonASCIIKeyInDictionary_DefersToCheckedPath() throws {
    // "é" makes the writer store UTF-16 (marker 0x6n): the byte scan cannot judge it.
    let pair = try dictionary([.string("café"), .string("identifier")])
    XCTAssertEqual(scan("identifier", in: pair), .undecided)
  }

  func testScanKeys_KeyReferenceOutOfRange_DefersToCheckedPath() throws {
    let objects: [PlistObject] = [.dictionary(keys: [7], values: [1]), .null]
    let document = try BPlistDocument(bytes: BPlistWriter.write(objects, top: 0))
    let header = try document.header(0)
    var key = "identifier"
    XCTAssertEqual(key.withUTF8 { document.scanKeys(header, for: $0) }, .undecided)
  }

  func testKeyWords_PrefixOfSixteenBytes_MatchesOnlyWholeKey() {
    var key = "questionType"
    let bytes = Array("questionTypeXYZW".utf8)
    let other = Array("questionTypo0000".utf8)
    key.withUTF8 { buffer in
      guard let words = KeyWords(buffer) else { return XCTFail("12 bytes fit two words") }
      bytes.withUnsafeBytes { XCTAssertTrue(words.match($0.baseAddress!)) }
      other.withUnsafeBytes { XCTAssertFalse(words.match($0.baseAddress!)) }
    }
  }
}
