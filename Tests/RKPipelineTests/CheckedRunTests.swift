// A run's number in its file, read from its source as the duplicate-UUID index stores it.
import RKTable
import XCTest

@testable import RKPipeline

final class CheckedRunTests: XCTestCase {
  func testRunNumber_SourceForms_NumberOrZero() {
    let cases: [(source: String, file: String, number: Int32)] = [
      ("P1/a.archive", "P1/a.archive", 0),
      ("P1/a.archive#3", "P1/a.archive", 3),
      ("P1/a.archive#007", "P1/a.archive", 7),
      ("P1/a.archive#", "P1/a.archive", 0),
      ("P1/a.archive#x2", "P1/a.archive", 0),
      ("P1/a.archive#2147483647", "P1/a.archive", Int32.max),
      ("P1/a.archive#2147483648", "P1/a.archive", 0),
      ("P1/a.archive#+5", "P1/a.archive", 5),
      ("Zürich/é.json#2", "Zürich/é.json", 2),
      ("e\u{301}/a#4", "e\u{301}/a", 4),
      ("P1\r\n/a#2", "P1\r\n/a", 2),
      ("p1234abcd/a.archive#2", "P1/a.archive", 0),
      ("P00038/batch-001498.archive#12", "P00038/batch-001498.archive", 12),
      ("P00038/batch-001498.archivf#12", "P00038/batch-001498.archive", 12),
      ("P00038/batch\r\n-001498.archive#5", "P00038/batch\r\n-001498.archive", 5),
      ("P00038/batch-0014é98.archive#6", "P00038/batch-0014é98.archive", 6),
    ]
    for (source, file, number) in cases {
      XCTAssertEqual(CheckedRun.runNumber(source: source, file: file), number, source)
      // The Character-based reading the byte path stands in for.
      let reference = source == file ? 0 : Int32(source.dropFirst(file.count + 1)) ?? 0
      XCTAssertEqual(number, reference, source)
    }
  }

  /// The word-at-a-time check against a byte loop, on random bytes of every length to 40 with
  /// a CR or a byte of 0x80 or more at each place.
  func testASCIIWithoutCarriageReturn_SameAsAByteLoop() {
    var random = SystemRandomNumberGenerator()
    for length in 0...40 {
      for trial in 0..<(3 * length + 3) {
        var bytes = (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
        if trial > 0 && length > 0 {
          bytes[Int.random(in: 0..<length, using: &random)] =
            [0x0D, 0x80, 0xFF, 0x0A, 0x0C, 0x0E, 0x8D][trial % 7]
        }
        let expected = bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
        XCTAssertEqual(
          bytes.withUnsafeBufferPointer(ByteWord.isASCIIWithoutCarriageReturn), expected,
          "\(bytes)")
      }
    }
  }
}
