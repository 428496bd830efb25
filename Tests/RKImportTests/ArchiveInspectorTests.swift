// `rkexport inspect`: the rendered tree of one archive.
import XCTest

@testable import RKImport

final class ArchiveInspectorTests: XCTestCase {
  func testRender_TaskWithSharedDate_TreeWithNumbersAndISODates() throws {
    let b = ArchiveBuilder()
    let date = b.date(485_124_865.84653)  // object 1, class record 2
    let answer = b.array([b.string("red")])  // string 3, array 4, class record 5
    let result = b.object(
      "ORKChoiceQuestionResult",
      [
        ("identifier", .uid(b.string("color"))), ("startDate", .uid(date)),
        ("endDate", .uid(date)), ("questionType", .int(2)), ("choiceAnswers", .uid(answer)),
      ])
    let text = try ArchiveInspector.render(b.bytes(root: result))
    // 485124865.84653 s after 2001-01-01 = Unix 1463432065.847 = 2016-05-16T20:54:25.847Z.
    XCTAssertEqual(
      text,
      """
      NSKeyedArchiver archive: 9 objects, root object 7
      root: ORKChoiceQuestionResult (object 7)
        identifier: "color"
        startDate: 2016-05-16T20:54:25.847Z (NSDate (object 1))
        endDate: 2016-05-16T20:54:25.847Z (NSDate (object 1))
        questionType: 2
        choiceAnswers: NSArray (object 4), 1 elements
          [0]: "red"

      """)
  }

  func testRender_CycleShownOnce() throws {
    let b = ArchiveBuilder()
    let uid = b.nextUID
    _ = b.object("AppNode", [("next", .uid(uid))])
    let text = try ArchiveInspector.render(b.bytes(root: uid))
    XCTAssertTrue(text.contains("next: AppNode (object 1) (shown above)"), text)
  }

  func testRender_Garbage_ThrowsImportError() {
    XCTAssertThrowsError(try ArchiveInspector.render(Array("bplist00 nope".utf8))) { error in
      XCTAssertTrue(error is ImportError)
    }
  }
}
