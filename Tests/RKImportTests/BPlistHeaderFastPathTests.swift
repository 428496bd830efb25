// The inline header path (counts in the marker) against the full decoder: same header, same
// errors, for every object and for every marker byte an object can have.
import XCTest

@testable import RKImport

final class BPlistHeaderFastPathTests: XCTestCase {
  /// The header or the error text, for comparing the two paths.
  private func describe(
    _ read: (Int) throws(ImportError) -> PlistObjectHeader, _ ref: Int
  ) -> String {
    do {
      let header = try read(ref)
      return
        "\(header.ref) \(header.type) \(header.info) \(header.payloadOffset) \(header.count) "
        + "\(header.isUTF16)"
    } catch {
      return "error \(error.location): \(error.reason)"
    }
  }

  private func assertPathsAgree(
    _ document: BPlistDocument, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    for ref in -1...(document.objectCount + 1) {
      XCTAssertEqual(
        describe(document.header, ref), describe(document.fullHeader, ref),
        "object \(ref)", file: file, line: line)
    }
  }

  private let objects: [PlistObject] = [
    .dictionary(keys: [1, 2], values: [3, 4]), .string("identifier"), .string("café"),
    .array([5, 6, 7, 8]), .uid(3), .integer(7), .integer(-70_000), .real(1.5), .date(42),
    .data([1, 2, 3]), .string(String(repeating: "x", count: 40)), .set([5]), .bool(true), .null,
    .array(Array(repeating: 5, count: 20)),
  ]

  func testHeader_EveryObjectOfEveryType_MatchesFullDecoder() throws {
    let document = try BPlistDocument(bytes: BPlistWriter.write(objects, top: 0))
    assertPathsAgree(document)
  }

  func testHeader_EveryMarkerByte_MatchesFullDecoder() throws {
    let bytes = BPlistWriter.write(objects, top: 0)
    let document = try BPlistDocument(bytes: bytes)
    // Each object's marker replaced by every byte value: counts that run past the object
    // area, invalid markers and long forms go the full decoder's way, with its errors.
    for ref in 0..<document.objectCount {
      guard let start = document.checkedOffset(of: ref) else { continue }
      for marker in 0...255 {
        var mutated = bytes
        mutated[start] = UInt8(marker)
        assertPathsAgree(try BPlistDocument(bytes: mutated))
      }
    }
  }

  func testHeader_ArchiveSample_MatchesFullDecoder() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("samples/study/P004/daily-20160528-1654.archive")
    let document = try BPlistDocument(bytes: Array(try Data(contentsOf: url)))
    assertPathsAgree(document)
  }
}
