// SurveyNative submissions with and without their definition: every question type's shape,
// show_if deciding not-presented vs skipped, validations flagged, labels for the codebook.
// Fixture: Fixtures/inputs/surveynative (lifestyle.json after SurveyNative's ExampleQuestions).
import RKModel
import XCTest

@testable import RKImport

final class SurveyNativeReaderTests: XCTestCase {
  private let folder = fixturesPath + "/surveynative"

  private func definition() throws -> SurveyDefinition {
    try SurveyDefinitionReader.read(path: folder + "/lifestyle.json")
  }

  private func run(_ file: String, withDefinition: Bool = true) throws -> (TaskRun, [String]) {
    let bytes = try readFile(folder + "/" + file, limit: 1 << 20)
    let rules = withDefinition ? try definition().rules : nil
    let (run, notes) = try SurveyNativeReader.read(
      JSONParser().parse(bytes), bytes: bytes, source: file, definition: rules)
    return (run, notes)
  }

  private func results(_ run: TaskRun) -> [String: ResultRecord] {
    Dictionary(
      run.steps.flatMap(\.results).map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
  }

  func testDefinition_Labels_OneItemPerAnswerColumn() throws {
    let labels = try definition().definition
    XCTAssertEqual(labels.taskIdentifier, "lifestyle")
    XCTAssertEqual(
      labels.questions.map(\.itemIdentifier),
      [
        "ice_cream", "birthyear", "sports", "which_sports", "age", "like_music", "music_types",
        "concerts", "height.Feet", "height.Inches", "height.Centimeters", "happiness",
        "weekend.read_books", "weekend.watch_tv", "book_first", "best_day", "pets.Dogs",
        "pets.Cats", "perfect_day",
      ])
    let sub = labels.questions[3]
    XCTAssertEqual(sub.stepIdentifier, "sports")
    XCTAssertEqual(sub.text, "Which sports do you like to play?")
    XCTAssertEqual(
      labels.questions[0].options.map(\.value), ["Strawberry", "Chocolate", "Vanilla"])
    XCTAssertEqual(labels.questions[12].text, "On the weekends, do you: Read books?")
    XCTAssertEqual(labels.questions[11].options.map(\.value), ["1", "2", "3", "4", "5"])
  }

  func testRead_EveryQuestionType_TypedAnswers() throws {
    let (run, _) = try run("P001/submission-2017-03-01.json")
    XCTAssertEqual(run.taskIdentifier, "lifestyle")
    XCTAssertNil(run.startDate)
    let byID = results(run)
    XCTAssertEqual(byID["ice_cream"]?.answer, .choices([.text("Pistachio")]))
    XCTAssertEqual(byID["ice_cream"]?.extra, [Field("other_option", .string("Other"))])
    XCTAssertEqual(
      byID["birthyear"]?.answer, .numeric(NumberValue(1990), unit: nil, displayUnit: nil))
    XCTAssertEqual(byID["which_sports"]?.answer, .choices([.text("Tennis"), .text("Rowing")]))
    XCTAssertEqual(byID["which_sports"]?.answerType, .text)
    XCTAssertEqual(byID["age"]?.answer, .text("7"))
    XCTAssertEqual(byID["music_types"]?.answer, .choices([.text("Rock"), .text("Jazz fusion")]))
    XCTAssertEqual(byID["height.Centimeters"]?.answer, .text("172"))
    XCTAssertEqual(byID["happiness"]?.answer, .choices([.text("4")]))
    XCTAssertEqual(byID["weekend.read_books"]?.answer, .choices([.text("Sometimes")]))
    XCTAssertEqual(byID["weekend.watch_tv"]?.answerType, .choice)
    XCTAssertEqual(
      byID["best_day"]?.answer,
      .date(
        DateAnswer(
          instant: Instant(secondsSince1970: 1_467_590_400),
          timeZone: TimeZoneInfo(secondsFromGMT: 0), isDateOnly: true)))
    XCTAssertEqual(byID["pets.Dogs"]?.answer, .text("1"))
    XCTAssertEqual(byID["pets.Cats"]?.answer, .skipped)  // "" = skipped
    XCTAssertEqual(byID["perfect_day"]?.answer, .skipped)
    XCTAssertTrue(run.steps.flatMap(\.results).allSatisfy { $0.startDate == nil })
  }

  func testRead_SubQuestion_InParentStep() throws {
    let (run, _) = try run("P001/submission-2017-03-01.json")
    let sports = try XCTUnwrap(run.steps.first { $0.identifier == "sports" })
    XCTAssertEqual(sports.results.map(\.identifier), ["sports", "which_sports"])
  }

  func testRead_ShowIf_HiddenHasNoRowShownUnansweredSkipped() throws {
    let (first, _) = try run("P001/submission-2017-03-01.json")
    // concerts: music_types lacks "Pop" → hidden; book_first: Sometimes and TV → shown.
    XCTAssertEqual(
      first.steps.map(\.identifier),
      [
        "ice_cream", "birthyear", "sports", "age", "like_music", "music_types", "height",
        "happiness", "weekend", "book_first", "best_day", "pets", "perfect_day",
      ])
    let (second, _) = try run("P002/submission-2017-03-02.json")
    XCTAssertEqual(
      second.steps.map(\.identifier),
      [
        "ice_cream", "birthyear", "sports", "age", "like_music", "height", "happiness",
        "weekend", "best_day", "pets", "perfect_day",
      ])
    let byID = results(second)
    XCTAssertNil(byID["which_sports"])  // sports = No hides the sub-question
    XCTAssertEqual(byID["happiness"]?.answer, .skipped)  // always shown, not answered
    XCTAssertEqual(byID["happiness"]?.answerType, .choice)
    XCTAssertEqual(byID["perfect_day"]?.answer, .text("Sleeping in, then a long walk by the sea."))
  }

  func testRead_Validation_FlaggedNeverChanged() throws {
    let (run, notes) = try run("P001/submission-2017-03-01.json")
    let age = try XCTUnwrap(results(run)["age"])
    XCTAssertEqual(age.answer, .text("7"))
    XCTAssertEqual(age.extra, [Field("validation_error", .string("Age must be at least 10"))])
    XCTAssertEqual(
      notes, ["age: answer breaks validation \"greater than 10\" (Age must be at least 10)"])
    let (second, secondNotes) = try self.run("P002/submission-2017-03-02.json")
    XCTAssertEqual(secondNotes, [])
    XCTAssertEqual(results(second)["height.Feet"]?.extra, [])  // 5 > 3 passes
  }

  /// A dict answer's labels are checked against their rules: a failing label is flagged, a
  /// repeated label is checked by its first text (as a search for the first member did), a
  /// label without a rule is left alone, and a non-text value is not checked.
  func testRead_LabelValidation_FlagsFailingLabelsFirstTextOfRepeated() throws {
    let text =
      #"{"answers": {"height": {"Feet": "2", "Inches": "5", "Feet": "9", "#
      + #""Centimeters": 150, "Other": "1"}}}"#
    let bytes = Array(text.utf8)
    let (run, notes) = try SurveyNativeReader.read(
      JSONParser().parse(bytes), bytes: bytes, source: "s.json", definition: try definition().rules)
    let height = run.steps.flatMap(\.results).filter { $0.identifier.hasPrefix("height.") }
    let flagged = [Field("validation_error", .string("Height must be at least 4 feet"))]
    XCTAssertEqual(
      height.map(\.identifier),
      ["height.Feet", "height.Inches", "height.Feet", "height.Centimeters", "height.Other"])
    XCTAssertEqual(height.map(\.extra), [flagged, [], flagged, [], []])
    XCTAssertEqual(notes.filter { $0.hasPrefix("height") }.count, 2, "\(notes)")
  }

  func testRead_WithoutDefinition_ShapeTypedOneStepPerAnswer() throws {
    let (run, notes) = try run("P002/submission-2017-03-02.json", withDefinition: false)
    XCTAssertEqual(run.taskIdentifier, "surveynative")
    XCTAssertEqual(notes, [])
    XCTAssertEqual(run.steps.count, 10)
    let byID = results(run)
    XCTAssertEqual(byID["ice_cream"]?.answer, .text("Chocolate"))
    XCTAssertEqual(byID["height.Feet"]?.answer, .text("5"))
    XCTAssertEqual(byID["height.Inches"]?.answer, .text("11"))
    XCTAssertEqual(run.steps.first { $0.identifier == "height" }?.results.count, 2)
  }

  func testRead_EmptyValues_OneSkippedRow() throws {
    let text = #"{"answers":{"a":[],"b":{},"c":""}}"#
    let (run, _) = try SurveyNativeReader.read(
      JSONParser().parse(text), bytes: Array(text.utf8), source: "x.json", definition: nil)
    XCTAssertEqual(run.steps.map { $0.results.map(\.identifier) }, [["a"], ["b"], ["c"]])
    XCTAssertTrue(run.steps.allSatisfy { $0.results[0].answer == .skipped })
  }

  func testRunUUID_DeterministicAndDistinct() throws {
    let (a1, _) = try run("P001/submission-2017-03-01.json")
    let (a2, _) = try run("P001/submission-2017-03-01.json")
    let (b, _) = try run("P002/submission-2017-03-02.json")
    XCTAssertEqual(a1.runUUID, a2.runUUID)
    XCTAssertNotEqual(a1.runUUID, b.runUUID)
    let uuid = try XCTUnwrap(a1.runUUID)
    XCTAssertEqual(uuid.count, 36)
    XCTAssertEqual(Array(uuid)[14], "8")  // version 8 (name-based, custom hash)
    XCTAssertEqual(uuid, uuid.uppercased())
  }

  func testRead_CustomCondition_UnansweredTreatedAsNotPresented() throws {
    let definitionJSON = """
      {"questions":[{"id":"lie","question":"Lie about age?","question_type":"single_select",
        "options":["Yes","No"],"show_if":{"ids":["age"],"operation":"custom"}}],"submit":{}}
      """
    let (_, rules) = try SurveyDefinitionReader.read(Array(definitionJSON.utf8), fileName: "c.json")
    let text = #"{"answers":{"age":"30"}}"#
    let (run, notes) = try SurveyNativeReader.read(
      JSONParser().parse(text), bytes: Array(text.utf8), source: "c1.json", definition: rules)
    XCTAssertEqual(run.steps.map(\.identifier), ["age"])
    XCTAssertEqual(
      notes,
      [
        "lie unanswered and its show_if uses a custom condition: treated as not presented",
        "answers not in the survey definition: age",
      ])
  }
}
