// Cells encoded for the workbook thread: the same text, kinds and widths as writing them directly.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class XLSXRowsTests: XCTestCase {
  /// The NUL-terminated strings of a batch, in entry order.
  private func strings(_ rows: XLSXRows) -> [String] {
    rows.entries.filter { $0.kind == .text }.map { entry in
      let start = Int(entry.value)
      let end = rows.text[start...].firstIndex(of: 0) ?? rows.text.count
      return String(decoding: rows.text[start..<end], as: UTF8.self)
    }
  }

  func testText_EscapesAtEveryWordOffset_SameAsPrepare() {
    var samples = ["", "a", "plain ascii", "snake_case", "_x", "_X", "a\u{0}b", "é", "😀 ok"]
    // Put each escape look-alike across the 8-byte word boundaries of the fast scan.
    for offset in 0..<17 {
      let pad = String(repeating: "p", count: offset)
      samples += [pad + "_x0041_", pad + "_X", pad + "\u{0}", pad + "_", pad + "x_", pad + "\r"]
    }
    for sample in samples {
      let rows = XLSXRows(encoding: [[.text(sample)]], timeZone: .utc)
      let expected = sample.isEmpty ? [] : [XLSXText.prepare(sample).0]
      XCTAssertEqual(strings(rows), expected, sample.debugDescription)
    }
  }

  func testText_OverCellLimit_CutAndRecorded() {
    let long = String(repeating: "a", count: XLSXText.maxCellCharacters + 5)
    let rows = XLSXRows(encoding: [[.text("ok"), .text(long)]], timeZone: .utc)
    XCTAssertEqual(strings(rows), ["ok", XLSXText.prepare(long).0])
    XCTAssertEqual(rows.entries.map(\.truncated), [false, true])
    XCTAssertEqual(rows.truncations, [XLSXText.maxCellCharacters + 5])
    XCTAssertEqual(rows.truncationsBefore(entry: 1), 0)
    XCTAssertEqual(rows.truncationsBefore(entry: 2), 1)
  }

  func testKinds_NumbersDatesAndFallbacks() throws {
    let row: [Cell] = [
      .empty, .number(text: "3.25", value: 3.25), .integer(42), .bool(true),
      .instant(millisecondsSince1970: 0), .seconds(1.23449), .integer(1_000_000_000_000_000),
      .number(text: "NaN", value: .nan), .seconds(.infinity),
    ]
    let rows = XLSXRows(encoding: [row], timeZone: .utc)
    XCTAssertEqual(
      rows.entries.map(\.kind),
      [.number, .integer, .boolean, .date, .seconds, .text, .text, .text])
    XCTAssertEqual(rows.entries.map(\.column), [1, 2, 3, 4, 5, 6, 7, 8])
    XCTAssertEqual(rows.entries[3].value, 25_569)
    XCTAssertEqual(rows.entries[4].value, 1.234)
    XCTAssertEqual(strings(rows), ["1000000000000000", "NaN", "inf"])
    XCTAssertEqual(rows.rowEnds, [8])
    XCTAssertEqual(rows.rowWidths, [9])
  }

  func testWidths_AsShownOnScreen() {
    let row: [Cell] = [
      .text("abc"), .text("a\r\nb"), .text("é"), .text(String(repeating: "w", count: 300)),
      .integer(-123), .seconds(12.5), .seconds(.nan), .instant(millisecondsSince1970: 0),
      .bool(false), .number(text: "1e5", value: 1e5),
    ]
    let rows = XLSXRows(encoding: [row], timeZone: .utc)
    XCTAssertEqual(rows.entries.map(\.width), [3, 3, 1, 60, 4, 6, 12, 23, 5, 3])
  }

  func testDecimalLength_MatchesStringForm() {
    for value: Int64 in [0, 9, 10, -1, -10, 999, Int64.max, Int64.min] {
      XCTAssertEqual(XLSXRows.decimalLength(value), String(value).count, "\(value)")
    }
  }

  func testSheet_RowsOfOtherZone_Refused() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("z.xlsx"))
    let sheet = try workbook.addTableSheet(
      name: "s", schema: XLSXFixture.schema("s", [("when", .datetime)]))
    let zurich = try XCTUnwrap(TimeZoneRule(identifier: "Europe/Zurich"))
    let rows = XLSXRows(encoding: [[.instant(millisecondsSince1970: 0)]], timeZone: zurich)
    XCTAssertThrowsError(try sheet.write(rows)) {
      XCTAssertEqual(($0 as? XLSXError)?.code, .parameterValidation)
    }
    try workbook.close()
  }

  func testSheet_BatchOfSeveralSheets_WrittenByRange() throws {
    let scratch = try XLSXScratch()
    let workbook = try XLSXWorkbook(path: scratch.path("r.xlsx"))
    let schema = XLSXFixture.schema("s", [("v", .string)])
    let first = try workbook.addTableSheet(name: "first", schema: schema)
    let second = try workbook.addTableSheet(name: "second", schema: schema)
    let rows = XLSXRows(encoding: [[.text("a")], [.text("b")], [.text("c")]], timeZone: .utc)
    try first.write(rows, rows: 0..<1)
    try second.write(rows, rows: 1..<3)
    XCTAssertThrowsError(try second.write(rows, rows: 2..<4))
    try workbook.close()
    let book = try XLSXScratch.readBack(scratch.path("r.xlsx"))
    XCTAssertEqual(
      try XCTUnwrap(book.sheet("first")).rows.dropFirst().map { $0[0]?.value }, [.text("a")])
    XCTAssertEqual(
      try XCTUnwrap(book.sheet("second")).rows.dropFirst().map { $0[0]?.value },
      [.text("b"), .text("c")])
  }
}

final class XLSXWriterThreadTests: XCTestCase {
  /// Collects values from the writer thread; read only after `finish()`.
  private final class Log: @unchecked Sendable {
    var values: [Int] = []
  }

  private struct Failure: Error, Equatable {}

  func testJobs_RunInOrder_SyncReturnsItsResult() throws {
    let thread = XLSXWriterThread(capacity: 2)
    let log = Log()
    for value in 0..<100 { try thread.submit { log.values.append(value) } }
    XCTAssertEqual(try thread.sync { log.values.count }, 100)
    try thread.finish()
    XCTAssertEqual(log.values, Array(0..<100))
  }

  func testFailingJob_LaterJobsSkipped_ErrorThrownByFinish() throws {
    let thread = XLSXWriterThread()
    let log = Log()
    try thread.submit { throw Failure() }
    try? thread.submit { log.values.append(1) }
    XCTAssertThrowsError(try thread.finish()) { XCTAssertEqual($0 as? Failure, Failure()) }
    XCTAssertEqual(log.values, [])
    XCTAssertThrowsError(try thread.submit {})
  }

  func testSubmit_WaitingJobsOverByteLimit_BlocksUntilOneFinishes() throws {
    // The first job holds 60 of 100 bytes and waits for `release`; a second job of 60 bytes
    // must not be queued until the first has finished.
    let thread = XLSXWriterThread(capacity: 64, byteLimit: 100)
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let log = Log()
    try thread.submit(bytes: 60) {
      started.signal()
      release.wait()
      log.values.append(1)
    }
    started.wait()
    let submitted = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      try? thread.submit(bytes: 60) { log.values.append(2) }
      submitted.signal()
    }
    XCTAssertEqual(submitted.wait(timeout: .now() + 0.3), .timedOut, "queued over the limit")
    release.signal()
    XCTAssertEqual(submitted.wait(timeout: .now() + 10), .success)
    try thread.finish()
    XCTAssertEqual(log.values, [1, 2])
  }

  func testSubmit_OneJobOverByteLimit_StillRuns() throws {
    let thread = XLSXWriterThread(capacity: 4, byteLimit: 10)
    let log = Log()
    // Each submit waits for the queue to drain; a lost wake-up would block it for ever, so the
    // submitting runs on a thread of its own and a deadlock fails the test instead of hanging
    // the suite.
    let done = expectation(description: "five jobs over the byte limit submitted and run")
    let submitter = Thread {
      do {
        for value in 0..<5 { try thread.submit(bytes: 1_000) { log.values.append(value) } }
        try thread.finish()
      } catch {
        XCTFail("\(error)")
      }
      done.fulfill()
    }
    submitter.start()
    wait(for: [done], timeout: 30)
    XCTAssertEqual(log.values, Array(0..<5))
  }

  func testCancel_ThenSubmit_Refused() {
    let thread = XLSXWriterThread()
    thread.cancel()
    XCTAssertThrowsError(try thread.submit {})
    thread.cancel()
  }
}
