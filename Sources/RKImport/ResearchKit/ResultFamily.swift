// The class-name table: which decoder handles which ResearchKit result class.
import RKModel

/// Decodes the answer of one family of ResearchKit result classes (formats.md §3).
///
/// A family reads its own keys; `ResearchKitDecoder` reads ORKResult's keys and puts every
/// key the family does not name into the record's `extra`, so nothing is dropped.
protocol ResultFamily: Sendable {
  static var answerType: AnswerType { get }
  /// Keys the family reads itself, or nil when it keeps every key (generic results).
  static var ownKeys: Set<String>? { get }
  /// The answer; `extra` receives values the family read but could not type.
  static func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer
}

/// Class name → family. A class not listed is decoded as its first listed ancestor (an app's
/// `SBAChoiceResult : ORKChoiceQuestionResult`), and anything else as a generic result.
enum ResultFamilies {
  static func family(forClassChain chain: [String]) -> any ResultFamily.Type {
    for name in chain {
      if let family = byClassName[name] { return family }
    }
    return GenericResultFamily.self
  }

  /// The table: add a class here, with a family of its own when its answer differs.
  static let byClassName: [String: any ResultFamily.Type] = [
    "ORKBooleanQuestionResult": BooleanQuestionFamily.self,
    "ORKChoiceQuestionResult": ChoiceQuestionFamily.self,
    "ORKScaleQuestionResult": ScaleQuestionFamily.self,
    "ORKTextQuestionResult": TextQuestionFamily.self,
    "ORKNumericQuestionResult": NumericQuestionFamily.self,
    "ORKTimeOfDayQuestionResult": TimeOfDayQuestionFamily.self,
    "ORKTimeIntervalQuestionResult": TimeIntervalQuestionFamily.self,
    "ORKDateQuestionResult": DateQuestionFamily.self,
    "ORKLocationQuestionResult": LocationQuestionFamily.self,
    "ORKMultipleComponentQuestionResult": MultipleComponentQuestionFamily.self,
    "ORKSESQuestionResult": SESQuestionFamily.self,
    "ORKFileResult": FileResultFamily.self,
  ]
}

/// Question results (formats.md §3.2): answer = `typedAnswerOrNoAnswer` ?? the legacy key;
/// an `ORKNoAnswer`/`ORKDontKnowAnswer` under either key (or JSON's `noAnswerType`) is
/// "don't know"; no answer at all is "skipped".
protocol QuestionFamily: ResultFamily {
  /// The pre-2.1.1 answer key, still read by ResearchKit for backwards compatibility.
  static var legacyKey: String { get }
  /// Keys besides the answer (`unit`, `calendar`…).
  static var detailKeys: [String] { get }
  /// The answer stored under `key`, or nil when it is absent.
  static func value<Object: ResultObject>(
    of object: Object, key: String, extra: inout [Field]
  ) throws(ImportError) -> Answer?
}

extension QuestionFamily {
  static var detailKeys: [String] { [] }

  static var ownKeys: Set<String>? {
    Set(["questionType", "typedAnswerOrNoAnswer", "noAnswerType", legacyKey] + detailKeys)
  }

  static func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer {
    for key in ["typedAnswerOrNoAnswer", legacyKey, "noAnswerType"] {
      if try object.isNoAnswer(key) { return .dontKnow }
    }
    let typed = "typedAnswerOrNoAnswer"
    let key = try object.isPresent(typed) ? typed : legacyKey
    return try value(of: object, key: key, extra: &extra) ?? .skipped
  }
}

/// Results we do not model (active tasks, consent, passcode, web view, app classes…): every
/// key except ORKResult's is kept as a generic field.
enum GenericResultFamily: ResultFamily {
  static let answerType = AnswerType.other
  static let ownKeys: Set<String>? = nil

  static func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer {
    var fields = [Field]()
    for key in try object.keys() where !ResearchKitDecoder<Object>.baseKeys.contains(key) {
      fields.append(Field(key, try object.keyedValue(key) ?? .null))
    }
    return .fields(fields)
  }
}

/// `ORKFileResult` and subclasses: `fileURL` (relative path string, `file://` URL, or an
/// NSURL object in 1.0.0), `contentType`, `fileName` (≥ 2.1.1).
enum FileResultFamily: ResultFamily {
  static let answerType = AnswerType.file
  static let ownKeys: Set<String>? = ["fileURL", "contentType", "fileName"]

  static func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer {
    .file(
      FileAnswer(
        path: try object.filePath("fileURL"), contentType: try object.string("contentType"),
        fileName: try object.string("fileName")))
  }
}
