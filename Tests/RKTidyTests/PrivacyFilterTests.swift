// PrivacyFilter as the pipeline calls it: options combined, runs and inputs.csv records.
import RKModel
import XCTest

@testable import RKTidy

final class PrivacyFilterTests: XCTestCase {
  private let key = Array("0123456789abcdef".utf8)
  /// "p" + hmac.new(b"0123456789abcdef", b"P001", hashlib.sha256).hexdigest()[:16] (Python).
  private let p001 = "pe9d7efd5a1e0a616"

  func testApply_NoOptions_ReturnsRunUnchanged() {
    let run = makeRun([result("q", .text, .text("hello"))])
    XCTAssertFalse(PrivacyOptions().isActive)
    XCTAssertEqual(PrivacyFilter(options: PrivacyOptions()).apply(run), run)
  }

  func testApply_Pseudonymize_ReplacesIDAndSourceKeepsAnswers() throws {
    let options = PrivacyOptions(pseudonymizer: try Pseudonymizer(key: key))
    let run = makeRun([result("q", .text, .text("hello"))])
    let filtered = PrivacyFilter(options: options).apply(run)
    XCTAssertEqual(filtered.participantID, p001)
    XCTAssertEqual(filtered.source, "\(p001)/a.archive")
    XCTAssertEqual(filtered.steps, run.steps)
    XCTAssertEqual(filtered.runUUID, run.runUUID)
  }

  func testApply_PseudonymizeEmptyParticipant_StaysEmpty() throws {
    let options = PrivacyOptions(pseudonymizer: try Pseudonymizer(key: key))
    let run = makeRun([], participant: "", source: "a.archive")
    let filtered = PrivacyFilter(options: options).apply(run)
    XCTAssertEqual(filtered.participantID, "")
    XCTAssertEqual(filtered.source, "a.archive")
  }

  func testApply_BothOptions_PseudonymAndTextDropped() throws {
    let options = PrivacyOptions(pseudonymizer: try Pseudonymizer(key: key), dropFreeText: true)
    let filtered = PrivacyFilter(options: options).apply(
      makeRun([result("q", .text, .text("hello")), result("n", .scale, .scale(NumberValue(3)))]))
    XCTAssertEqual(filtered.participantID, p001)
    XCTAssertEqual(
      filtered.steps.map { $0.results[0].answer }, [.text(""), .scale(NumberValue(3))])
  }

  func testApply_InputRecord_PathAndErrorPseudonymized() throws {
    let options = PrivacyOptions(pseudonymizer: try Pseudonymizer(key: key))
    let record = InputRecord(
      path: "P001/bad.archive", format: "keyed-archive", status: .failed,
      error: "P001/bad.archive: root: missing key \"identifier\"")
    let filtered = PrivacyFilter(options: options).apply(record, participantID: "P001")
    XCTAssertEqual(filtered.path, "\(p001)/bad.archive")
    XCTAssertEqual(filtered.error, "\(p001)/bad.archive: root: missing key \"identifier\"")
    XCTAssertEqual(filtered.status, .failed)
  }

  func testApply_InputRecordWithoutPseudonymizer_IsUnchanged() {
    let record = InputRecord(path: "P001/a.archive", format: "keyed-archive", status: .ok)
    let filter = PrivacyFilter(options: PrivacyOptions(dropFreeText: true))
    XCTAssertEqual(filter.apply(record, participantID: "P001"), record)
  }

  func testNotes_BothOptions_ListOneSentenceEach() throws {
    let options = PrivacyOptions(pseudonymizer: try Pseudonymizer(key: key), dropFreeText: true)
    XCTAssertEqual(options.notes, [PrivacyOptions.pseudonymNote, PrivacyOptions.freeTextNote])
    XCTAssertEqual(PrivacyOptions(dropFreeText: true).notes, [PrivacyOptions.freeTextNote])
    XCTAssertEqual(PrivacyOptions().notes, [])
  }
}
