// SHA-256 and HMAC-SHA256 against the published vectors (FIPS 180-2 appendix B, RFC 4231 §4).
import XCTest

@testable import RKTidy

final class SHA256Tests: XCTestCase {
  // MARK: - SHA-256 (FIPS 180-2 appendix B.1–B.3)

  func testSHA256_ABC_MatchesFIPSVector() {
    XCTAssertEqual(
      hex(SHA256.hash(Array("abc".utf8))),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  func testSHA256_448BitMessage_MatchesFIPSVector() {
    let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    XCTAssertEqual(
      hex(SHA256.hash(Array(message.utf8))),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  func testSHA256_MillionA_MatchesFIPSVector() {
    // Fed in uneven pieces so block carry-over between updates is exercised too.
    var hasher = SHA256()
    let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 999)
    for _ in 0..<1001 { hasher.update(piece) }
    hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000 - 999 * 1001))
    XCTAssertEqual(
      hex(hasher.finalize()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  func testSHA256_EmptyMessage_MatchesKnownDigest() {
    XCTAssertEqual(
      hex(SHA256.hash([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  func testSHA256_PaddingBoundaries_MatchPythonHashlib() {
    // Message i % 251 for i in 0..<n; digests from Python's hashlib.sha256. 55/56 and 119/120
    // bytes decide whether the length fits in the last block.
    let expected: [Int: String] = [
      55: "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59",
      56: "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562",
      63: "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488",
      64: "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108",
      65: "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781",
      119: "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6",
      120: "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c",
    ]
    for (count, digest) in expected {
      let message = (0..<count).map { UInt8($0 % 251) }
      XCTAssertEqual(hex(SHA256.hash(message)), digest, "length \(count)")
      var split = SHA256()
      split.update(Array(message.prefix(count / 3)))
      split.update(Array(message.dropFirst(count / 3)))
      XCTAssertEqual(hex(split.finalize()), digest, "length \(count) in two updates")
    }
  }

  // MARK: - HMAC-SHA256 (RFC 4231 §4.2–4.8)

  func testHMAC_RFC4231Case1_MatchesVector() {
    XCTAssertEqual(
      mac(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
  }

  func testHMAC_RFC4231Case2_MatchesVector() {
    XCTAssertEqual(
      mac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  func testHMAC_RFC4231Case3_MatchesVector() {
    XCTAssertEqual(
      mac(key: [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50)),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
  }

  func testHMAC_RFC4231Case4_MatchesVector() {
    XCTAssertEqual(
      mac(key: Array(1...25), [UInt8](repeating: 0xcd, count: 50)),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
  }

  func testHMAC_RFC4231Case5_TruncatedTo128BitsMatchesVector() {
    let code = HMACSHA256(key: [UInt8](repeating: 0x0c, count: 20))
      .code(for: Array("Test With Truncation".utf8))
    XCTAssertEqual(hex(Array(code.prefix(16))), "a3b6167473100ee06e0c796c2955552b")
  }

  func testHMAC_RFC4231Case6_KeyLongerThanBlockMatchesVector() {
    XCTAssertEqual(
      mac(
        key: [UInt8](repeating: 0xaa, count: 131),
        Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  func testHMAC_RFC4231Case7_LongKeyAndLongDataMatchesVector() {
    let data =
      "This is a test using a larger than block-size key and a larger than block-size data."
      + " The key needs to be hashed before being used by the HMAC algorithm."
    XCTAssertEqual(
      mac(key: [UInt8](repeating: 0xaa, count: 131), Array(data.utf8)),
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
  }

  func testHMAC_SameKeyTwice_GivesSameCodeEachCall() {
    let code = HMACSHA256(key: Array("Jefe".utf8))
    let message = Array("what do ya want for nothing?".utf8)
    XCTAssertEqual(code.code(for: message), code.code(for: message))
  }

  // MARK: - Helpers

  private func mac(key: [UInt8], _ message: [UInt8]) -> String {
    hex(HMACSHA256(key: key).code(for: message))
  }

  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}
