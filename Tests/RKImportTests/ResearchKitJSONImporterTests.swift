// ORKESerializer JSON through the shared ResearchKit decoders: answers, dates, zones, nesting.
import RKModel
import XCTest

@testable import RKImport

/// The task runs of an ORKESerializer document given as text.
func researchKitJSONRuns(_ text: String) throws -> [TaskRun] {
  try ResearchKitJSONImporter.importRuns(from: JSONParser().parseDocument(Array(text.utf8)))
}

/// The only result of `results` (JSON text of result objects) in a one-step task.
func researchKitJSONResults(_ results: String) throws -> [ResultRecord] {
  let runs = try researchKitJSONRuns(
    #"{"_class":"ORKTaskResult","identifier":"t","results":[{"_class":"ORKStepResult","#
      + #""identifier":"s","results":[\#(results)]}]}"#)
  return runs.first?.steps.first?.results ?? []
}

final class ResearchKitJSONImporterTests: XCTestCase {
  // Instants: Python `datetime.strptime(s, '%Y-%m-%dT%H:%M:%S%z').timestamp() - 978307200`.

  /// A 2017 (ResearchKit 1.4) registration task shaped like formats.md §4.3's real example.
  static let registration = #"""
    {"_class":"ORKTaskResult","identifier":"registration","taskRunUUID":"faffb3bf-0a4e-4c52-9e43-3d2b8e6c1f70",
     "startDate":"2017-03-09T10:15:30-0800","endDate":"2017-03-09T10:17:02-0800","results":[
      {"_class":"ORKStepResult","identifier":"name","startDate":"2017-03-09T10:15:30-0800",
       "endDate":"2017-03-09T10:16:05-0800","results":[
        {"_class":"ORKTextQuestionResult","identifier":"givenName","questionType":7,
         "textAnswer":"Ana María","startDate":"2017-03-09T10:15:30-0800",
         "endDate":"2017-03-09T10:16:05-0800","userInfo":{}}]},
      {"_class":"ORKStepResult","identifier":"about","results":[
        {"_class":"ORKChoiceQuestionResult","identifier":"gender","questionType":2,
         "choiceAnswers":["male"]},
        {"_class":"ORKChoiceQuestionResult","identifier":"handedness","questionType":2,
         "choiceAnswers":[0]},
        {"_class":"ORKDateQuestionResult","identifier":"dob","questionType":10,
         "dateAnswer":"1980-02-29T00:00:00-0800","timeZone":-28800,"calendar":"gregorian"}]}]}
    """#

  func testRegistration2017_LegacyKeys_AnswersAndTimes() throws {
    let runs = try researchKitJSONRuns(Self.registration)
    XCTAssertEqual(runs.count, 1)
    let run = try XCTUnwrap(runs.first)
    XCTAssertEqual(run.taskIdentifier, "registration")
    XCTAssertEqual(run.runUUID, "FAFFB3BF-0A4E-4C52-9E43-3D2B8E6C1F70")
    XCTAssertEqual(run.startDate, Instant(secondsSinceReferenceDate: 510_776_130))
    XCTAssertEqual(run.durationSeconds, 92)
    XCTAssertNil(run.device)
    XCTAssertEqual(run.steps.map(\.identifier), ["name", "about"])
    XCTAssertEqual(run.steps[0].durationSeconds, 35)
    let results = run.steps.flatMap(\.results)
    XCTAssertEqual(results.map(\.identifier), ["givenName", "gender", "handedness", "dob"])
    XCTAssertEqual(results[0].answer, .text("Ana María"))
    XCTAssertEqual(results[0].extra, [Field("userInfo", .dictionary([]))])
    XCTAssertEqual(results[1].answer, .choices([.text("male")]))
    XCTAssertEqual(results[2].answer, .choices([.number(NumberValue(0))]))
    XCTAssertEqual(results[3].questionType, 10)
    // Text 7 is ResearchKit ≤ 1.4 numbering, where Date is 10: a date-only question.
    XCTAssertEqual(
      results[3].answer,
      .date(
        DateAnswer(
          instant: Instant(secondsSinceReferenceDate: -657_648_000),
          timeZone: TimeZoneInfo(secondsFromGMT: -28800), calendar: "gregorian",
          isDateOnly: true)))
  }

  func testDontKnow_NoAnswerType_EveryQuestionFamily() throws {
    let classes = ["Boolean", "Choice", "Scale", "Text", "Numeric", "Date", "TimeOfDay"]
    let results = try researchKitJSONResults(
      classes.map {
        #"{"_class":"ORK\#($0)QuestionResult","identifier":"q","#
          + #""noAnswerType":{"_class":"ORKDontKnowAnswer"}}"#
      }.joined(separator: ","))
    XCTAssertEqual(results.map(\.answer), Array(repeating: .dontKnow, count: classes.count))
    XCTAssertEqual(results.map { $0.extra.map(\.name) }, Array(repeating: [], count: 7))
  }

  func testNoAnswer_AbsentKey_Skipped() throws {
    let results = try researchKitJSONResults(
      #"{"_class":"ORKScaleQuestionResult","identifier":"pain","scaleAnswer":null}"#)
    XCTAssertEqual(results.map(\.answer), [.skipped])
  }

  func testTimeZone_SecondsFromGMT_ReadAsOffset() throws {
    let results = try researchKitJSONResults(
      #"{"_class":"ORKDateQuestionResult","identifier":"d","timeZone":19800,"#
        + #""dateAnswer":"2019-12-31T23:59:59+0530"}"#)
    XCTAssertEqual(
      results.first?.answer,
      .date(
        DateAnswer(
          instant: Instant(secondsSinceReferenceDate: 599_509_799),
          timeZone: TimeZoneInfo(secondsFromGMT: 19800))))
  }

  func testTimeZone_DaylightSavingOffsetOfAnswer_Wins() throws {
    // Serialized in March (PST, -28800) for a July date written in PDT (-0700).
    let results = try researchKitJSONResults(
      #"{"_class":"ORKDateQuestionResult","identifier":"dob","timeZone":-28800,"#
        + #""dateAnswer":"1984-07-02T00:00:00-0700"},"#
        + #"{"_class":"ORKDateQuestionResult","identifier":"far","timeZone":3600,"#
        + #""dateAnswer":"1984-07-02T00:00:00-0700"}"#)
    let zones = results.map { result -> TimeZoneInfo? in
      guard case .date(let date) = result.answer else { return nil }
      return date.timeZone
    }
    XCTAssertEqual(
      zones, [TimeZoneInfo(secondsFromGMT: -25200), TimeZoneInfo(secondsFromGMT: 3600)])
  }

  func testTimeZone_BeyondEighteenHours_Error() {
    XCTAssertThrowsError(
      try researchKitJSONResults(
        #"{"_class":"ORKDateQuestionResult","identifier":"d","timeZone":90000,"#
          + #""dateAnswer":"2019-12-31T23:59:59+0530"}"#)
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "$.results[0].results[0] (ORKDateQuestionResult) timeZone: expected a time zone "
          + "(seconds from GMT), found a number")
    }
  }

  func testDates_OffsetsAndBadText_ParsedOrError() throws {
    let run = try XCTUnwrap(
      researchKitJSONRuns(
        #"{"_class":"ORKTaskResult","identifier":"t","startDate":"2019-12-31T23:59:59+0530","#
          + #""endDate":"2017-03-09T10:15:30-0800"}"#
      ).first)
    XCTAssertEqual(run.startDate, Instant(secondsSinceReferenceDate: 599_509_799))
    XCTAssertEqual(run.endDate, Instant(secondsSinceReferenceDate: 510_776_130))
    XCTAssertThrowsError(
      try researchKitJSONRuns(
        #"{"_class":"ORKTaskResult","identifier":"t","startDate":"09/03/2017 10:15"}"#)
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "$ (ORKTaskResult) startDate: expected a date like 2019-05-27T00:35:06-0700, "
          + "found a string")
    }
  }

  func testDateAnswer_NotADate_KeptInExtraAsSkipped() throws {
    // ORKDateQuestionResult's decoder tolerates other values and discards them (§3.2).
    let results = try researchKitJSONResults(
      #"{"_class":"ORKDateQuestionResult","identifier":"d","dateAnswer":"soon"}"#)
    XCTAssertEqual(results.first?.answer, .skipped)
    XCTAssertEqual(results.first?.extra, [Field("dateAnswer", .string("soon"))])
  }

  func testTimeOfDay_HourMinuteText_AndBadText() throws {
    let results = try researchKitJSONResults(
      #"{"_class":"ORKTimeOfDayQuestionResult","identifier":"wake","dateComponentsAnswer":"07:05"}"#
    )
    XCTAssertEqual(results.first?.answer, .timeOfDay(TimeOfDay(hour: 7, minute: 5)))
    XCTAssertThrowsError(
      try researchKitJSONResults(
        #"{"_class":"ORKTimeOfDayQuestionResult","identifier":"w","dateComponentsAnswer":"25:00"}"#
      )
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "$.results[0].results[0] (ORKTimeOfDayQuestionResult) dateComponentsAnswer: "
          + "expected a time of day like 08:30, found a string")
    }
  }

  func testPageResult_NestedSteps_InPlace() throws {
    let run = try XCTUnwrap(
      researchKitJSONRuns(
        #"{"_class":"ORKTaskResult","identifier":"t","results":["#
          + #"{"_class":"ORKStepResult","identifier":"a"},"#
          + #"{"_class":"ORKPageResult","identifier":"page","results":["#
          + #"{"_class":"ORKStepResult","identifier":"b","results":["#
          + #"{"_class":"ORKBooleanQuestionResult","identifier":"b1","booleanAnswer":false}]},"#
          + #"{"_class":"ORKStepResult","identifier":"c","isPreviousResult":true}]},"#
          + #"{"_class":"ORKStepResult","identifier":"d"}]}"#
      ).first)
    XCTAssertEqual(run.steps.map(\.identifier), ["a", "b", "c", "d"])
    XCTAssertEqual(run.steps[1].results.map(\.answer), [.boolean(false)])
    XCTAssertEqual(run.steps[2].extra, [Field("isPreviousResult", .bool(true))])
  }

  func testWrongType_ChoiceAnswersString_ErrorWithJSONPath() {
    let step = #"{"_class":"ORKStepResult","identifier":"s"}"#
    let json =
      #"{"_class":"ORKTaskResult","identifier":"t","results":[\#(step),\#(step),"#
      + #"{"_class":"ORKStepResult","results":["#
      + #"{"_class":"ORKChoiceQuestionResult","choiceAnswers":"yes"}]}]}"#
    XCTAssertThrowsError(try researchKitJSONRuns(json)) { error in
      XCTAssertEqual(
        "\(error)",
        "$.results[2].results[0] (ORKChoiceQuestionResult) choiceAnswers: "
          + "expected an array, found a string")
    }
  }

  func testWrongType_ResultWithoutClass_Error() {
    let json = #"{"_class":"ORKTaskResult","identifier":"t","results":[{"identifier":"x"}]}"#
    XCTAssertThrowsError(try researchKitJSONRuns(json)) { error in
      XCTAssertEqual(
        "\(error)",
        "$ (ORKTaskResult) results[0]: expected a ResearchKit object, found an object without "
          + "\"_class\"")
    }
  }
}
