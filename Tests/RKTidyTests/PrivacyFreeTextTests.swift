// --drop-free-text on every answer kind: typed text blanked in place, everything else kept.
import RKModel
import RKTable
import XCTest

@testable import RKTidy

final class PrivacyFreeTextTests: XCTestCase {
  private let filter = PrivacyFilter(options: PrivacyOptions(dropFreeText: true))

  private func dropped(_ record: ResultRecord, definition: TaskDefinition? = nil) -> Answer? {
    filter.apply(makeRun([record]), definition: definition).steps.first?.results.first?.answer
  }

  func testDropFreeText_TextAnswer_BecomesEmptyText() {
    XCTAssertEqual(dropped(result("q", .text, .text("I feel tired, call me"))), .text(""))
  }

  func testDropFreeText_TextAnswer_RowStaysAnsweredWithEmptyValue() {
    let run = filter.apply(makeRun([result("q", .text, .text("my name is Ann"))]))
    let schema = ExportSchemas.answers
    let rows = Flattener().answerRows(run)
    XCTAssertEqual(rows.count, 1)
    XCTAssertEqual(cell(rows[0], "status", in: schema), .text("answered"))
    XCTAssertEqual(cell(rows[0], "value", in: schema), .text(""))
    XCTAssertEqual(cell(rows[0], "answer_type", in: schema), .text("text"))
  }

  func testDropFreeText_SurveyNativeOther_TypedChoiceIsBlanked() {
    var other = result("color", .choice, .choices([.text("my own colour")]))
    other.extra = [Field("other_option", .string("Other"))]
    XCTAssertEqual(dropped(other), .choices([.text("")]))
  }

  func testDropFreeText_TextTypedList_EachValueBlankedIndexKept() {
    let list = result("pets", .text, .choices([.text("Rex"), .text("Tom")]))
    XCTAssertEqual(dropped(list), .choices([.text(""), .text("")]))
  }

  func testDropFreeText_ChoiceWithoutDefinition_IsKept() {
    let choice = result("color", .choice, .choices([.text("red"), .number(NumberValue(2))]))
    XCTAssertEqual(dropped(choice), .choices([.text("red"), .number(NumberValue(2))]))
  }

  func testDropFreeText_ChoiceNotInDefinition_IsBlankedListedKept() {
    let definition = TaskDefinition(
      taskIdentifier: "survey",
      questions: [
        QuestionDefinition(
          stepIdentifier: "color", itemIdentifier: "color",
          options: [ChoiceOption(value: "red"), ChoiceOption(value: "blue")])
      ])
    let choice = result("color", .choice, .choices([.text("red"), .text("teal, like my car")]))
    XCTAssertEqual(dropped(choice, definition: definition), .choices([.text("red"), .text("")]))
  }

  func testDropFreeText_ChoiceOfItemWithoutOptions_IsKept() {
    let definition = TaskDefinition(
      taskIdentifier: "survey",
      questions: [QuestionDefinition(stepIdentifier: "color", itemIdentifier: "color")])
    let choice = result("color", .choice, .choices([.text("red")]))
    XCTAssertEqual(dropped(choice, definition: definition), .choices([.text("red")]))
  }

  func testDropFreeText_Location_TextBlankedCoordinatesKept() {
    let location = LocationAnswer(
      latitude: 47.37, longitude: 8.54, userInput: "my home", address: "Bahnhofstrasse 1",
      addressFields: [
        Field("street", .string("Bahnhofstrasse 1")), Field("city", .string("Zürich")),
      ],
      regionRadius: 70)
    let expected = LocationAnswer(
      latitude: 47.37, longitude: 8.54, userInput: "", address: "",
      addressFields: [Field("street", .string("")), Field("city", .string(""))],
      regionRadius: 70)
    XCTAssertEqual(dropped(result("where", .location, .location(location))), .location(expected))
  }

  func testDropFreeText_LocationWithoutText_StaysWithoutText() {
    let location = LocationAnswer(latitude: 1, longitude: 2)
    XCTAssertEqual(dropped(result("where", .location, .location(location))), .location(location))
  }

  func testDropFreeText_GenericFields_StringsBlankedIdentifiersAndNumbersKept() {
    let signature = KeyedValue.object(
      className: "ORKConsentSignature",
      fields: [
        Field("identifier", .string("participant")), Field("givenName", .string("Ann")),
        Field("familyName", .string("Smith")), Field("requiresName", .bool(true)),
        Field("signatureImage", .data([0x89, 0x50, 0x4E, 0x47])),
      ])
    let fields: [Field] = [
      Field("signature", signature), Field("consented", .bool(true)),
      Field("stepViewIdentifier", .string("consent.review")),
      Field("count", .number(NumberValue(3))),
      Field("notes", .array([.string("call after 5"), .null])), Field("when", .date(t0)),
    ]
    let expectedSignature = KeyedValue.object(
      className: "ORKConsentSignature",
      fields: [
        Field("identifier", .string("participant")), Field("givenName", .string("")),
        Field("familyName", .string("")), Field("requiresName", .bool(true)),
        Field("signatureImage", .data([])),
      ])
    let expected: [Field] = [
      Field("signature", expectedSignature), Field("consented", .bool(true)),
      Field("stepViewIdentifier", .string("consent.review")),
      Field("count", .number(NumberValue(3))),
      Field("notes", .array([.string(""), .null])), Field("when", .date(t0)),
    ]
    XCTAssertEqual(dropped(result("consent", .other, .fields(fields))), .fields(expected))
  }

  func testDropFreeText_NonTextAnswers_AreUnchanged() {
    let answers: [(AnswerType, Answer)] = [
      (.boolean, .boolean(true)), (.scale, .scale(NumberValue(7))),
      (.numeric, .numeric(NumberValue(72.5), unit: "kg", displayUnit: nil)),
      (.date, .date(DateAnswer(instant: t0, timeZone: TimeZoneInfo(name: "Europe/Zurich")))),
      (.timeOfDay, .timeOfDay(TimeOfDay(hour: 7, minute: 30))),
      (.timeInterval, .timeInterval(90)),
      (.multipleComponent, .components([.text("5"), .text("ft")], separator: " ")),
      (.ses, .sesRung(NumberValue(4))),
      (.file, .file(FileAnswer(path: "P001/audio.m4a", contentType: "audio/x-m4a"))),
      (.text, .skipped), (.text, .dontKnow), (.text, .text("")),
    ]
    for (type, answer) in answers {
      XCTAssertEqual(dropped(result("q", type, answer)), answer, "\(answer)")
    }
  }

  func testDropFreeText_Metadata_AreKept() {
    var run = makeRun([result("q", .text, .text("secret"))])
    run.metadata = [Field("appVersion", .string("1.2"))]
    run.steps[0].extra = [Field("enabledAssistiveTechnology", .string("VoiceOver"))]
    let filtered = filter.apply(run)
    XCTAssertEqual(filtered.metadata, run.metadata)
    XCTAssertEqual(filtered.steps[0].extra, run.steps[0].extra)
    XCTAssertEqual(filtered.participantID, "P001")
    XCTAssertEqual(filtered.source, "P001/a.archive")
  }
}
