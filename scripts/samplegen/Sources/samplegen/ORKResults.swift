// Stand-ins for ResearchKit's result classes. Each Swift class carries the ORK class name and
// superclass chain, so the archive's class records read `ORKChoiceQuestionResult`,
// `ORKQuestionResult`, `ORKResult`, `NSObject` once KeyedArchive drops the module prefix.
// Keys follow formats.md §3.1–3.2 (ResearchKit's ORK_ENCODE_* macros use the property name).
import Foundation

/// `ORKResult`: identifier, startDate, endDate, userInfo.
class ORKResult: NSObject, NSCoding {
  var identifier = ""
  var startDate: NSDate?
  var endDate: NSDate?

  override init() { super.init() }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(identifier as NSString, forKey: "identifier")
    coder.encode(startDate, forKey: "startDate")
    coder.encode(endDate, forKey: "endDate")
    // Real archives write userInfo even when nil: the key holds UID 0 (formats.md §1.2).
    coder.encode(nil as Any?, forKey: "userInfo")
  }
}

/// `ORKCollectionResult`: `results`, an NSArray of child results.
class ORKCollectionResult: ORKResult {
  var results: NSArray = NSArray()

  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(results, forKey: "results")
  }
}

/// `ORKTaskResult`: taskRunUUID, outputDirectory, and (≥ 2.1.1) device.
class ORKTaskResult: ORKCollectionResult {
  var taskRunUUID: NSUUID?
  /// ORKDevice in the current layout; the legacy layout has no `device` key at all.
  var device: ORKDevice?
  var writesDevice = false

  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(taskRunUUID, forKey: "taskRunUUID")
    // Survey tasks record no files, so outputDirectory is nil (UID 0).
    coder.encode(nil as Any?, forKey: "outputDirectory")
    if writesDevice {
      coder.encode(device, forKey: "device")
    }
  }
}

/// `ORKStepResult`: a collection plus `enabledAssistiveTechnology` (≥ 1.4, nil here).
class ORKStepResult: ORKCollectionResult {
  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(nil as Any?, forKey: "enabledAssistiveTechnology")
  }
}

/// `ORKDevice` (≥ 2.1.1): product, platform, osBuild, osVersion.
class ORKDevice: NSObject, NSCoding {
  var product = "iPhone15,2"
  var platform = "iOS"
  var osBuild = "21E236"
  var osVersion = "17.4.1"

  override init() { super.init() }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(product as NSString, forKey: "product")
    coder.encode(platform as NSString, forKey: "platform")
    coder.encode(osBuild as NSString, forKey: "osBuild")
    coder.encode(osVersion as NSString, forKey: "osVersion")
  }
}

/// `ORKQuestionResult`: `questionType` plus the answer under `typedAnswerOrNoAnswer` (current
/// layout) or the subclass's legacy key (ResearchKit 1.x), then subclass keys.
class ORKQuestionResult: ORKResult {
  var questionType = 0
  var answer: Any?
  /// The legacy key (`booleanAnswer`, …) or nil for the current layout.
  var legacyAnswerKey: String?
  /// Subclass keys in write order (`unit`, `displayUnit`, `calendar`, `timeZone`).
  var extraKeys: [(key: String, value: Any?)] = []

  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(questionType, forKey: "questionType")
    coder.encode(answer, forKey: legacyAnswerKey ?? "typedAnswerOrNoAnswer")
    for (key, value) in extraKeys {
      coder.encode(value, forKey: key)
    }
  }
}

class ORKBooleanQuestionResult: ORKQuestionResult {}
class ORKChoiceQuestionResult: ORKQuestionResult {}
class ORKScaleQuestionResult: ORKQuestionResult {}
class ORKNumericQuestionResult: ORKQuestionResult {}
class ORKTextQuestionResult: ORKQuestionResult {}
class ORKDateQuestionResult: ORKQuestionResult {}
class ORKTimeOfDayQuestionResult: ORKQuestionResult {}
class ORKTimeIntervalQuestionResult: ORKQuestionResult {}

/// `ORKNoAnswer`: the abstract "no answer" base (≥ 2.1.1); its encodeWithCoder: writes nothing.
class ORKNoAnswer: NSObject, NSCoding {
  override init() { super.init() }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {}
}

/// `ORKDontKnowAnswer`: the "I don't know" singleton, an empty object in the archive.
class ORKDontKnowAnswer: ORKNoAnswer {}

/// Makes the result object for a question spec in the given layout.
func makeQuestionResult(_ kind: QuestionKind) -> ORKQuestionResult {
  switch kind {
  case .boolean: return ORKBooleanQuestionResult()
  case .singleChoice, .multipleChoice: return ORKChoiceQuestionResult()
  case .scale: return ORKScaleQuestionResult()
  case .integer, .decimal: return ORKNumericQuestionResult()
  case .text: return ORKTextQuestionResult()
  case .date, .dateAndTime: return ORKDateQuestionResult()
  case .timeOfDay: return ORKTimeOfDayQuestionResult()
  case .timeInterval: return ORKTimeIntervalQuestionResult()
  }
}
