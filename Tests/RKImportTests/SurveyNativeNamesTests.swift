// NameBasedUUID: a submission's run UUID, from its path and bytes; and the results' class
// names, which are literals for the known question types.
import XCTest

@testable import RKImport

final class SurveyNativeNamesTests: XCTestCase {
  /// Expected texts from a separate Python implementation of the documented hash (two FNV-1a
  /// 64 states over the name, a NUL and the content; version 8, RFC 4122 variant), so the
  /// text formatting is checked against more than this code's own output.
  func testMake_MatchesIndependentImplementation() {
    XCTAssertEqual(
      NameBasedUUID.make(name: "P1/s.json", content: Array(#"{"answers":{}}"#.utf8)),
      "321567FA-9515-8097-B9DF-374DEF04FB52")
    XCTAssertEqual(
      NameBasedUUID.make(name: "", content: []), "AF63BD4C-8601-87DF-A5C9-D53E5111CCDF")
    XCTAssertEqual(
      NameBasedUUID.make(name: "caf\u{E9}/\u{FC}.json", content: (0...255).map { UInt8($0) }),
      "354A5D5D-3116-82A5-84D5-476C17D84877")
  }

  /// Each literal is the name the type's interpolation makes, for every type the reader knows
  /// and for others.
  func testClassName_KnownTypesAsLiterals_SameAsInterpolated() {
    let types = [
      "single_select", "multi_select", "segment_select", "table_select", "year_picker",
      "date_picker", "single_text_field", "single_text_area", "add_text_field",
      "multi_text_field", "dynamic_label_text_field", "slider", "",
    ]
    for type in types {
      XCTAssertEqual(SurveyAnswerTyping.className(type), "surveynative:" + type)
    }
    XCTAssertEqual(SurveyAnswerTyping.className(nil), "surveynative:unknown")
  }
}
