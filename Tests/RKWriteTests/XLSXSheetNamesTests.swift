// Sheet names repaired to Excel's rules and made unique before libxlsxwriter sees them.
import XCTest

@testable import RKWrite

final class XLSXSheetNamesTests: XCTestCase {
  func testClaim_ValidName_Unchanged() {
    var names = XLSXSheetNames()
    XCTAssertEqual(names.claim("answers"), "answers")
  }

  func testClaim_ForbiddenCharacters_ReplacedByUnderscore() {
    var names = XLSXSheetNames()
    XCTAssertEqual(names.claim("wide/a[b]:c*d?e\\f"), "wide_a_b__c_d_e_f")
  }

  func testClaim_LongName_CutTo31() {
    var names = XLSXSheetNames()
    let name = names.claim(String(repeating: "abcdefghij", count: 4))
    XCTAssertEqual(name, "abcdefghijabcdefghijabcdefghija")
    XCTAssertEqual(name.count, 31)
  }

  func testClaim_SameNameOtherCase_GetsTildeSuffix() {
    var names = XLSXSheetNames()
    XCTAssertEqual(names.claim("answers"), "answers")
    XCTAssertEqual(names.claim("ANSWERS"), "ANSWERS ~2")
    XCTAssertEqual(names.claim("Answers"), "Answers ~3")
  }

  func testClaim_LongDuplicate_CutToFitSuffix() {
    var names = XLSXSheetNames()
    let long = String(repeating: "x", count: 40)
    XCTAssertEqual(names.claim(long), String(repeating: "x", count: 31))
    XCTAssertEqual(names.claim(long), String(repeating: "x", count: 28) + " ~2")
  }

  func testClaim_Apostrophes_TrimmedAtEnds() {
    var names = XLSXSheetNames()
    XCTAssertEqual(names.claim("'quoted'"), "quoted")
    XCTAssertEqual(names.claim("it's"), "it's")
  }

  func testClaim_EmptyOrOnlyApostrophes_BecomesSheet() {
    var names = XLSXSheetNames()
    XCTAssertEqual(names.claim(""), "Sheet")
    XCTAssertEqual(names.claim("''"), "Sheet ~2")
  }

  func testClaim_HistoryReservedByExcel_GetsSuffix() {
    var names = XLSXSheetNames()
    XCTAssertEqual(names.claim("history"), "history ~2")
  }

  func testClaimContinuation_LongBase_CutToFitPartNumber() {
    var names = XLSXSheetNames()
    let base = names.claim(String(repeating: "y", count: 31))
    XCTAssertEqual(
      names.claimContinuation(of: base, part: 2), String(repeating: "y", count: 27) + " (2)")
  }

  func testClaim_EmojiName_CutByUTF16Units() {
    var names = XLSXSheetNames()
    // Each 😀 is 2 UTF-16 units: 15 of them (30 units) fit, a 16th would make 32.
    let name = names.claim(String(repeating: "😀", count: 20))
    XCTAssertEqual(name, String(repeating: "😀", count: 15))
  }
}
