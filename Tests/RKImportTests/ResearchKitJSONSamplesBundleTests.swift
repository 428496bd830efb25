// All 72 ORKESerializer fixtures of ResearchKit's samples.bundle, each imported end to end.
import RKModel
import XCTest

@testable import RKImport

/// The path of a file in `shared/corpus/real/researchkit-samples-bundle/` (ResearchKit
/// `ResearchKitTests/samples.bundle` @ `daba8c9f`), found from this file's path.
func samplesBundlePath(_ name: String = "", file: String = #filePath) throws -> String {
  var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
  while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
  {
    let parent = folder.deletingLastPathComponent()
    guard parent.path != folder.path else { throw XCTSkip("package root not found") }
    folder = parent
  }
  return folder.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/real/researchkit-samples-bundle/" + name).path
}

final class ResearchKitJSONSamplesBundleTests: XCTestCase {
  /// What one fixture yields. Written by reading each fixture (formats.md §4: the values are
  /// ResearchKit's synthetic placeholders, e.g. `"booleanAnswer":123`).
  enum Expected {
    /// Skipped: a value object, not a result.
    case valueObject
    /// A task-like root: one run with this UUID, device or not, and no steps.
    case task(uuid: String?, hasDevice: Bool)
    /// A lone ORKStepResult: one run, one step without results, these step `extra` names.
    case step(extra: [String])
    /// A lone typed result: one run, one step, one result with this type and answer.
    case answer(AnswerType, Answer)
    /// A lone untyped result: kept as generic fields with these names, in file order.
    case fields([String])
  }

  /// 2019-05-27T00:35:06-0700, every fixture's startDate and endDate (Python:
  /// `datetime(2019,5,27,0,35,6,tzinfo=-7h).timestamp() - 978307200`).
  static let fixtureInstant = Instant(secondsSinceReferenceDate: 580_635_306)

  static let dontKnowFiles: [(String, AnswerType)] = [
    ("Boolean", .boolean), ("Choice", .choice), ("Date", .date), ("Location", .location),
    ("MultipleComponent", .multipleComponent), ("Numeric", .numeric), ("SES", .ses),
    ("Scale", .scale), ("Text", .text), ("TimeInterval", .timeInterval),
    ("TimeOfDay", .timeOfDay),
  ]

  static let valueObjects = [
    "ORKConsentSignature", "ORKDevice", "ORKDontKnowAnswer", "ORKHealthCondition",
    "ORKHolePegTestSample", "ORKLocation", "ORKPSATSample", "ORKRelatedPerson",
    "ORKResultSelector", "ORKSpatialSpanMemoryGameRecord", "ORKSpatialSpanMemoryGameTouchSample",
    "ORKTappingSample", "ORKToneAudiometrySample", "ORKTowerOfHanoiMove", "ORKTrailmakingTap",
    "ORKdBHLToneAudiometryFrequencySample", "ORKdBHLToneAudiometryUnit",
  ]

  static let location = LocationAnswer(
    latitude: 2, longitude: 3, userInput: "addressStringA", address: "street, cityA",
    addressFields: [Field("street", .string("street")), Field("city", .string("cityA"))],
    regionCenterLatitude: 2, regionCenterLongitude: 3, regionRadius: 100,
    regionIdentifier: "identifier")

  static let expectations: [String: Expected] = {
    var table: [String: Expected] = [
      "ORKAccuracyStroopResult": .fields([
        "color", "endTime", "text", "startTime", "colorSelected", "didSelectCorrectColor",
        "timeTakenToSelect", "distanceToClosestCenter",
      ]),
      "ORKAmslerGridResult": .fields(["eyeSide", "imageFileResult", "drawingPathFileResult"]),
      "ORKBooleanQuestionResult": .answer(.boolean, .boolean(true)),
      "ORKChoiceQuestionResult": .answer(.choice, .choices([])),
      "ORKCollectionResult": .task(uuid: nil, hasDevice: false),
      "ORKConsentSignatureResult": .fields(["signature", "consented"]),
      "ORKDateQuestionResult": .answer(
        .date,
        .date(
          DateAnswer(
            instant: fixtureInstant, timeZone: TimeZoneInfo(secondsFromGMT: 3600),
            calendar: "gregorian"))),
      "ORKEnvironmentSPLMeterResult": .fields(["sensitivityOffset", "recordedSPLMeterSamples"]),
      "ORKFamilyHistoryResult": .fields(["relatedPersons", "displayedConditions"]),
      "ORKFileResult": .answer(.file, .file(FileAnswer(contentType: "", fileName: ""))),
      "ORKFrontFacingCameraStepResult": .answer(
        .file, .file(FileAnswer(contentType: "", fileName: ""))),
      "ORKHolePegTestResult": .fields([
        "totalFailures", "samples", "totalSuccesses", "totalTime", "totalDistance", "rotated",
        "numberOfPegs", "dominantHandTested", "movingDirection", "threshold",
      ]),
      "ORKLocationQuestionResult": .answer(.location, .location(location)),
      "ORKMultipleComponentQuestionResult": .answer(
        .multipleComponent, .components([], separator: "")),
      "ORKNormalizedReactionTimeResult": .fields([
        "currentInterval", "reactionDate", "timerEndDate", "timerStartDate", "stimulusStartDate",
      ]),
      "ORKNumericQuestionResult": .answer(
        .numeric, .numeric(NumberValue(123), unit: "weeks", displayUnit: "semanas")),
      "ORKPSATResult": .fields([
        "stimulusDuration", "initialDigit", "samples", "totalTime", "length", "totalCorrect",
        "interStimulusInterval", "totalDyad", "presentationMode",
      ]),
      "ORKPageResult": .task(uuid: "637A93BE-FE56-4397-8D6B-D42378A6C977", hasDevice: true),
      "ORKPasscodeResult": .fields(["passcodeSaved", "touchIdEnabled"]),
      // The abstract base class has no family: kept generically, marker included.
      "ORKQuestionResult": .fields(["questionType", "noAnswerType"]),
      "ORKRangeOfMotionResult": .fields(["finish", "maximum", "start", "range", "minimum"]),
      "ORKReactionTimeResult": .fields(["fileResults", "timestamp"]),
      "ORKResult": .fields([]),
      "ORKSESQuestionResult": .answer(.ses, .sesRung(NumberValue(0))),
      "ORKScaleQuestionResult": .answer(.scale, .scale(NumberValue(123))),
      "ORKSignatureResult": .fields([]),
      "ORKSpatialSpanMemoryResult": .fields([
        "score", "numberOfGames", "gameRecords", "numberOfFailures",
      ]),
      "ORKSpeechInNoiseResult": .fields(["targetSentence", "filename"]),
      "ORKSpeechRecognitionResult": .fields(["transcription", "recognitionMetadata"]),
      "ORKStepResult": .step(extra: ["enabledAssistiveTechnology", "userInfo", "isPreviousResult"]),
      "ORKStroopResult": .fields(["color", "endTime", "text", "startTime", "colorSelected"]),
      "ORKTappingIntervalResult": .fields([
        "samples", "buttonRect2", "buttonRect1", "stepViewSize",
      ]),
      "ORKTaskResult": .task(uuid: "FDFCC3EC-01B6-43E7-8200-9B93E2744BB8", hasDevice: true),
      "ORKTextQuestionResult": .answer(.text, .text("")),
      "ORKTimeIntervalQuestionResult": .answer(.timeInterval, .timeInterval(123)),
      "ORKTimeOfDayQuestionResult": .answer(.timeOfDay, .timeOfDay(TimeOfDay(hour: 0, minute: 0))),
      "ORKTimedWalkResult": .fields(["timeLimit", "duration", "distanceInMeters"]),
      "ORKToneAudiometryResult": .fields(["outputVolume", "samples"]),
      "ORKTowerOfHanoiResult": .fields(["moves", "puzzleWasSolved"]),
      "ORKTrailmakingResult": .fields(["numberOfErrors", "taps"]),
      "ORKUSDZModelManagerResult": .fields([
        "identifiersOfSelectedObjects", "identifierOfObjectSelectedAtClose",
      ]),
      "ORKVideoInstructionStepResult": .fields(["playbackCompleted", "playbackStoppedTime"]),
      "ORKWebViewStepResult": .fields(["result"]),
      "ORKdBHLToneAudiometryResult": .fields([
        "headphoneType", "outputVolume", "samples", "postStimulusDelay", "tonePlaybackDuration",
      ]),
    ]
    for (name, type) in dontKnowFiles {
      table["ORK\(name)QuestionResult-ORKDontKnowAnswer"] = .answer(type, .dontKnow)
    }
    for name in valueObjects { table[name] = .valueObject }
    return table
  }()

  func testSamplesBundle_EveryFixture_ImportsAsExpected() throws {
    let folder = try samplesBundlePath()
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    XCTAssertEqual(names.count, 72)
    XCTAssertEqual(Set(names), Set(Self.expectations.keys))
    let importer = InputImporter()
    for name in names {
      guard let expected = Self.expectations[name] else { continue }
      let item = InputItem(
        displayPath: name + ".json", folders: [],
        location: .file(path: folder + "/" + name + ".json"),
        size: 0)
      check(importer.importItem(item), name: name, expected: expected)
    }
  }

  private func check(_ outcome: ImportOutcome, name: String, expected: Expected) {
    let className = name.split(separator: "-").first.map(String.init) ?? name
    if case .valueObject = expected {
      guard case .skipped(.researchKitJSON, let reason) = outcome else {
        return XCTFail("\(name): expected skipped, got \(outcome)")
      }
      XCTAssertEqual(
        reason, "\(className) is a ResearchKit value object, not a result: nothing to export")
      return
    }
    guard case .imported(let input) = outcome else {
      return XCTFail("\(name): expected imported, got \(outcome)")
    }
    XCTAssertEqual(input.format, .researchKitJSON, name)
    XCTAssertEqual(input.notes, [], name)
    XCTAssertEqual(input.runs.count, 1, name)
    guard let run = input.runs.first else { return }
    XCTAssertEqual(run.taskIdentifier, "", name)
    XCTAssertEqual(run.source, name + ".json", name)
    switch expected {
    case .valueObject: break
    case .task(let uuid, let hasDevice):
      XCTAssertEqual(run.runUUID, uuid, name)
      XCTAssertEqual(run.device != nil, hasDevice, name)
      XCTAssertEqual(run.startDate, Self.fixtureInstant, name)
      XCTAssertEqual(run.endDate, Self.fixtureInstant, name)
      XCTAssertEqual(run.steps.count, 0, name)
    case .step(let extra):
      XCTAssertEqual(run.metadata, [Field("class", .string(className))], name)
      XCTAssertEqual(run.steps.count, 1, name)
      XCTAssertEqual(run.steps.first?.results.count, 0, name)
      XCTAssertEqual(run.steps.first?.extra.map(\.name), extra, name)
      XCTAssertEqual(run.steps.first?.startDate, Self.fixtureInstant, name)
    case .answer, .fields:
      XCTAssertEqual(run.metadata, [Field("class", .string(className))], name)
      XCTAssertEqual(run.steps.count, 1, name)
      XCTAssertEqual(run.steps.first?.identifier, "", name)
      XCTAssertEqual(run.steps.first?.startDate, Self.fixtureInstant, name)
      XCTAssertEqual(run.steps.first?.endDate, Self.fixtureInstant, name)
      XCTAssertEqual(run.steps.first?.results.count, 1, name)
      guard let result = run.steps.first?.results.first else { return }
      XCTAssertEqual(result.className, className, name)
      XCTAssertEqual(result.startDate, Self.fixtureInstant, name)
      if case .answer(let type, let answer) = expected {
        XCTAssertEqual(result.answerType, type, name)
        XCTAssertEqual(result.answer, answer, name)
      } else if case .fields(let names) = expected {
        XCTAssertEqual(result.answerType, .other, name)
        guard case .fields(let fields) = result.answer else {
          return XCTFail("\(name): expected fields, got \(result.answer)")
        }
        XCTAssertEqual(fields.map(\.name), names, name)
      }
    }
  }
}
