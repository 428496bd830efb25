// samples/researchkit-json/ end to end, and the same answers read from JSON and from an archive.
import RKModel
import XCTest

@testable import RKImport

final class ResearchKitJSONSampleFolderTests: XCTestCase {
  private func sampleFolder(file: String = #filePath) -> String {
    URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("samples/researchkit-json").path
  }

  func testSampleFolder_EveryFile_ImportsItsRuns() throws {
    let items = InputWalker(roots: [sampleFolder()]).items().items
    let importer = InputImporter()
    var runsByFile = [String: [TaskRun]]()
    for item in items where item.displayPath.hasSuffix(".json") {
      guard case .imported(let input) = importer.importItem(item) else {
        return XCTFail("\(item.displayPath) did not import")
      }
      XCTAssertEqual(input.format, .researchKitJSON)
      runsByFile[item.displayPath] = input.runs
    }
    XCTAssertEqual(
      runsByFile.mapValues { $0.map(\.taskIdentifier) },
      [
        "P101/registration-2017-03-09.json": ["registration"],
        "P101/daily_check_in-2017-03-10.json": ["daily_check_in"],
        "P102/registration-2017-03-09.json": ["registration"],
        "P102/daily_check_in-2017-03-10-and-11.json": ["daily_check_in", "daily_check_in"],
      ])
    // Values below were written into the sample files by hand; instants by Python.
    let daily = try XCTUnwrap(runsByFile["P101/daily_check_in-2017-03-10.json"]?.first)
    XCTAssertEqual(daily.startDate, Instant(secondsSinceReferenceDate: 510_854_525))
    XCTAssertEqual(daily.durationSeconds, 47)
    let answers = daily.steps.flatMap(\.results).map(\.answer)
    XCTAssertEqual(
      answers,
      [
        .scale(NumberValue(7)), .boolean(true), .timeOfDay(TimeOfDay(hour: 23, minute: 30)),
        .numeric(
          NumberValue(text: "72.5", double: 72.5, isInteger: false), unit: "kg", displayUnit: nil),
        .choices([.text("headache")]), .text("Slept badly, \"noisy\" neighbours"),
      ])
    let registration = try XCTUnwrap(runsByFile["P101/registration-2017-03-09.json"]?.first)
    let birth = registration.steps.last?.results.first?.answer
    XCTAssertEqual(
      birth,
      .date(
        DateAnswer(
          instant: Instant(secondsSinceReferenceDate: -520_707_600),
          timeZone: TimeZoneInfo(secondsFromGMT: -25200), calendar: "gregorian",
          isDateOnly: true)))
    let second = try XCTUnwrap(runsByFile["P102/daily_check_in-2017-03-10-and-11.json"]?.last)
    let lastAnswers = second.steps.flatMap(\.results).suffix(2).map(\.answer)
    XCTAssertEqual(lastAnswers, [.choices([]), .text("")])
    XCTAssertEqual(second.source, "P102/daily_check_in-2017-03-10-and-11.json#2")
  }

  func testSameResults_JSONAndKeyedArchive_SameRecords() throws {
    // One decoding, two syntaxes: the same results must decode to the same records.
    let rk = ResearchKitArchive()
    let b = rk.builder
    let archived = try rk.runs([
      rk.result(
        "ORKChoiceQuestionResult", id: "c",
        [
          ("questionType", .int(3)),
          ("choiceAnswers", .uid(b.array([b.string("a"), b.inline(.integer(2))]))),
        ]),
      rk.result(
        "ORKNumericQuestionResult", id: "n",
        [
          ("questionType", .int(5)), ("numericAnswer", .uid(b.inline(.real(72.5)))),
          ("unit", .uid(b.string("kg"))),
        ]),
      rk.result("ORKBooleanQuestionResult", id: "b", [("booleanAnswer", .uid(rk.dontKnow()))]),
      rk.result(
        "ORKTappingIntervalResult", chain: ["ORKResult", "NSObject"], id: "t",
        [("stepViewSize", .uid(b.string("{375, 603}")))]),
    ])
    let json = try researchKitJSONResults(
      #"{"_class":"ORKChoiceQuestionResult","identifier":"c","questionType":3,"#
        + #""choiceAnswers":["a",2]},"#
        + #"{"_class":"ORKNumericQuestionResult","identifier":"n","questionType":5,"#
        + #""numericAnswer":72.5,"unit":"kg"},"#
        + #"{"_class":"ORKBooleanQuestionResult","identifier":"b","#
        + #""noAnswerType":{"_class":"ORKDontKnowAnswer"}},"#
        + #"{"_class":"ORKTappingIntervalResult","identifier":"t","stepViewSize":{"h":603,"w":375}}"#
    )
    let archivedResults = try XCTUnwrap(archived.first?.steps.first?.results)
    XCTAssertEqual(json.count, 4)
    for (fromJSON, fromArchive) in zip(json, archivedResults) {
      XCTAssertEqual(fromJSON.identifier, fromArchive.identifier)
      XCTAssertEqual(fromJSON.answerType, fromArchive.answerType)
      XCTAssertEqual(fromJSON.answer, fromArchive.answer, fromJSON.identifier)
      XCTAssertEqual(fromJSON.questionType, fromArchive.questionType)
    }
  }
}
