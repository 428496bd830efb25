// The duplicate-run check's UUID spool: the same repeats as a dictionary finds, whether its UUIDs
// stay in memory or went to sorted segments on disk (and were merged), and the warnings made
// of them.
import Foundation
import RKModel
import RKTestSupport
import XCTest

@testable import RKPipeline

final class RunUUIDSpoolTests: XCTestCase {
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

  func testUUIDBits_Form_FourWrittenBackFromTheBitsTheRestOther() {
    func form(_ text: String) -> UUIDTextForm? {
      var text = text
      return text.withUTF8 { UUIDBits.parse($0) }?.form
    }
    let forms: [(String, UUIDTextForm)] = [
      ("01234567-89AB-CDEF-FEDC-BA9876543210", .canonical),
      ("01234567-89ab-cdef-fedc-ba9876543210", .lowerHyphenated),
      ("0123456789ABCDEFFEDCBA9876543210", .upperPlain),
      ("0123456789abcdeffedcba9876543210", .lowerPlain),
    ]
    for (text, expected) in forms {
      XCTAssertEqual(form(text), expected, text)
      // Written back from the bits as the input wrote it.
      XCTAssertEqual(UUIDBits(text)?.text(in: expected), text)
    }
    // Digits alone read as upper case.
    XCTAssertEqual(form("01234567-8901-2345-6789-012345678901"), .canonical)
    XCTAssertEqual(form("01234567890123456789012345678901"), .upperPlain)
    // Mixed case, or hyphens elsewhere: other, and no text from the bits.
    XCTAssertEqual(form("01234567-89ab-CDEF-FEDC-BA9876543210"), .other)
    XCTAssertEqual(form("0123456-789AB-CDEF-FEDC-BA9876543210"), .other)
    XCTAssertEqual(form("-0123456789ABCDEF--FEDCBA9876543210-"), .other)
    XCTAssertEqual(form("0123456789ABCDEF-FEDCBA9876543210"), .other)
    XCTAssertNil(UUIDBits(high: 1, low: 2).text(in: .other))
    // Written back as Foundation writes a UUID.
    let bits = UUIDBits(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
    XCTAssertEqual(bits.canonicalText, "01234567-89AB-CDEF-FEDC-BA9876543210")
    let uuid = UUID()
    XCTAssertEqual(UUIDBits(uuid.uuidString)?.canonicalText, uuid.uuidString)
    XCTAssertEqual(UUIDBits(high: 0, low: 0).canonicalText, "00000000-0000-0000-0000-000000000000")
  }

  func testSpoolRecord_KeepsOrderAndFormApart() {
    for form in [UUIDTextForm.canonical, .lowerHyphenated, .upperPlain, .lowerPlain, .other] {
      let record = RunUUIDSpool.Record(
        high: 1, low: 2, order: 1 << 58, form: form, file: 3, number: 4)
      XCTAssertEqual(record.order, 1 << 58)
      XCTAssertEqual(record.form, form)
    }
    // Sorted by arrival whatever the forms.
    let earlier = RunUUIDSpool.Record(high: 1, low: 2, order: 5, form: .other, file: 0, number: 0)
    let later = RunUUIDSpool.Record(
      high: 1, low: 2, order: 6, form: .canonical, file: 0, number: 0)
    XCTAssertTrue(RunUUIDSpool.Record.precedes(earlier, later))
    XCTAssertFalse(RunUUIDSpool.Record.precedes(later, earlier))
  }

  /// Adds `count` UUIDs to `spool`, every fifth a repeat of an earlier one, and returns what a
  /// dictionary says `forEachRepeat` must find: (first order, later order) in UUID order.
  private func addUUIDs(_ count: Int, to spool: RunUUIDSpool) -> [[Int64]] {
    var generator = SplitMix(seed: 42)
    var added: [UUIDBits] = []
    var firstOrder: [UUIDBits: Int64] = [:]
    var repeats: [(UUIDBits, Int64, Int64)] = []
    for number in 0..<count {
      let order = Int64(number)
      var key = UUIDBits(high: generator.next(), low: generator.next())
      if number % 5 == 4 { key = added[Int(generator.next() % UInt64(added.count))] }
      if let first = firstOrder[key] {
        repeats.append((key, first, order))
      } else {
        firstOrder[key] = order
      }
      added.append(key)
      spool.append(key, order: order, DataWarnings.FirstSeen(file: Int32(number), number: 3))
    }
    repeats.sort { ($0.0.high, $0.0.low, $0.2) < ($1.0.high, $1.0.low, $1.2) }
    return repeats.map { [$0.1, $0.2] }
  }

  func testSpool_SpilledAndMergedSegments_FindEveryRepeatWithItsFirst() throws {
    let directory = try makeTemporaryFolder("uuids")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // 100 a segment, merged 3 at a time: 5,000 UUIDs spill 50 times and merge on three levels.
    let spool = RunUUIDSpool(directory: directory, bufferLimit: 100, mergeWidth: 3)
    let expected = addUUIDs(5_000, to: spool)
    XCTAssertEqual(expected.count, 1_000)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
    // 50 segments of level 0 as a ternary counter: 50 = 1·27 + 2·9 + 1·3 + 2·1.
    XCTAssertEqual(spool.segments.map(\.level), [3, 2, 2, 1, 0, 0])
    var found: [[Int64]] = []
    let complete = spool.forEachRepeat { first, later in
      XCTAssertEqual(first.high, later.high)
      XCTAssertEqual(first.low, later.low)
      XCTAssertEqual(
        [first.file, later.file, later.number], [Int32(first.order), Int32(later.order), 3])
      found.append([first.order, later.order])
    }
    XCTAssertTrue(complete)
    XCTAssertEqual(found, expected)
  }

  func testSpool_NoDirectory_KeepsRecordsInMemoryAndFindsTheSame() throws {
    let spool = RunUUIDSpool(directory: nil, bufferLimit: 2)
    let expected = addUUIDs(1_000, to: spool)
    XCTAssertEqual(spool.segments.count, 0)
    var found: [[Int64]] = []
    spool.forEachRepeat { first, later in found.append([first.order, later.order]) }
    XCTAssertEqual(found, expected)
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
    XCTAssertEqual(
      warnings.check(CheckedRun(second, file: "P2/b.archive"), inputNumber: 1).count, 0)
    let events = warnings.duplicates()
    guard case .text(let kind)? = events.first?.fields.first?.1 else {
      return XCTFail("no kind field")
    }
    XCTAssertEqual(kind, "duplicate_task_run")
    XCTAssertEqual(
      events.map(\.message),
      [
        "P2/b.archive: task run 12FBA9B5-8DC1-43E4-BD4A-FE9467BA93F6 was already exported "
          + "from P1/a.archive#2; both are kept"
      ])
  }

  func testWarnings_ManyDuplicates_FirstFiftyByArrivalShownAllCounted() throws {
    // 120 files, each with the run of file 0 (a UUID) and of file 1 (a text that is no UUID),
    // and file 7 writes file 0's UUID in lower case: 238 duplicates, shown in file order.
    let files = (0..<120).map { "P\($0)/a.archive" }
    let directory = try makeTemporaryFolder("warnings")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var warnings = DataWarnings(
      now: Date(), knownUUIDs: [(String, DataWarnings.KnownFile)](), spoolDirectory: directory
    ) { files[$0] }
    let uuid = "12FBA9B5-8DC1-43E4-BD4A-FE9467BA93F6"
    for (number, file) in files.enumerated() {
      for (index, id) in [number == 7 ? uuid.lowercased() : uuid, "not-a-uuid"].enumerated() {
        var run = TaskRun(taskIdentifier: "survey", runUUID: id, source: "\(file)#\(index + 1)")
        run.startDate = Instant(secondsSince1970: 1_600_000_000)
        XCTAssertEqual(warnings.check(CheckedRun(run, file: file), inputNumber: number).count, 0)
      }
    }
    let messages = warnings.duplicates().map(\.message)
    XCTAssertEqual(messages.count, 50)
    let tail = "; both are kept"
    XCTAssertEqual(
      Array(messages.prefix(3)),
      [
        "P1/a.archive#1: task run \(uuid) was already exported from P0/a.archive#1" + tail,
        "P1/a.archive#2: task run not-a-uuid was already exported from P0/a.archive#2" + tail,
        "P2/a.archive#1: task run \(uuid) was already exported from P0/a.archive#1" + tail,
      ])
    XCTAssertEqual(
      messages[12],
      "P7/a.archive#1: task run \(uuid.lowercased()) was already exported from P0/a.archive#1"
        + tail)
    XCTAssertEqual(
      messages.last,
      "P25/a.archive#2: task run not-a-uuid was already exported from P0/a.archive#2" + tail)
    XCTAssertEqual(warnings.found, 238)
    XCTAssertEqual(
      warnings.omitted().map(\.message), ["188 more duplicate_task_run warnings not shown"])
  }

  func testWarnings_UUIDFormsNamedAsWritten_TextKeptOnlyForOtherForms() throws {
    // Each UUID twice, from two files, the second copy in another form: the warning names the
    // second as written, and only the mixed-case one keeps its text in memory.
    let uuid = "12FBA9B5-8DC1-43E4-BD4A-FE9467BA93F6"
    let plain = uuid.filter { $0 != "-" }
    let written = [
      uuid, uuid.lowercased(), plain, plain.lowercased(), "12fba9b5-8DC1-43E4-BD4A-FE9467BA93F6",
    ]
    let files = ["P0/a.archive", "P1/a.archive"]
    let directory = try makeTemporaryFolder("forms")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var warnings = DataWarnings(
      now: Date(), knownUUIDs: [(String, DataWarnings.KnownFile)](), spoolDirectory: directory
    ) { files[$0] }
    for (number, file) in files.enumerated() {
      for (index, text) in written.enumerated() {
        // Each row its own UUID: the last digit is the row's.
        let id = String(text.dropLast()) + "\(index)"
        let run = TaskRun(
          taskIdentifier: "survey", runUUID: number == 0 ? id.uppercased() : id,
          source: "\(file)#\(index + 1)")
        _ = warnings.check(CheckedRun(run, file: file), inputNumber: number)
      }
    }
    XCTAssertEqual(warnings.otherFormTexts.count, 1)
    let messages = warnings.duplicates().map(\.message)
    XCTAssertEqual(
      messages,
      written.enumerated().map { index, text in
        "P1/a.archive#\(index + 1): task run \(text.dropLast())\(index) was already exported "
          + "from P0/a.archive#\(index + 1); both are kept"
      })
  }

  func testSpool_FileCutShortUnderTheRun_ReportsIncomplete() throws {
    let directory = try makeTemporaryFolder("cut")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let spool = RunUUIDSpool(directory: directory, bufferLimit: 100, mergeWidth: 3)
    _ = addUUIDs(1_000, to: spool)
    XCTAssertFalse(spool.segments.isEmpty)
    XCTAssertEqual(try truncateUnlinkedFiles(in: directory), 1)
    XCTAssertFalse(spool.forEachRepeat { _, _ in })
  }

  func testWarnings_SpoolFileCutShort_SaysTheCheckIsIncompleteAndCountsIt() throws {
    let directory = try makeTemporaryFolder("cut-warnings")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var warnings = DataWarnings(
      now: Date(), knownUUIDs: [(String, DataWarnings.KnownFile)](), spoolDirectory: directory
    ) { "P\($0)/a.archive" }
    // More runs than the spool's buffer holds (8,192), so most wait in the file.
    var generator = SplitMix(seed: 7)
    for number in 0..<10_000 {
      let bits = UUIDBits(high: generator.next(), low: generator.next())
      let run = TaskRun(
        taskIdentifier: "survey", runUUID: bits.canonicalText, source: "P\(number)/a.archive")
      _ = warnings.check(CheckedRun(run, file: run.source), inputNumber: number)
    }
    XCTAssertEqual(try truncateUnlinkedFiles(in: directory), 1)
    let events = warnings.duplicates()
    XCTAssertEqual(events.count, 1)
    XCTAssertEqual(events.first?.level, .warning)
    XCTAssertTrue(
      events.first?.message.hasPrefix("the duplicate task run check could not read back") == true)
    guard case .text(let kind)? = events.first?.fields.first?.1 else {
      return XCTFail("no kind field")
    }
    XCTAssertEqual(kind, "duplicate_check_incomplete")
    XCTAssertEqual(warnings.found, 1)
  }

  /// Cuts to nothing every file this process holds open in `directory` that was unlinked there
  /// (found through /proc/self/fd, as the spool keeps no name); returns how many.
  private func truncateUnlinkedFiles(in directory: String) throws -> Int {
    var count = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
      guard
        let target = try? FileManager.default.destinationOfSymbolicLink(
          atPath: "/proc/self/fd/\(name)"),
        target.hasPrefix(directory + "/"), target.hasSuffix(" (deleted)"),
        let descriptor = Int32(name)
      else { continue }
      XCTAssertEqual(ftruncate(descriptor, 0), 0)
      count += 1
    }
    return count
  }
}
