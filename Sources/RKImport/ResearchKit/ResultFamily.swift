// The class-name table: which decoder handles which ResearchKit result class.
import RKModel

/// Decodes the answer of one family of ResearchKit result classes (formats.md §3).
///
/// A family reads its own keys; `ResearchKitDecoder` reads ORKResult's keys and puts every
/// key the family does not name into the record's `extra`, so nothing is dropped.
protocol ResultFamily: Sendable {
  static var answerType: AnswerType { get }
  /// Whether the family keeps every key as a field (generic results).
  static var keepsAllKeys: Bool { get }
  /// Whether the family decodes question results (a `QuestionFamily`).
  static var isQuestion: Bool { get }
  /// Whether the family reads `key` itself (so it does not belong in `extra`).
  static func readsKey(_ key: FieldKey) -> Bool
  /// The answer; `extra` receives values the family read but could not type.
  static func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer
}

/// Class name → family. A class not listed is decoded as its first listed ancestor (an app's
/// `SBAChoiceResult : ORKChoiceQuestionResult`), and anything else as a generic result.
enum ResultFamilies {
  static func family(forClassChain chain: [String]) -> ResultFamilyKind {
    // Every listed class is an `ORK…` class: other names are not hashed.
    for name in chain where name.utf8.starts(with: "ORK".utf8) {
      if let family = byClassName[name] { return family }
    }
    return .generic
  }

  /// The table: add a class here, with a family of its own when its answer differs.
  static let byClassName: [String: ResultFamilyKind] = [
    "ORKBooleanQuestionResult": .boolean,
    "ORKChoiceQuestionResult": .choice,
    "ORKScaleQuestionResult": .scale,
    "ORKTextQuestionResult": .text,
    "ORKNumericQuestionResult": .numeric,
    "ORKTimeOfDayQuestionResult": .timeOfDay,
    "ORKTimeIntervalQuestionResult": .timeInterval,
    "ORKDateQuestionResult": .date,
    "ORKLocationQuestionResult": .location,
    "ORKMultipleComponentQuestionResult": .multipleComponent,
    "ORKSESQuestionResult": .ses,
    "ORKFileResult": .file,
  ]
}

/// The result families, one case each: what the class table names, and where a family's answer
/// is called on its concrete type. Called through an existential metatype, the family's code
/// ran unspecialized (every lookup on the object through a witness table); the switches are
/// exhaustive, so a new family cannot be left out of either.
enum ResultFamilyKind: Int, CaseIterable, Sendable {
  case boolean, choice, scale, text, numeric, timeOfDay, timeInterval, date, location,
    multipleComponent, ses, file, generic

  /// A value for each kind, worked out once and read by the kind's number.
  struct Table<Value: Sendable>: Sendable {
    private let values: [Value]

    init(_ make: (ResultFamilyKind) -> Value) {
      values = ResultFamilyKind.allCases.map(make)
    }

    subscript(kind: ResultFamilyKind) -> Value { values[kind.rawValue] }
  }

  var type: any ResultFamily.Type {
    switch self {
    case .boolean: BooleanQuestionFamily.self
    case .choice: ChoiceQuestionFamily.self
    case .scale: ScaleQuestionFamily.self
    case .text: TextQuestionFamily.self
    case .numeric: NumericQuestionFamily.self
    case .timeOfDay: TimeOfDayQuestionFamily.self
    case .timeInterval: TimeIntervalQuestionFamily.self
    case .date: DateQuestionFamily.self
    case .location: LocationQuestionFamily.self
    case .multipleComponent: MultipleComponentQuestionFamily.self
    case .ses: SESQuestionFamily.self
    case .file: FileResultFamily.self
    case .generic: GenericResultFamily.self
    }
  }

  /// `type.answer(of:extra:)`, specialized for `Object`.
  func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer {
    switch self {
    case .boolean: try BooleanQuestionFamily.answer(of: object, extra: &extra)
    case .choice: try ChoiceQuestionFamily.answer(of: object, extra: &extra)
    case .scale: try ScaleQuestionFamily.answer(of: object, extra: &extra)
    case .text: try TextQuestionFamily.answer(of: object, extra: &extra)
    case .numeric: try NumericQuestionFamily.answer(of: object, extra: &extra)
    case .timeOfDay: try TimeOfDayQuestionFamily.answer(of: object, extra: &extra)
    case .timeInterval: try TimeIntervalQuestionFamily.answer(of: object, extra: &extra)
    case .date: try DateQuestionFamily.answer(of: object, extra: &extra)
    case .location: try LocationQuestionFamily.answer(of: object, extra: &extra)
    case .multipleComponent: try MultipleComponentQuestionFamily.answer(of: object, extra: &extra)
    case .ses: try SESQuestionFamily.answer(of: object, extra: &extra)
    case .file: try FileResultFamily.answer(of: object, extra: &extra)
    case .generic: try GenericResultFamily.answer(of: object, extra: &extra)
    }
  }
}

/// Question results (formats.md §3.2): answer = `typedAnswerOrNoAnswer` ?? the legacy key;
/// an `ORKNoAnswer`/`ORKDontKnowAnswer` under either key (or JSON's `noAnswerType`) is
/// "don't know"; no answer at all is "skipped".
protocol QuestionFamily: ResultFamily {
  /// The pre-2.1.1 answer key, still read by ResearchKit for backwards compatibility.
  static var legacyKey: FieldKey { get }
  /// Keys besides the answer (`unit`, `calendar`…).
  static var detailKeys: [FieldKey] { get }
  /// The answer stored under `key`, or nil when it is absent.
  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer?
}

extension QuestionFamily {
  static var detailKeys: [FieldKey] { [] }

  static var keepsAllKeys: Bool { false }

  static var isQuestion: Bool { true }

  static func readsKey(_ key: FieldKey) -> Bool {
    switch key {
    case .questionType, .typedAnswerOrNoAnswer, .noAnswerType: true
    default: key == legacyKey || detailKeys.contains(key)
    }
  }

  static func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer {
    // Three calls, not a loop over an array literal: that array was an allocation per result.
    if try object.isNoAnswer(.typedAnswerOrNoAnswer) { return .dontKnow }
    if try object.isNoAnswer(legacyKey) { return .dontKnow }
    if try object.isNoAnswer(.noAnswerType) { return .dontKnow }
    let typed = FieldKey.typedAnswerOrNoAnswer
    let key = try object.isPresent(typed) ? typed : legacyKey
    return try value(of: object, key: key, extra: &extra) ?? .skipped
  }
}

/// Results we do not model (active tasks, consent, passcode, web view, app classes…): every
/// key except ORKResult's is kept as a generic field.
enum GenericResultFamily: ResultFamily {
  static let answerType = AnswerType.other
  static let keepsAllKeys = true
  static let isQuestion = false

  static func readsKey(_ key: FieldKey) -> Bool { true }

  static func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer {
    .fields(try object.otherFields(skipping: KeysRead.base))
  }
}

/// `ORKFileResult` and subclasses: `fileURL` (relative path string, `file://` URL, or an
/// NSURL object in 1.0.0), `contentType`, `fileName` (≥ 2.1.1).
enum FileResultFamily: ResultFamily {
  static let answerType = AnswerType.file
  static let keepsAllKeys = false
  static let isQuestion = false

  static func readsKey(_ key: FieldKey) -> Bool {
    key == .fileURL || key == .contentType || key == .fileName
  }

  static func answer<Object: ResultObject>(
    of object: Object, extra: inout [Field]
  ) throws(ImportError) -> Answer {
    .file(
      FileAnswer(
        path: try object.filePath(.fileURL), contentType: try object.string(.contentType),
        fileName: try object.string(.fileName)))
  }
}
