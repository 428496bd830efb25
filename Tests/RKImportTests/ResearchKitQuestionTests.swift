// ResearchKit question results in built archives: every answer class, both answer layouts.
import RKModel
import XCTest

@testable import RKImport

/// Builds ResearchKit-shaped archives (class chains as ResearchKit writes them, formats.md §3).
final class ResearchKitArchive {
  let builder = ArchiveBuilder()
  let start = 485_124_865.84653

  /// A result of class `className` (superclasses `chain`) with identifier and dates.
  func result(
    _ className: String, chain: [String] = ["ORKQuestionResult", "ORKResult", "NSObject"],
    id: String, userInfo: UInt64 = 0, _ fields: [(String, ArchiveBuilder.Value)]
  ) -> UInt64 {
    let base: [(String, ArchiveBuilder.Value)] = [
      ("identifier", .uid(builder.string(id))), ("startDate", .uid(builder.date(start))),
      ("endDate", .uid(builder.date(start + 2.5))), ("userInfo", .uid(userInfo)),
    ]
    return builder.object(className, classes: [className] + chain, base + fields)
  }

  func step(_ id: String, _ results: [UInt64], _ extra: [(String, ArchiveBuilder.Value)] = [])
    -> UInt64
  {
    result(
      "ORKStepResult", chain: ["ORKCollectionResult", "ORKResult", "NSObject"], id: id,
      [("results", .uid(builder.array(results)))] + extra)
  }

  func task(
    _ id: String, _ steps: [UInt64], userInfo: UInt64 = 0,
    _ extra: [(String, ArchiveBuilder.Value)] = []
  ) -> UInt64 {
    result(
      "ORKTaskResult", chain: ["ORKCollectionResult", "ORKResult", "NSObject"], id: id,
      userInfo: userInfo, [("results", .uid(builder.array(steps)))] + extra)
  }

  func dontKnow() -> UInt64 {
    builder.object(
      "ORKDontKnowAnswer", classes: ["ORKDontKnowAnswer", "ORKNoAnswer", "NSObject"], [])
  }

  /// Imports a task holding one step holding `results`.
  func runs(_ results: [UInt64]) throws -> [TaskRun] {
    let root = task("survey", [step("step1", results)])
    return try KeyedArchiveImporter.importRuns(from: builder.bytes(root: root))
  }

  /// The single result of a one-result archive.
  func only(_ result: UInt64) throws -> ResultRecord {
    let records = try runs([result]).first?.steps.first?.results ?? []
    XCTAssertEqual(records.count, 1)
    return try XCTUnwrap(records.first)
  }
}

final class ResearchKitQuestionTests: XCTestCase {
  func testBoolean_TypedAnswer_True() throws {
    let rk = ResearchKitArchive()
    let record = try rk.only(
      rk.result(
        "ORKBooleanQuestionResult", id: "smoker",
        [
          ("questionType", .int(7)),
          ("typedAnswerOrNoAnswer", .uid(rk.builder.inline(.bool(true)))),
        ]))
    XCTAssertEqual(record.answer, .boolean(true))
    XCTAssertEqual(record.answerType, .boolean)
    XCTAssertEqual(record.questionType, 7)
    XCTAssertEqual(record.identifier, "smoker")
    XCTAssertEqual(record.startDate, Instant(secondsSinceReferenceDate: 485_124_865.84653))
    XCTAssertEqual(record.durationSeconds, 2.5)
  }

  func testBoolean_LegacyKeyNumberTwo_IsTrue() throws {
    let rk = ResearchKitArchive()
    let record = try rk.only(
      rk.result(
        "ORKBooleanQuestionResult", id: "q",
        [("questionType", .int(6)), ("booleanAnswer", .uid(rk.builder.inline(.integer(2))))]))
    XCTAssertEqual(record.answer, .boolean(true))
  }

  func testDontKnow_TypedKey_And_LegacyKey2_1_0() throws {
    let rk = ResearchKitArchive()
    let typed = rk.result(
      "ORKBooleanQuestionResult", id: "a", [("typedAnswerOrNoAnswer", .uid(rk.dontKnow()))])
    let legacy = rk.result(
      "ORKScaleQuestionResult", id: "b", [("scaleAnswer", .uid(rk.dontKnow()))])
    let records = try XCTUnwrap(rk.runs([typed, legacy]).first?.steps.first?.results)
    XCTAssertEqual(records.map(\.answer), [.dontKnow, .dontKnow])
  }

  func testNilTypedAnswer_FallsBackToLegacy_ElseSkipped() throws {
    let rk = ResearchKitArchive()
    let fallback = rk.result(
      "ORKTextQuestionResult", id: "a",
      [("typedAnswerOrNoAnswer", .uid(0)), ("textAnswer", .uid(rk.builder.string(" as typed\n")))])
    let skipped = rk.result("ORKTextQuestionResult", id: "b", [("typedAnswerOrNoAnswer", .uid(0))])
    let records = try XCTUnwrap(rk.runs([fallback, skipped]).first?.steps.first?.results)
    XCTAssertEqual(records.map(\.answer), [.text(" as typed\n"), .skipped])
  }

  func testChoice_MixedValues_InArchiveOrder() throws {
    let rk = ResearchKitArchive()
    let values = rk.builder.array([
      rk.builder.string("b"), rk.builder.inline(.integer(3)), rk.builder.date(10), 0,
    ])
    let record = try rk.only(
      rk.result("ORKChoiceQuestionResult", id: "q", [("choiceAnswers", .uid(values))]))
    XCTAssertEqual(
      record.answer,
      .choices([
        .text("b"), .number(NumberValue(3)), .date(Instant(secondsSinceReferenceDate: 10)), .null,
      ]))
  }

  func testChoice_StringInsteadOfArray_ErrorNamesObjectAndKey() {
    let rk = ResearchKitArchive()
    let result = rk.result(
      "ORKChoiceQuestionResult", id: "q", [("choiceAnswers", .uid(rk.builder.string("secret")))])
    XCTAssertThrowsError(try rk.runs([result])) { error in
      let importError = error as? ImportError
      XCTAssertEqual(
        importError?.location, "object \(result) (ORKChoiceQuestionResult) choiceAnswers")
      XCTAssertEqual(importError?.reason, "expected an array, found a string")
      XCTAssertFalse("\(error)".contains("secret"))
    }
  }

  func testNumeric_DecimalNumberWithUnits_ExactText() throws {
    let rk = ResearchKitArchive()
    // 7250 × 10^-2, low byte first (formats.md §1.4).
    let decimal = rk.builder.object(
      "NSDecimalNumber", classes: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
      [
        ("NS.exponent", .int(-2)), ("NS.length", .int(1)), ("NS.negative", .bool(false)),
        ("NS.compact", .bool(true)), ("NS.mantissa.bo", .int(1)),
        ("NS.mantissa", .data([0x52, 0x1C] + [UInt8](repeating: 0, count: 14))),
      ])
    let record = try rk.only(
      rk.result(
        "ORKNumericQuestionResult", id: "weight",
        [
          ("questionType", .int(5)), ("typedAnswerOrNoAnswer", .uid(decimal)),
          ("unit", .uid(rk.builder.string("kg"))), ("displayUnit", .uid(rk.builder.string("kg"))),
        ]))
    XCTAssertEqual(
      record.answer,
      .numeric(
        NumberValue(text: "72.5", double: 72.5, isInteger: false), unit: "kg", displayUnit: "kg"))
  }

  func testScalarFamilies_ScaleIntervalSESComponents() throws {
    let rk = ResearchKitArchive()
    let b = rk.builder
    let scale = rk.result(
      "ORKScaleQuestionResult", id: "s", [("scaleAnswer", .uid(b.inline(.real(3.5))))])
    let interval = rk.result(
      "ORKTimeIntervalQuestionResult", id: "t", [("intervalAnswer", .uid(b.inline(.integer(90))))])
    let ses = rk.result(
      "ORKSESQuestionResult", id: "r", [("rungPicked", .uid(b.inline(.integer(4))))])
    let components = rk.result(
      "ORKMultipleComponentQuestionResult", id: "m",
      [
        ("componentsAnswer", .uid(b.array([b.string("5"), b.string("ft")]))),
        ("separator", .uid(b.string(" "))),
      ])
    let records = try XCTUnwrap(
      rk.runs([scale, interval, ses, components]).first?.steps.first?.results)
    XCTAssertEqual(
      records.map(\.answer),
      [
        .scale(NumberValue(3.5)), .timeInterval(90), .sesRung(NumberValue(4)),
        .components([.text("5"), .text("ft")], separator: " "),
      ])
    XCTAssertEqual(records.map(\.answerType), [.scale, .timeInterval, .ses, .multipleComponent])
  }

  func testTimeOfDay_DarwinComponents() throws {
    let rk = ResearchKitArchive()
    let components = rk.builder.object(
      "NSDateComponents",
      [("NS.hour", .int(21)), ("NS.minute", .int(5)), ("NS.leapMonth", .int(0))])
    let record = try rk.only(
      rk.result(
        "ORKTimeOfDayQuestionResult", id: "bed", [("dateComponentsAnswer", .uid(components))]))
    XCTAssertEqual(record.answer, .timeOfDay(TimeOfDay(hour: 21, minute: 5)))
  }

  func testDate_ZoneAndCalendarNames_PlainOrStringObjects_SharedByTwoAnswers() throws {
    // Zone and calendar names as NSKeyedArchiver writes them (plain strings, read in place)
    // and as string objects (NSMutableString, read by the general path): the same names. Two
    // answers share one zone and one calendar object, as an archive of one session does.
    let rk = ResearchKitArchive()
    let plainZone = rk.builder.object(
      "NSTimeZone", [("NS.name", .uid(rk.builder.string("America/Los_Angeles")))])
    let plainCalendar = rk.builder.object(
      "NSCalendar", [("NS.identifier", .uid(rk.builder.string("gregorian")))])
    let objectZone = rk.builder.object(
      "NSTimeZone",
      [
        (
          "NS.name",
          .uid(rk.builder.object("NSMutableString", [("NS.string", .string("Asia/Kolkata"))]))
        )
      ])
    let objectCalendar = rk.builder.object(
      "NSCalendar",
      [
        (
          "NS.identifier",
          .uid(rk.builder.object("NSMutableString", [("NS.string", .string("japanese"))]))
        )
      ])
    func dateResult(_ id: String, zone: UInt64, calendar: UInt64) -> UInt64 {
      rk.result(
        "ORKDateQuestionResult", id: id,
        [
          ("dateAnswer", .uid(rk.builder.date(1000))), ("timeZone", .uid(zone)),
          ("calendar", .uid(calendar)),
        ])
    }
    let results = try XCTUnwrap(
      rk.runs([
        dateResult("a", zone: plainZone, calendar: plainCalendar),
        dateResult("b", zone: plainZone, calendar: plainCalendar),
        dateResult("c", zone: objectZone, calendar: objectCalendar),
      ]).first?.steps.first?.results)
    let answers = results.map(\.answer)
    let instant = Instant(secondsSinceReferenceDate: 1000)
    XCTAssertEqual(
      answers,
      [
        .date(
          DateAnswer(
            instant: instant, timeZone: TimeZoneInfo(name: "America/Los_Angeles"),
            calendar: "gregorian")),
        .date(
          DateAnswer(
            instant: instant, timeZone: TimeZoneInfo(name: "America/Los_Angeles"),
            calendar: "gregorian")),
        .date(
          DateAnswer(
            instant: instant, timeZone: TimeZoneInfo(name: "Asia/Kolkata"), calendar: "japanese")),
      ])
  }

  func testOtherFields_KnownKeyTheFamilyDoesNotRead_AndAKeyStoredTwice_Kept() throws {
    // Every key a known one: a key the choice family does not read (`textAnswer`) is still an
    // unknown field of this result. A key stored twice (fewer keys than pairs) is checked pair
    // by pair, and found read.
    let rk = ResearchKitArchive()
    let choices = rk.builder.array([rk.builder.string("x")])
    let record = try rk.only(
      rk.result(
        "ORKChoiceQuestionResult", id: "q",
        [
          ("choiceAnswers", .uid(choices)), ("textAnswer", .uid(rk.builder.string("also"))),
        ]))
    XCTAssertEqual(record.answer, .choices([.text("x")]))
    XCTAssertEqual(record.extra, [Field("textAnswer", .string("also"))])
    let twice = try rk.only(
      rk.result(
        "ORKChoiceQuestionResult", id: "q",
        [("choiceAnswers", .uid(choices)), ("choiceAnswers", .uid(choices))]))
    XCTAssertEqual(twice.answer, .choices([.text("x")]))
    XCTAssertEqual(twice.extra, [])
  }

  func testUnknownSubclass_DecodedAsKnownAncestor_UnknownKeysKept() throws {
    let rk = ResearchKitArchive()
    let record = try rk.only(
      rk.result(
        "SBAChoiceResult",
        chain: ["ORKChoiceQuestionResult", "ORKQuestionResult", "ORKResult", "NSObject"], id: "q",
        [
          ("choiceAnswers", .uid(rk.builder.array([rk.builder.string("x")]))),
          ("questionText", .uid(rk.builder.string("How?"))),
        ]))
    XCTAssertEqual(record.className, "SBAChoiceResult")
    XCTAssertEqual(record.answerType, .choice)
    XCTAssertEqual(record.extra, [Field("questionText", .string("How?"))])
  }
}
