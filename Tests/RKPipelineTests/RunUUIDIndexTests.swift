// The duplicate-run check's UUID index: the same answers as a dictionary, whether its UUIDs
// stay in memory or went to sorted segments on disk (and were merged).
import Foundation
import RKModel
import RKTestSupport
import XCTest

@testable import RKPipeline

final class RunUUIDIndexTests: XCTestCase {
  func testUUIDBits_HexDigitsWithOrWithoutHyphensAnyCase_AreTheBitsElseNil() {
    // The bits written out by hand from the digits.
    let expected = UUIDBits(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
    XCTAssertEqual(UUIDBits("01234567-89ab-cdef-fedc-ba9876543210"), expected)
    XCTAssertEqual(UUIDBits("01234567-89AB-CDEF-FEDC-BA9876543210"), expected)
    XCTAssertEqual(UUIDBits("0123456789abCDEFfedcba9876543210"), expected)
    // Foundation's own parse agrees on a random UUID.
    let uuid = UUID()
    let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
    let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    XCTAssertEqual(UUIDBits(uuid.uuidString), UUIDBits(high: high, low: low))
    // Not 32 hex digits: no bits (the check then keys the text itself).
    XCTAssertNil(UUIDBits(""))
    XCTAssertNil(UUIDBits("01234567-89ab-cdef-fedc-ba987654321"))
    XCTAssertNil(UUIDBits("01234567-89ab-cdef-fedc-ba98765432100"))
    XCTAssertNil(UUIDBits("01234567-89ab-cdef-fedc-ba987654321g"))
    XCTAssertNil(UUIDBits("01234567 89ab cdef fedc ba9876543210"))
    XCTAssertNil(UUIDBits("01234567-89ab-cdef-fedc-ba98765432é0"))
    // The bytes on either side of 0–9, A–F and a–f are no digits.
    for neighbour in ["/", ":", "@", "G", "`", "g"] {
      XCTAssertNil(UUIDBits("01234567-89ab-cdef-fedc-ba987654321" + neighbour), neighbour)
    }
    // Hyphens anywhere, any number of them, are skipped (as the check always did).
    XCTAssertEqual(UUIDBits("-0123456789abcdef--fedcba9876543210-"), expected)
    // A string cut from a longer one (its own storage once made a String) reads the same.
    let sliced = String("x01234567-89ab-cdef-fedc-ba9876543210".dropFirst())
    XCTAssertEqual(UUIDBits(sliced), expected)
  }

  func testIndex_SpilledAndMergedSegments_FindEveryUUIDAndNoOther() throws {
    let directory = try makeTemporaryFolder("uuids")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // 100 a segment and at most 3 segments: 5,000 UUIDs spill 50 times and merge often.
    let index = RunUUIDIndex(directory: directory, pendingLimit: 100, maximumSegments: 3)
    var expected: [UUIDBits: DataWarnings.FirstSeen] = [:]
    var generator = SplitMix(seed: 42)
    for number in 0..<5_000 {
      let key = UUIDBits(high: generator.next(), low: generator.next())
      XCTAssertNil(index.firstSeen(key))
      let seen = DataWarnings.FirstSeen(file: Int32(number), number: Int32(number % 7))
      index.insert(key, seen)
      expected[key] = seen
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
    for (key, seen) in expected {
      let found = try XCTUnwrap(index.firstSeen(key))
      XCTAssertEqual([found.file, found.number], [seen.file, seen.number])
    }
    for _ in 0..<5_000 {
      XCTAssertNil(index.firstSeen(UUIDBits(high: generator.next(), low: generator.next())))
    }
  }

  func testIndex_NoDirectory_KeepsUUIDsInMemory() {
    let index = RunUUIDIndex(directory: nil, pendingLimit: 2)
    let keys = (1...10).map { UUIDBits(high: UInt64($0), low: 0) }
    for (number, key) in keys.enumerated() {
      index.insert(key, DataWarnings.FirstSeen(file: Int32(number), number: 0))
    }
    XCTAssertEqual(keys.map { index.firstSeen($0)?.file }, (0..<10).map { Int32($0) })
  }

  func testWarnings_DuplicateFromAnotherFile_NamesTheFirstSource() {
    let files = ["P1/a.archive", "P2/b.archive"]
    var warnings = DataWarnings(
      now: Date(), knownUUIDs: [(String, DataWarnings.KnownFile)]()
    ) { files[$0] }
    let first = TaskRun(
      taskIdentifier: "survey", runUUID: "12FBA9B5-8DC1-43E4-BD4A-FE9467BA93F6",
      source: "P1/a.archive#2")
    var second = first
    second.source = "P2/b.archive"
    XCTAssertEqual(warnings.check(CheckedRun(first, file: "P1/a.archive"), inputNumber: 0).count, 0)
    let events = warnings.check(CheckedRun(second, file: "P2/b.archive"), inputNumber: 1)
    XCTAssertEqual(
      events.map(\.message),
      [
        "P2/b.archive: task run 12FBA9B5-8DC1-43E4-BD4A-FE9467BA93F6 was already exported "
          + "from P1/a.archive#2; both are kept"
      ])
  }
}
