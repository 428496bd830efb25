// Ancestry tests answered from per-class flags (`KnownClass`): app subclasses count as their
// ResearchKit ancestors, look-alike names do not.
import RKModel
import XCTest

@testable import RKImport

final class KnownClassTests: XCTestCase {
  func testBits_FromTheChain_OnePerKnownAncestor() {
    XCTAssertEqual(KnownClass.bits(in: ["ORKStepResult", "ORKResult", "NSObject"]), 2)
    XCTAssertEqual(
      KnownClass.bits(in: ["ORKDontKnowAnswer", "ORKNoAnswer", "NSObject"]),
      KnownClass.noAnswer.bit | KnownClass.dontKnowAnswer.bit)
    XCTAssertEqual(KnownClass.bits(in: ["ORKTaskResultLike", "ORKResult"]), 0)
    XCTAssertEqual(Set(KnownClass.allCases.map(\.bit)).count, KnownClass.allCases.count)
  }

  func testAppStepSubclass_DecodedAsAStep() throws {
    let rk = ResearchKitArchive()
    let answer = rk.result(
      "ORKTextQuestionResult", id: "q", [("textAnswer", .uid(rk.builder.string("hi")))])
    let step = rk.result(
      "SBAStepResult", chain: ["ORKStepResult", "ORKCollectionResult", "ORKResult", "NSObject"],
      id: "s", [("results", .uid(rk.builder.array([answer])))])
    let root = rk.task("t", [step])
    let runs = try KeyedArchiveImporter.importRuns(from: rk.builder.bytes(root: root))
    XCTAssertEqual(runs.first?.steps.map(\.identifier), ["s"])
    XCTAssertEqual(runs.first?.steps.first?.results.map(\.answer), [.text("hi")])
  }

  func testNoAnswerSubclasses_AreDontKnow() throws {
    for chain in [["ORKNoAnswer", "NSObject"], ["AppSkip", "ORKNoAnswer", "NSObject"]] {
      let rk = ResearchKitArchive()
      let marker = rk.builder.object(chain[0], classes: chain, [])
      let record = try rk.only(
        rk.result("ORKBooleanQuestionResult", id: "b", [("typedAnswerOrNoAnswer", .uid(marker))]))
      XCTAssertEqual(record.answer, .dontKnow, "\(chain)")
    }
  }

  func testLookAlikeName_NotATaskResult() throws {
    let rk = ResearchKitArchive()
    let root = rk.result(
      "ORKTaskResultLike", chain: ["ORKResult", "NSObject"], id: "t", [])
    XCTAssertThrowsError(
      try KeyedArchiveImporter.importRuns(from: rk.builder.bytes(root: root))
    ) { error in
      XCTAssertTrue("\(error)".contains("expected an ORKTaskResult"), "\(error)")
    }
  }
}
