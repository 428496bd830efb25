// Answers read in place: a choice array of strings and numbers without a resolved value per
// element, and the "no answer?" question told from the answer's class record without
// resolving it. The same answers and errors as the general path, which reads every other shape.
import RKModel
import XCTest

@testable import RKImport

final class PlainAnswerTests: XCTestCase {
  /// A choice result holding `answer` under `key`, in a task whose results array is read first
  /// (so the NSArray class record is known when the answer is read).
  private func choiceRecords(
    _ answers: (ResearchKitArchive) -> [UInt64], key: String = "choiceAnswers"
  ) throws -> [ResultRecord] {
    let rk = ResearchKitArchive()
    let results = answers(rk).enumerated().map { index, answer in
      rk.result("ORKChoiceQuestionResult", id: "q\(index)", [(key, .uid(answer))])
    }
    return try rk.runs(results).first?.steps.first?.results ?? []
  }

  func testChoiceArrays_StringsAndNumbers_AsWrittenOutByHand() throws {
    let records = try choiceRecords { rk in
      let b = rk.builder
      return [
        b.array([b.string("a"), b.string("b")]),
        b.array([b.inline(.integer(3))]),
        b.array([b.inline(.real(2.5)), b.string("x")]),
        b.array([]),
        // Not read in place (a date, `$null`, text stored as UTF-16): the general path.
        b.array([b.date(0), b.string("d")]),
        b.array([0, b.string("n")]),
        b.array([b.string("é"), b.inline(.integer(-1))]),
      ]
    }
    XCTAssertEqual(
      records.map(\.answer),
      [
        .choices([.text("a"), .text("b")]),
        .choices([.number(NumberValue(3))]),
        .choices([.number(NumberValue(2.5)), .text("x")]),
        .choices([]),
        .choices([.date(Instant(secondsSinceReferenceDate: 0)), .text("d")]),
        .choices([.null, .text("n")]),
        .choices([.text("é"), .number(NumberValue(-1))]),
      ])
  }

  func testChoiceArray_InPlaceOrResolved_SameValuesAndVisits() throws {
    // One archive read twice: once with the array read in place, once with it resolved first
    // (a remembered object is never read in place).
    let builder = ArchiveBuilder()
    let warmUp = builder.array([])
    let answer = builder.array([builder.string("a"), builder.inline(.integer(7))])
    let result = builder.object(
      "ORKChoiceQuestionResult", [("choiceAnswers", .uid(answer)), ("warmUp", .uid(warmUp))])
    let bytes = builder.bytes(root: result)
    func read(resolvingFirst: Bool) throws -> ([ChoiceValue]?, Bool) {
      let archive = try KeyedArchive(bytes: bytes)
      return try withExtendedLifetime(archive) {
        guard case .object(let object) = try archive.root() else { throw ImportError(reason: "") }
        _ = try object.keyedValue(named: "warmUp")
        if resolvingFirst { _ = try object.value(forKey: .choiceAnswers) }
        let values = try object.choiceValues(.choiceAnswers)
        return (values, archive.objects.entry(Int(answer)) == nil)
      }
    }
    let (inPlace, wasInPlace) = try read(resolvingFirst: false)
    let (resolved, wasResolved) = try read(resolvingFirst: true)
    XCTAssertTrue(wasInPlace)
    XCTAssertFalse(wasResolved)
    XCTAssertEqual(inPlace, [.text("a"), .number(NumberValue(7))])
    XCTAssertEqual(inPlace, resolved)
  }

  func testChoiceArray_ElementNoChoice_SameErrorAsResolved() throws {
    func error(resolvingFirst: Bool) throws -> String {
      let builder = ArchiveBuilder()
      let warmUp = builder.array([])
      let stray = builder.object("ORKStepResult", [])
      let answer = builder.array([builder.string("a"), stray])
      let result = builder.object(
        "ORKChoiceQuestionResult", [("choiceAnswers", .uid(answer)), ("warmUp", .uid(warmUp))])
      let archive = try KeyedArchive(bytes: builder.bytes(root: result))
      return try withExtendedLifetime(archive) {
        guard case .object(let object) = try archive.root() else { throw ImportError(reason: "") }
        _ = try object.keyedValue(named: "warmUp")
        if resolvingFirst { _ = try object.value(forKey: .choiceAnswers) }
        do {
          _ = try object.choiceValues(.choiceAnswers)
          return "no error"
        } catch {
          return "\(error)"
        }
      }
    }
    let inPlace = try error(resolvingFirst: false)
    XCTAssertTrue(inPlace.contains("choiceAnswers"), inPlace)
    XCTAssertTrue(inPlace.contains("choice values"), inPlace)
    XCTAssertEqual(inPlace, try error(resolvingFirst: true))
  }

  func testNoAnswerMarkerWithFields_ClassKnownBeforehand_StillDontKnow() throws {
    // An app's marker with a field of its own is no one-pair dictionary: it is told by its
    // class record, which the first marker's reading made known for the second.
    let rk = ResearchKitArchive()
    func marker() -> UInt64 {
      rk.builder.object(
        "AppDontKnow", classes: ["AppDontKnow", "ORKDontKnowAnswer", "ORKNoAnswer", "NSObject"],
        [("reason", .uid(rk.builder.string("declined")))])
    }
    let typed = rk.result(
      "ORKScaleQuestionResult", id: "a", [("typedAnswerOrNoAnswer", .uid(marker()))])
    let legacy = rk.result("ORKScaleQuestionResult", id: "b", [("scaleAnswer", .uid(marker()))])
    let answered = rk.result(
      "ORKScaleQuestionResult", id: "c", [("scaleAnswer", .uid(rk.builder.inline(.integer(4))))])
    let records = try rk.runs([typed, legacy, answered]).first?.steps.first?.results ?? []
    XCTAssertEqual(records.map(\.answer), [.dontKnow, .dontKnow, .scale(NumberValue(4))])
  }

  func testTypedAndLegacyKeys_DifferentObjects_LegacyStillRead() throws {
    // Both keys present, holding different objects: the typed one is the answer, and the
    // legacy one is still resolved, as before. This one looks like an NSArray (its class
    // record known by then) but its second key is no object: only resolving it finds that.
    let rk = ResearchKitArchive()
    let b = rk.builder
    let typed = b.array([b.string("a")])
    let arrayClass = try XCTUnwrap(b.classUID("NSArray"))
    let noObject = 250  // beyond the plist's objects, within one-byte references
    let broken = b.inline(
      .dictionary(
        keys: [b.add(.string("$class")), noObject],
        values: [b.add(.uid(arrayClass)), b.add(.array([]))]))
    let result = rk.result(
      "ORKChoiceQuestionResult", id: "q",
      [("typedAnswerOrNoAnswer", .uid(typed)), ("choiceAnswers", .uid(broken))])
    XCTAssertLessThan(b.plist.count, 200, "one-byte references, none reaching object 250")
    XCTAssertThrowsError(try rk.runs([result])) { error in
      XCTAssertTrue("\(error)".contains("250"), "\(error)")
    }
  }
}
