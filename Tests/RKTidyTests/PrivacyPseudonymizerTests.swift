// Pseudonyms: keyed HMAC-SHA256 values checked with Python's hmac module, key file rules.
import RKModel
import RKTestSupport
import XCTest

@testable import RKTidy

final class PrivacyPseudonymizerTests: XCTestCase {
  private let key = Array("0123456789abcdef".utf8)

  // Expected values: "p" + hmac.new(key, id, hashlib.sha256).hexdigest()[:16] in Python 3.11.

  func testPseudonym_KnownKeyAndID_MatchesPythonHMAC() throws {
    let pseudonymizer = try Pseudonymizer(key: key)
    XCTAssertEqual(pseudonymizer.pseudonym(for: "P001"), "pe9d7efd5a1e0a616")
    XCTAssertEqual(pseudonymizer.pseudonym(for: "P002"), "p45c5b6315127c472")
  }

  func testPseudonym_NonASCIIID_HashesUTF8Bytes() throws {
    XCTAssertEqual(try Pseudonymizer(key: key).pseudonym(for: "Zoë"), "p9261a0845cecbbfb")
  }

  func testPseudonym_SameKeyTwoInstances_GiveSamePseudonym() throws {
    let first = try Pseudonymizer(key: key)
    let second = try Pseudonymizer(key: key)
    XCTAssertEqual(first.pseudonym(for: "P001"), second.pseudonym(for: "P001"))
  }

  func testPseudonym_DifferentKey_GivesDifferentPseudonym() throws {
    let other = try Pseudonymizer(key: Array("fedcba9876543210".utf8))
    XCTAssertEqual(other.pseudonym(for: "P001"), "pb9c53d6f3edb5a5a")
    XCTAssertNotEqual(
      other.pseudonym(for: "P001"), try Pseudonymizer(key: key).pseudonym(for: "P001"))
  }

  func testPseudonym_EmptyID_StaysEmpty() throws {
    XCTAssertEqual(try Pseudonymizer(key: key).pseudonym(for: ""), "")
  }

  func testPseudonym_ManyIDs_AreDistinctAndWellFormed() throws {
    let pseudonymizer = try Pseudonymizer(key: key)
    let pseudonyms = (1...2000).map { pseudonymizer.pseudonym(for: "P\($0)") }
    XCTAssertEqual(Set(pseudonyms).count, 2000)
    for pseudonym in pseudonyms {
      XCTAssertEqual(pseudonym.count, 17)
      XCTAssertTrue(pseudonym.hasPrefix("p"))
      XCTAssertTrue(pseudonym.dropFirst().allSatisfy { "0123456789abcdef".contains($0) })
    }
  }

  // MARK: - Key rules

  func testKeyFile_TrailingNewline_IsStripped() throws {
    let fromFile = try Pseudonymizer(keyFileContents: key + [0x0A], path: "study.key")
    XCTAssertEqual(fromFile.pseudonym(for: "P001"), "pe9d7efd5a1e0a616")
  }

  func testKeyFile_TrailingCRLF_IsStripped() throws {
    let fromFile = try Pseudonymizer(keyFileContents: key + [0x0D, 0x0A], path: "study.key")
    XCTAssertEqual(fromFile.pseudonym(for: "P001"), "pe9d7efd5a1e0a616")
  }

  func testKeyFile_TwoTrailingNewlines_OnlyOneIsStripped() throws {
    // Key "0123456789abcdef\n": Python gives p + hmac(key + b"\n", b"P001")[:16].
    let fromFile = try Pseudonymizer(keyFileContents: key + [0x0A, 0x0A], path: "study.key")
    XCTAssertEqual(fromFile.pseudonym(for: "P001"), "p2a2a12570ef44a0e")
  }

  func testKeyFile_FifteenBytesAndNewline_IsRejectedWithClearMessage() {
    XCTAssertThrowsError(
      try Pseudonymizer(keyFileContents: Array("0123456789abcde\n".utf8), path: "keys/study.key")
    ) { error in
      XCTAssertEqual(
        error as? PseudonymKeyError,
        PseudonymKeyError(path: "keys/study.key", reason: .tooShort(byteCount: 15)))
      XCTAssertEqual(
        "\(error)",
        "keys/study.key: pseudonymization key has 15 bytes, at least 16 are needed"
          + " (make one with head -c 32 /dev/urandom > keys/study.key)")
    }
  }

  func testKey_Empty_IsRejected() {
    XCTAssertThrowsError(try Pseudonymizer(key: [])) { error in
      XCTAssertEqual(
        error as? PseudonymKeyError, PseudonymKeyError(path: "", reason: .tooShort(byteCount: 0)))
    }
  }

  func testKeyFile_LargerThanLimit_IsRejectedAsWrongFile() {
    let bytes = [UInt8](repeating: 0x41, count: 4097)
    XCTAssertThrowsError(try Pseudonymizer(keyFileContents: bytes, path: "results.zip")) { error in
      XCTAssertEqual(
        "\(error)",
        "results.zip: pseudonymization key file has 4097 bytes, at most 4096 are allowed"
          + " (is this the right file?)")
    }
  }

  func testKeyFile_ExactlyLimit_IsAccepted() {
    XCTAssertNoThrow(
      try Pseudonymizer(keyFileContents: [UInt8](repeating: 0x41, count: 4096), path: "k"))
  }

  // MARK: - Paths

  func testPseudonymizedPath_IDFolder_IsReplaced() throws {
    let pseudonymizer = try Pseudonymizer(key: key)
    XCTAssertEqual(
      pseudonymizer.pseudonymizedPath("P001/survey.archive", participantID: "P001"),
      "pe9d7efd5a1e0a616/survey.archive")
    XCTAssertEqual(
      pseudonymizer.pseudonymizedPath("up.zip!/P001/a-P001.json", participantID: "P001"),
      "up.zip!/pe9d7efd5a1e0a616/a-pe9d7efd5a1e0a616.json")
  }

  func testPseudonymizedPath_EmptyID_LeavesPath() throws {
    XCTAssertEqual(
      try Pseudonymizer(key: key).pseudonymizedPath("survey.archive", participantID: ""),
      "survey.archive")
  }

  /// Paths and ids from a small alphabet (so that ids recur, overlap and touch each other),
  /// with CR, CRLF and non-ASCII among them: the same as the standard library's `replacing`
  /// with the pseudonym, which the ASCII paths no longer call.
  func testPseudonymizedPath_GeneratedPathsAndIDs_SameAsStringReplacing() throws {
    let pseudonymizer = try Pseudonymizer(key: key)
    var random = SplitMix(seed: 33)
    let alphabet = Array("aab/P01.#!\r\ne\u{301}é-").map(String.init)
    func text(_ lengths: ClosedRange<Int>) -> String {
      (0..<Int.random(in: lengths, using: &random)).map { _ in
        alphabet.randomElement(using: &random)!
      }.joined()
    }
    var replacedCount = 0
    for round in 0..<20_000 {
      let id = text(1...3)
      let path = text(0...24)
      let expected =
        path.contains(id) ? path.replacing(id, with: pseudonymizer.pseudonym(for: id)) : path
      let got = pseudonymizer.pseudonymizedPath(path, participantID: id)
      XCTAssertEqual(
        got, expected, "round \(round): \(path.debugDescription), id \(id.debugDescription)")
      if got != path { replacedCount += 1 }
    }
    XCTAssertGreaterThan(replacedCount, 3_000)
  }

  /// More ids than the pseudonyms remembered, asked in turns: each keeps its own pseudonym
  /// (the one computed by a fresh instance), canonically equivalent ids (`é` composed or not)
  /// too.
  func testPseudonym_ManyIDsInTurns_EachItsOwn() throws {
    let pseudonymizer = try Pseudonymizer(key: key)
    let ids = (0..<20).map { "P\($0)" } + ["Jos\u{E9}", "Jose\u{301}"]
    let expected = try ids.map { try Pseudonymizer(key: key).pseudonym(for: $0) }
    XCTAssertEqual(Set(expected).count, ids.count)
    for round in 0..<5 {
      for (index, id) in ids.enumerated() where (index + round) % 3 != 0 {
        XCTAssertEqual(pseudonymizer.pseudonym(for: id), expected[index], id)
      }
    }
  }
}
