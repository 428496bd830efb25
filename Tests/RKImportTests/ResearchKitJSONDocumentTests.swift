// ORKESerializer documents as inputs: arrays, value objects, generic values, hostile content.
import RKModel
import XCTest

@testable import RKImport

final class ResearchKitJSONDocumentTests: XCTestCase {
  /// Imports `text` as the file `x.json` through sniffing and dispatch.
  private func outcome(_ text: String) throws -> ImportOutcome {
    let folder = NSTemporaryDirectory() + "rkexport-rkjson-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/x.json"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let item = InputItem(displayPath: "x.json", folders: [], location: .file(path: path), size: 0)
    return InputImporter().importItem(item)
  }

  private func failure(_ text: String) throws -> String? {
    guard case .failed(.researchKitJSON, let error) = try outcome(text) else { return nil }
    return error.description
  }

  private let task = #"{"_class":"ORKTaskResult","identifier":"t"}"#
  private let location = #"{"_class":"ORKLocation","userInput":"home"}"#

  func testArray_TwoTasks_TwoRunsNumberedSources() throws {
    guard case .imported(let input) = try outcome("[\(task),\(task)]") else {
      return XCTFail("expected imported")
    }
    XCTAssertEqual(input.runs.map(\.source), ["x.json#1", "x.json#2"])
  }

  func testArray_TaskAndValueObject_RunAndNote() throws {
    guard case .imported(let input) = try outcome("[\(task),\(location)]") else {
      return XCTFail("expected imported")
    }
    XCTAssertEqual(input.runs.count, 1)
    XCTAssertEqual(input.notes, ["$[1] (ORKLocation): not a ResearchKit result, not exported"])
  }

  func testArray_OnlyValueObjects_Skipped() throws {
    let sample = #"{"_class":"ORKTappingSample","buttonIdentifier":"left"}"#
    guard
      case .skipped(.researchKitJSON, let reason) = try outcome("[\(sample),\(sample),\(location)]")
    else { return XCTFail("expected skipped") }
    XCTAssertEqual(
      reason,
      "only ResearchKit value objects (ORKTappingSample, ORKLocation), no results: nothing to export"
    )
  }

  func testSniff_ForeignClassKey_NotResearchKit() throws {
    // Spring Data writes `_class` into MongoDB documents too.
    guard case .skipped(.unknown, let reason) = try outcome(#"{"_class":"com.example.User"}"#)
    else { return XCTFail("expected skipped") }
    XCTAssertEqual(reason, "JSON that is not a result format")
  }

  func testAppSubclass_LegacyAnswerKey_DecodedAsItsFamily() throws {
    let results = try researchKitJSONResults(
      #"{"_class":"SBAChoiceResult","identifier":"q","choiceAnswers":["a"]},"#
        + #"{"_class":"MyTimingResult","identifier":"r","ms":12}"#)
    XCTAssertEqual(results.map(\.answerType), [.choice, .other])
    XCTAssertEqual(results.first?.answer, .choices([.text("a")]))
    XCTAssertEqual(results.last?.answer, .fields([Field("ms", .number(NumberValue(12)))]))
  }

  func testGenericValues_GeometryEnumsDates_AsKeyedArchiveHasThem() throws {
    // UIKit strings as in the real archive of formats.md §1.4 (buttonRect1, stepViewSize,
    // location); enum words per `buttonIdentifierTable`/`memoryGameStatusTable` (§4.2).
    let results = try researchKitJSONResults(
      #"{"_class":"ORKTappingIntervalResult","identifier":"tap","samples":[{"#
        + #""_class":"ORKTappingSample","buttonIdentifier":"left","location":{"x":99,"y":518.5}}],"#
        + #""buttonRect1":{"origin":{"x":71.5,"y":463},"size":{"h":104,"w":104}},"#
        + #""stepViewSize":{"h":603,"w":375},"userInfo":{"p":{"x":1,"y":2}}},"#
        + #"{"_class":"ORKSpatialSpanMemoryGameRecord","gameStatus":"timeout"},"#
        + #"{"_class":"ORKNormalizedReactionTimeResult","reactionDate":"2017-03-09T10:15:30-0800"}"#
    )
    XCTAssertEqual(results.count, 3)
    let sample = KeyedValue.object(
      className: "ORKTappingSample",
      fields: [
        Field("buttonIdentifier", .number(NumberValue(1))),
        Field("location", .string("{99, 518.5}")),
      ])
    XCTAssertEqual(
      results.first?.answer,
      .fields([
        Field("samples", .array([sample])),
        Field("buttonRect1", .string("{{71.5, 463}, {104, 104}}")),
        Field("stepViewSize", .string("{375, 603}")),
      ]))
    // userInfo is app data: no conversions.
    XCTAssertEqual(
      results.first?.extra,
      [
        Field(
          "userInfo",
          .dictionary([
            Field(
              "p",
              .dictionary([
                Field("x", .number(NumberValue(1))), Field("y", .number(NumberValue(2))),
              ]))
          ]))
      ])
    // A value object inside a step's results is still a result child: kept generically.
    XCTAssertEqual(results[1].answer, .fields([Field("gameStatus", .number(NumberValue(3)))]))
    XCTAssertEqual(
      results[2].answer,
      .fields([Field("reactionDate", .date(Instant(secondsSinceReferenceDate: 510_776_130)))]))
  }

  func testHostile_DeepNesting_FailsPerFile() throws {
    let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    XCTAssertEqual(
      try failure(#"{"_class":"ORKTaskResult","userInfo":{"a":\#(deep)}}"#),
      "x.json: objects and arrays nested more than 128 levels deep")
    let deeper = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
    XCTAssertNotNil(try failure(#"{"_class":"ORKTaskResult","userInfo":\#(deeper)}"#))
  }

  func testHostile_NestedPageResults_ImportWithinLimit() throws {
    var json = #"{"_class":"ORKStepResult","identifier":"leaf"}"#
    for level in 0..<60 {
      json = #"{"_class":"ORKPageResult","identifier":"p\#(level)","results":[\#(json)]}"#
    }
    let runs = try researchKitJSONRuns(json)
    XCTAssertEqual(runs.first?.steps.map(\.identifier), ["leaf"])
  }

  func testHostile_HugeNumbers_KeptWithoutTrapping() throws {
    let results = try researchKitJSONResults(
      #"{"_class":"ORKNumericQuestionResult","identifier":"a","numericAnswer":1E400,"#
        + #""questionType":1e400},"#
        + #"{"_class":"ORKScaleQuestionResult","identifier":"b","#
        + #""scaleAnswer":123456789012345678901234567890},"#
        + #"{"_class":"ORKTimeIntervalQuestionResult","identifier":"c","intervalAnswer":-1e400}"#)
    guard case .numeric(let number, _, _)? = results.first?.answer else {
      return XCTFail("expected a numeric answer")
    }
    XCTAssertEqual(number.text, "1E400")
    XCTAssertEqual(number.double, .infinity)
    XCTAssertNil(results.first?.questionType)
    XCTAssertEqual(
      results[1].answer,
      .scale(
        NumberValue(
          text: "123456789012345678901234567890", double: 1.2345678901234568e29, isInteger: false)))
    XCTAssertEqual(results[2].answer, .timeInterval(-.infinity))
  }

  func testHostile_WrongTypes_OneLineErrors() throws {
    let cases: [(String, String)] = [
      (
        #"{"_class":"ORKTaskResult","identifier":7}"#,
        "x.json: $ (ORKTaskResult) identifier: expected a string, found a number"
      ),
      (
        #"{"_class":"ORKTaskResult","results":{}}"#,
        "x.json: $ (ORKTaskResult) results: expected an array of objects, found an object"
      ),
      (
        #"{"_class":"ORKTaskResult","results":[3]}"#,
        "x.json: $ (ORKTaskResult) results[0]: expected a ResearchKit object, found a number"
      ),
      (
        #"{"_class":"ORKTaskResult","taskRunUUID":"run-1"}"#,
        "x.json: $ (ORKTaskResult) taskRunUUID: expected a UUID, found a string"
      ),
      (
        #"{"_class":"ORKTaskResult","device":"iPhone"}"#,
        "x.json: $ (ORKTaskResult) device: expected an object, found a string"
      ),
      (
        #"[{"_class":"ORKTaskResult"},true]"#,
        "x.json: $[1]: expected a ResearchKit object, found a Boolean"
      ),
      (
        #"[{"_class":"ORKTaskResult"},{"id":1}]"#,
        "x.json: $[1]: expected a ResearchKit object, found an object without \"_class\""
      ),
      (
        #"{"_class":"ORKTaskResult","results":[{"_class":"ORKChoiceQuestionResult","#
          + #""choiceAnswers":[{"a":1}]}]}"#,
        "x.json: $.results[0] (ORKChoiceQuestionResult) choiceAnswers[0]: expected a choice value, found an object"
      ),
    ]
    for (json, expected) in cases {
      XCTAssertEqual(try failure(json), expected, json)
    }
  }

  func testHostile_TruncatedDocument_FailedAsResearchKitJSON() throws {
    // 42 bytes: the document ends where the object's `}` should be.
    XCTAssertEqual(
      try failure(#"{"_class":"ORKTaskResult","identifier":"t""#),
      "x.json: byte 42: unexpected end of document inside an object")
  }
}
