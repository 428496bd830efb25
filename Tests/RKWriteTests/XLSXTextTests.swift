// Text prepared for cells: escapes that readers would decode, and the 32,767 limit.
import XCTest

@testable import RKWrite

final class XLSXTextTests: XCTestCase {
  func testPrepare_PlainText_Unchanged() {
    let (text, cut) = XLSXText.prepare("Ich fühle mich gut 😀")
    XCTAssertEqual(text, "Ich fühle mich gut 😀")
    XCTAssertNil(cut)
  }

  func testPrepare_UnderscoreX_Escaped() {
    XCTAssertEqual(XLSXText.prepare("a_x0041_b_Xy").0, "a_x005F_x0041_b_x005F_Xy")
    XCTAssertEqual(XLSXText.prepare("snake_case").0, "snake_case")
  }

  func testPrepare_NUL_Escaped() {
    XCTAssertEqual(XLSXText.prepare("a\u{0}b").0, "a_x0000_b")
  }

  func testPrepare_AtLimit_NotCut() {
    let (text, cut) = XLSXText.prepare(String(repeating: "é", count: 10), limit: 10)
    XCTAssertEqual(text, String(repeating: "é", count: 10))
    XCTAssertNil(cut)
  }

  func testPrepare_OverLimit_CutWithMarker() {
    // Limit 20: 8 characters kept, then the 12-character marker.
    let (text, cut) = XLSXText.prepare(String(repeating: "b", count: 21), limit: 20)
    XCTAssertEqual(text, "bbbbbbbb…[truncated]")
    XCTAssertEqual(cut, 21)
  }

  func testPrepare_CutNearSurrogatePair_PairKeptWhole() {
    // 😀 is 2 UTF-16 units: 7 + 7 × 2 = 21 > 20, so cut; 7 "a" + 😀 would be 9 > 8 kept units.
    let (text, cut) = XLSXText.prepare(
      String(repeating: "a", count: 7) + String(repeating: "😀", count: 7), limit: 20)
    XCTAssertEqual(text, "aaaaaaa…[truncated]")
    XCTAssertEqual(cut, 21)
  }

  func testPrepare_CutNearEscape_EscapeKeptWhole() {
    // "_x" escapes to 8 units (_x005F_ + x): with 5 "a" it would pass the 8 units kept.
    let (text, _) = XLSXText.prepare("aaaaa_x" + String(repeating: "c", count: 20), limit: 20)
    XCTAssertEqual(text, "aaaaa…[truncated]")
  }
}
