// Class ancestry for ORKESerializer JSON, which names only an object's own class (`_class`).

/// What a top-level ORKESerializer object is to the importer.
enum ResearchKitJSONRole: Equatable {
  /// `ORKTaskResult` and subclasses (`ORKPageResult`), and a bare `ORKCollectionResult`.
  case task
  /// `ORKStepResult` and subclasses.
  case step
  /// Any other `ORKResult` subclass (question, file, active-task, consent… results).
  case result
  /// An object that is not an `ORKResult` (`ORKLocation`, `ORKDevice`, task samples…).
  case valueObject
}

/// The superclass table that stands in for a keyed archive's `$classes` (formats.md §3).
///
/// A keyed archive lists every object's ancestry; ORKESerializer writes only `_class`, so the
/// chain is rebuilt from ResearchKit's own hierarchy. Classes the table does not know (an
/// app's subclass such as `SBAChoiceResult`, a newer ResearchKit class) get inferred
/// ancestors: a question result's legacy answer key names its family (`choiceAnswers` →
/// `ORKChoiceQuestionResult`), `fileURL`/`contentType` a file result; else an `ORK…Result`
/// name or an object with `identifier`, `startDate` or `endDate` is an `ORKResult`, one with
/// `taskRunUUID` a task result, one with `results` a step result, anything else a value object.
enum ResearchKitJSONClasses {
  /// The class chain of `className`, most specific first, ending at `NSObject`.
  static func chain(of className: String, keys: (String) -> Bool) -> [String] {
    let chain = knownChain(of: className)
    guard chain.last != "NSObject" else { return chain }
    return chain + inferredAncestors(of: className, keys: keys)
  }

  /// `className` and the ancestors the table knows.
  private static func knownChain(of className: String) -> [String] {
    knownChains[className] ?? [className]
  }

  /// `walkedChain(of:)` of every class the table knows, worked out once: one lookup an
  /// object instead of one per ancestor.
  private static let knownChains: [String: [String]] = Dictionary(
    uniqueKeysWithValues: superclass.keys.map { ($0, walkedChain(of: $0)) })

  private static func walkedChain(of className: String) -> [String] {
    var chain = [className]
    var current = className
    while let parent = superclass[current], chain.count < 16 {
      chain.append(parent)
      current = parent
    }
    return chain
  }

  /// How the importer treats an object whose class chain is `chain`.
  static func role(of chain: [String]) -> ResearchKitJSONRole {
    if chain.contains("ORKTaskResult") { return .task }
    if chain.contains("ORKStepResult") { return .step }
    if chain.contains("ORKCollectionResult") { return .task }
    if chain.contains("ORKResult") { return .result }
    return .valueObject
  }

  private static func inferredAncestors(
    of className: String, keys: (String) -> Bool
  ) -> [String] {
    let taskChain = ["ORKTaskResult", "ORKCollectionResult", "ORKResult", "NSObject"]
    for (key, family) in answerKeyFamilies where keys(key) { return knownChain(of: family) }
    if className.hasPrefix("ORK") && className.hasSuffix("Result") {
      return ["ORKResult", "NSObject"]
    }
    if keys("taskRunUUID") { return taskChain }
    if keys("results") { return ["ORKStepResult"] + taskChain.dropFirst() }
    if keys("identifier") || keys("startDate") || keys("endDate") {
      return ["ORKResult", "NSObject"]
    }
    return ["NSObject"]
  }

  /// Class → superclass, from ResearchKit's headers on `main` and older tags (formats.md
  /// §3.1–§3.5, including the 2.0.0 misspelling `ORKSpeechRecognitonResult`).
  static let superclass: [String: String] = {
    var table: [String: String] = [
      "ORKResult": "NSObject",
      "ORKCollectionResult": "ORKResult",
      "ORKTaskResult": "ORKCollectionResult",
      "ORKStepResult": "ORKCollectionResult",
      "ORKPageResult": "ORKTaskResult",
      "ORKQuestionResult": "ORKResult",
      "ORKFileResult": "ORKResult",
      "ORKFrontFacingCameraStepResult": "ORKFileResult",
      "ORKStroopResult": "ORKResult",
      "ORKAccuracyStroopResult": "ORKStroopResult",
      "ORKNoAnswer": "NSObject",
      "ORKDontKnowAnswer": "ORKNoAnswer",
    ]
    for name in questionResults { table[name] = "ORKQuestionResult" }
    for name in otherResults { table[name] = "ORKResult" }
    for name in valueObjects { table[name] = "NSObject" }
    return table
  }()

  /// Keys only one result family writes (formats.md §3.2 legacy keys, §3.4 file results).
  private static let answerKeyFamilies: [(String, String)] = [
    ("booleanAnswer", "ORKBooleanQuestionResult"), ("choiceAnswers", "ORKChoiceQuestionResult"),
    ("scaleAnswer", "ORKScaleQuestionResult"), ("textAnswer", "ORKTextQuestionResult"),
    ("numericAnswer", "ORKNumericQuestionResult"),
    ("dateComponentsAnswer", "ORKTimeOfDayQuestionResult"),
    ("intervalAnswer", "ORKTimeIntervalQuestionResult"), ("dateAnswer", "ORKDateQuestionResult"),
    ("locationAnswer", "ORKLocationQuestionResult"),
    ("componentsAnswer", "ORKMultipleComponentQuestionResult"),
    ("rungPicked", "ORKSESQuestionResult"), ("fileURL", "ORKFileResult"),
    ("contentType", "ORKFileResult"),
  ]

  private static let questionResults = [
    "ORKBooleanQuestionResult", "ORKChoiceQuestionResult", "ORKScaleQuestionResult",
    "ORKTextQuestionResult", "ORKNumericQuestionResult", "ORKTimeOfDayQuestionResult",
    "ORKTimeIntervalQuestionResult", "ORKDateQuestionResult", "ORKLocationQuestionResult",
    "ORKMultipleComponentQuestionResult", "ORKSESQuestionResult",
  ]

  private static let otherResults = [
    "ORKConsentSignatureResult", "ORKSignatureResult", "ORKPasscodeResult",
    "ORKVideoInstructionStepResult", "ORKWebViewStepResult", "ORKFamilyHistoryResult",
    "ORKDataResult", "ORKTappingIntervalResult", "ORKSpatialSpanMemoryResult",
    "ORKReactionTimeResult", "ORKToneAudiometryResult", "ORKPSATResult", "ORKTimedWalkResult",
    "ORKTowerOfHanoiResult", "ORKHolePegTestResult", "ORKRangeOfMotionResult",
    "ORKTrailmakingResult", "ORKAmslerGridResult", "ORKEnvironmentSPLMeterResult",
    "ORKSpeechRecognitionResult", "ORKSpeechRecognitonResult", "ORKSpeechInNoiseResult",
    "ORKdBHLToneAudiometryResult", "ORKNormalizedReactionTimeResult",
    "ORKUSDZModelManagerResult", "ORKTouchAbilityTapResult", "ORKTouchAbilityLongPressResult",
    "ORKTouchAbilitySwipeResult", "ORKTouchAbilityScrollResult", "ORKTouchAbilityPinchResult",
    "ORKTouchAbilityRotationResult",
  ]

  private static let valueObjects = [
    "ORKDevice", "ORKLocation", "ORKConsentSignature", "ORKRelatedPerson", "ORKHealthCondition",
    "ORKResultSelector", "ORKTappingSample", "ORKSpatialSpanMemoryGameRecord",
    "ORKSpatialSpanMemoryGameTouchSample", "ORKToneAudiometrySample", "ORKPSATSample",
    "ORKTowerOfHanoiMove", "ORKHolePegTestSample", "ORKTrailmakingTap",
    "ORKdBHLToneAudiometryFrequencySample", "ORKdBHLToneAudiometryUnit",
    "ORKTouchAbilityTrial", "ORKTouchAbilityTrack", "ORKTouchAbilityTouch",
  ]
}
