// Wide column and file names: unique, safe, and traceable to the ids.
import RKModel
import RKTable
import XCTest

@testable import RKTidy

final class WideNamingTests: XCTestCase {
  func testNaming_ItemInTwoSteps_QualifiedByStep() throws {
    let pivot = WidePivot()
    let steps = [
      StepRecord(identifier: "s1", results: [result("age", .text, .text("1"))]),
      StepRecord(identifier: "s2", results: [result("age", .text, .text("2"))]),
      StepRecord(identifier: "s3", results: [result("sex", .text, .text("3"))]),
    ]
    _ = pivot.add(TaskRun(taskIdentifier: "t", steps: steps))
    let names = try XCTUnwrap(pivot.finalSchema(taskID: "t")).columnNames
    XCTAssertEqual(Array(names.dropFirst(5)), ["s1.age", "s2.age", "sex"])
  }

  func testNaming_ClashWithRunColumnOrOption_Suffixed() throws {
    let pivot = WidePivot()
    _ = pivot.add(
      makeRun([
        result("participant_id", .text, .text("x")),
        result("q", .choice, .choices([.text("a")])),
        result("q.a", .text, .text("y")),
      ]))
    let names = try XCTUnwrap(pivot.finalSchema(taskID: "survey")).columnNames
    XCTAssertEqual(Array(names.dropFirst(5)), ["participant_id_2", "q", "q.a", "q.a_2"])
    XCTAssertEqual(Set(names).count, names.count)
  }

  func testNaming_ControlCharactersAndEmpty_Underscore() {
    XCTAssertEqual(WideNaming.safeName("a\nb\tc\u{7F}d\u{85}"), "a_b_c_d_")
    XCTAssertEqual(WideNaming.safeName(""), "_")
    XCTAssertEqual(WideNaming.safeName("Größe (cm)"), "Größe (cm)")
  }

  func testFileStem_PathCharactersAndLeadingDot_Replaced() {
    XCTAssertEqual(WideNaming.fileStem("../etc/passwd"), "_._etc_passwd")
    XCTAssertEqual(WideNaming.fileStem("a:b*c?d\"e<f>g|h\\i"), "a_b_c_d_e_f_g_h_i")
    XCTAssertEqual(WideNaming.fileStem(String(repeating: "é", count: 100)).utf8.count, 120)
  }

  func testTableName_CaseOnlyDifference_Unique() {
    let pivot = WidePivot()
    _ = pivot.add(TaskRun(taskIdentifier: "survey"))
    _ = pivot.add(TaskRun(taskIdentifier: "Survey"))
    _ = pivot.add(TaskRun(taskIdentifier: "a/b"))
    XCTAssertEqual(pivot.tableName(taskID: "Survey"), "wide/Survey")
    XCTAssertEqual(pivot.tableName(taskID: "survey"), "wide/survey_2")
    XCTAssertEqual(pivot.tableName(taskID: "a/b"), "wide/a_b")
    XCTAssertNil(pivot.tableName(taskID: "missing"))
  }
}
