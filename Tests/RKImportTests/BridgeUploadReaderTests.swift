// Bridge uploads: AppCore and ResearchUXFactory v1_legacy folders, v2_generic answers.json,
// date formats, and the 2014 prototype. Expected instants computed with Python's datetime.
import RKModel
import XCTest

@testable import RKImport

let fixturesPath =
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/inputs"

final class BridgeUploadReaderTests: XCTestCase {
  func testMentionsJSON_AsFoundationsLowercasedContains() {
    let types = [
      "application/json", "APPLICATION/JSON", "text/Json; charset=utf-8", "application/ld+json",
      "audio/mp4", "image/jpeg", "application/jso", "jsonx", "", "j s o n", "application/JSÖN",
      "application/geo+JSON",
    ]
    for type in types {
      XCTAssertEqual(
        BridgeUploadReader.mentionsJSON(type), type.lowercased().contains("json"), type)
    }
  }

  private func readRun(_ folder: String) throws -> (TaskRun, [String]) {
    let upload = try BridgeUploadReader.read(
      .folder(fixturesPath + "/" + folder, limit: 1 << 20))
    guard case .run(let run, let notes) = upload else {
      XCTFail("expected a run")
      return (TaskRun(taskIdentifier: ""), [])
    }
    return (run, notes)
  }

  func testRead_AppCoreUpload_OneRunInFilesOrder() throws {
    let (run, notes) = try readRun("bridge-appcore-v1")
    XCTAssertEqual(run.taskIdentifier, "Daily Check-In")
    XCTAssertEqual(run.runUUID, "6D0E6D3A-5B1C-4C8E-9F3A-2B7D8E1F0A44")
    XCTAssertNil(run.startDate)
    XCTAssertNil(run.endDate)
    XCTAssertEqual(
      run.metadata,
      [
        Field("appName", .string("Asthma Health")),
        Field("appVersion", .string("version 1.0.3, build 42")),
        Field("phoneInfo", .string("iPhone 6")),
      ])
    XCTAssertEqual(run.steps.map(\.identifier), ["mood", "sleep_hours", "used_inhaler"])
    XCTAssertEqual(notes, ["attachment voice.m4a (audio/mp4) listed, not exported as answers"])
  }

  func testRead_AppCoreAnswers_TypedByQuestionTypeName() throws {
    let (run, _) = try readRun("bridge-appcore-v1")
    let mood = try XCTUnwrap(run.steps.first?.results.first)
    XCTAssertEqual(mood.identifier, "mood")
    XCTAssertEqual(mood.answerType, .choice)
    XCTAssertEqual(mood.answer, .choices([.number(NumberValue(3))]))
    XCTAssertEqual(mood.questionType, 2)
    XCTAssertEqual(mood.startDate, Instant(secondsSince1970: 1_424_882_531))
    XCTAssertEqual(mood.endDate, Instant(secondsSince1970: 1_424_882_535))
    XCTAssertEqual(run.steps[0].startDate, mood.startDate)
    XCTAssertEqual(mood.extra, [Field("userInfo", .dictionary([]))])
    let sleep = run.steps[1].results[0]
    XCTAssertEqual(
      sleep.answer,
      .numeric(
        NumberValue(text: "7.5", double: 7.5, isInteger: false), unit: "hours", displayUnit: nil))
    XCTAssertEqual(run.steps[2].results[0].answer, .boolean(true))
    XCTAssertEqual(run.steps[2].results[0].answerType, .boolean)
  }

  func testRead_ResearchUXFactoryUpload_MetadataTimesAndTypes() throws {
    let (run, notes) = try readRun("bridge-ruxf-v1")
    XCTAssertEqual(run.taskIdentifier, "SleepSurvey")  // metadata.json wins over info item
    XCTAssertEqual(run.runUUID, "0F8E7D6C-5B4A-4938-A7B6-C5D4E3F2A1B0")
    XCTAssertEqual(
      try XCTUnwrap(run.startDate?.secondsSince1970), 1_505_343_532.704, accuracy: 1e-6)
    XCTAssertEqual(try XCTUnwrap(run.endDate?.secondsSince1970), 1_505_343_580.12, accuracy: 1e-6)
    XCTAssertEqual(
      run.metadata.map(\.name),
      [
        "appName", "appVersion", "phoneInfo", "format", "schemaRevision", "scheduledActivityGuid",
        "scheduleIdentifier", "activityLabel", "dataGroups",
      ])
    XCTAssertEqual(run.steps.map(\.identifier), ["wake_time", "last_visit", "triggers", "comment"])
    XCTAssertEqual(notes, [])
    let answers = run.steps.map { $0.results[0].answer }
    XCTAssertEqual(answers[0], .timeOfDay(TimeOfDay(hour: 7, minute: 30, second: 0)))
    XCTAssertEqual(
      answers[1],
      .date(
        DateAnswer(
          instant: Instant(secondsSince1970: 1_504_137_600),
          timeZone: TimeZoneInfo(secondsFromGMT: 0),
          isDateOnly: true)))
    XCTAssertEqual(answers[2], .choices([.text("noise"), .text("light")]))
    XCTAssertEqual(answers[3], .text("Neighbours' dog  barked\nat 3am"))
    let comment = run.steps[3].results[0]
    XCTAssertEqual(
      comment.extra, [Field("userInfo", .dictionary([Field("source", .string("keyboard"))]))])
    // "…40.120Z" is UTC, unlike the step's start in -07:00.
    XCTAssertEqual(
      try XCTUnwrap(comment.endDate?.secondsSince1970), 1_505_318_380.12, accuracy: 1e-6)
  }

  func testRead_GenericAnswersJSON_OneStepPerQuestionNoTimes() throws {
    let (run, _) = try readRun("bridge-v2-generic")
    XCTAssertEqual(run.taskIdentifier, "Weekly Survey")
    XCTAssertEqual(run.runUUID, "7A4B9C2D-1E3F-4A5B-8C6D-9E0F1A2B3C4D")
    XCTAssertEqual(
      run.steps.map(\.identifier),
      ["weight", "smoker", "symptoms", "notes", "sleep_unit", "steps_goal"])
    let results = run.steps.map { $0.results[0] }
    XCTAssertEqual(
      results[0].answer,
      .numeric(
        NumberValue(text: "72.5", double: 72.5, isInteger: false), unit: "kg", displayUnit: nil))
    XCTAssertEqual(results[1].answer, .boolean(false))
    XCTAssertEqual(results[2].answer, .choices([.text("cough"), .text("fever")]))
    XCTAssertEqual(results[3].answer, .text("none"))
    // A `_unit` key without its question is a question of its own.
    XCTAssertEqual(results[4].answer, .text("hours"))
    XCTAssertEqual(results[5].answer, .skipped)
    XCTAssertTrue(run.steps.allSatisfy { $0.startDate == nil && $0.endDate == nil })
    XCTAssertTrue(results.allSatisfy { $0.startDate == nil && $0.endDate == nil })
  }

  func testRead_2014Prototype_NoResultsWithReason() throws {
    let upload = try BridgeUploadReader.read(
      .folder(fixturesPath + "/bridgepf-2014-upload", limit: 1 << 20))
    guard case .noResults(let reason) = upload else { return XCTFail("expected no results") }
    XCTAssertEqual(
      reason,
      "Bridge upload of 2014 prototype format (no ResearchKit answers): info.json has "
        + "taskInstance/study and no appVersion, format or taskRun; data files "
        + "tapTheButton0.json, tapTheButton1.json")
  }

  func testRead_WrongAnswerShape_KeptRawWithNote() throws {
    let files: [String: String] = [
      "info.json":
        #"{"files":[{"filename":"q1.json","contentType":"application/json"}],"item":"T"}"#,
      "q1.json": #"{"item":"q1","questionTypeName":"Boolean","booleanAnswer":"maybe"}"#,
    ]
    let upload = try BridgeUploadReader.read(
      BridgeUploadFiles(names: files.keys.sorted()) { Array(files[$0, default: ""].utf8) })
    guard case .run(let run, let notes) = upload else { return XCTFail("expected a run") }
    let result = run.steps[0].results[0]
    XCTAssertEqual(result.answerType, .other)
    XCTAssertEqual(result.answer, .fields([Field("booleanAnswer", .string("maybe"))]))
    XCTAssertEqual(notes, ["q1.json: booleanAnswer is a string, not a boolean answer; kept raw"])
  }

  func testRead_BadAnswerJSON_ErrorNamesFileAndByte() {
    let files: [String: String] = [
      "info.json":
        #"{"files":[{"filename":"q1.json","contentType":"application/json"}],"item":"T"}"#,
      "q1.json": #"{"item": "q1",}"#,
    ]
    XCTAssertThrowsError(
      try BridgeUploadReader.read(
        BridgeUploadFiles(names: files.keys.sorted()) { Array(files[$0, default: ""].utf8) })
    ) { error in
      XCTAssertEqual(
        (error as? ImportError)?.message, "q1.json byte 14: expected a member name in double quotes"
      )
    }
  }

  func testDateText_AllBridgeForms_Parsed() throws {
    let forms: [(String, Double, Int?)] = [
      ("2015-02-25T16:42:11+00:00", 1_424_882_531, 0),
      ("2017-09-13T15:58:52.704-07:00", 1_505_343_532.704, -25_200),
      ("2015-02-15T19:35:10+0000", 1_424_028_910, 0),
      ("2015-02-15T19:35:10Z", 1_424_028_910, 0),
      ("2017-08-31", 1_504_137_600, nil),
    ]
    for (text, seconds, offset) in forms {
      let parsed = try XCTUnwrap(JSONDateText(text), text)
      XCTAssertEqual(parsed.instant.secondsSince1970, seconds, accuracy: 1e-6, text)
      XCTAssertEqual(parsed.secondsFromGMT, offset, text)
    }
    XCTAssertNil(JSONDateText("2015-02-30"))
    XCTAssertNil(JSONDateText("2015-02-25T16:42"))
    XCTAssertNil(JSONDateText("25/02/2015"))
    XCTAssertEqual(JSONDateText.timeOfDay("07:05"), TimeOfDay(hour: 7, minute: 5))
    XCTAssertNil(JSONDateText.timeOfDay("24:00"))
  }
}
