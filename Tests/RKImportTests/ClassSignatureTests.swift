// Class signatures: equality by bytes (one block comparison) and the length prefix per string.
import XCTest

@testable import RKImport

final class ClassSignatureTests: XCTestCase {
  private func signature(_ bytes: [UInt8]) -> ClassSignature {
    var signature = ClassSignature()
    signature.bytes = bytes
    return signature
  }

  func testEquality_SameBytes_EqualAndSameHash() {
    XCTAssertEqual(signature([]), signature([]))
    XCTAssertEqual(signature([1, 2, 3]), signature([1, 2, 3]))
    XCTAssertEqual(signature([1, 2, 3]).hashValue, signature([1, 2, 3]).hashValue)
  }

  func testEquality_DifferentLengthOrLastByte_NotEqual() {
    XCTAssertNotEqual(signature([1, 2, 3]), signature([1, 2]))
    XCTAssertNotEqual(signature([1, 2, 3]), signature([1, 2, 4]))
    XCTAssertNotEqual(signature([]), signature([0]))
  }

  func testAppend_String_RoleEncodingLengthThenPayload() throws {
    let objects: [PlistObject] = [.array([1, 2]), .string("NSDate"), .string("café")]
    let document = try BPlistDocument(bytes: BPlistWriter.write(objects, top: 0))
    var ascii = ClassSignature()
    ascii.append(role: 1, string: try document.header(1), in: document)
    XCTAssertEqual(ascii.bytes, [1, 0, 6, 0, 0, 0] + Array("NSDate".utf8))
    var utf16 = ClassSignature()
    utf16.append(role: 2, string: try document.header(2), in: document)
    // UTF-16: four code units, eight bytes, as stored.
    XCTAssertEqual(Array(utf16.bytes.prefix(6)), [2, 1, 8, 0, 0, 0])
    XCTAssertEqual(utf16.bytes.count, 6 + 8)
  }
}
