// One per-question answer file of a Bridge v1_legacy upload → one step with one result
// (formats.md §5.2: questionTypeName picks the answer key, as the Bridge server does).
import RKModel

/// Reads AppCore / ResearchUXFactory answer files (`item`, `startDate`, `endDate`,
/// `questionTypeName`, the typed answer key, `unit`).
enum BridgeAnswerFile {
  /// questionTypeName → (answer key, answer type); BridgeServer2 `SURVEY_TYPE_TO_ANSWER_KEY_MAP`
  /// ("None" really reads `scaleAnswer`), plus ResearchUXFactory's Height (a numeric answer).
  static let answerKeys: [String: (key: String, type: AnswerType)] = [
    "Boolean": ("booleanAnswer", .boolean),
    "Date": ("dateAnswer", .date),
    "DateAndTime": ("dateAnswer", .date),
    "Decimal": ("numericAnswer", .numeric),
    "Integer": ("numericAnswer", .numeric),
    "Height": ("numericAnswer", .numeric),
    "SingleChoice": ("choiceAnswers", .choice),
    "MultipleChoice": ("choiceAnswers", .choice),
    "Scale": ("scaleAnswer", .scale),
    "None": ("scaleAnswer", .scale),
    "Text": ("textAnswer", .text),
    "TimeInterval": ("intervalAnswer", .timeInterval),
    "TimeOfDay": ("dateComponentsAnswer", .timeOfDay),
  ]

  /// Answer keys in the order tried when a file names no known question type.
  static let keyTypes: [(key: String, type: AnswerType)] = [
    ("booleanAnswer", .boolean), ("choiceAnswers", .choice), ("scaleAnswer", .scale),
    ("numericAnswer", .numeric), ("textAnswer", .text), ("dateAnswer", .date),
    ("dateComponentsAnswer", .timeOfDay), ("intervalAnswer", .timeInterval),
  ]

  static let consumedKeys: Set<String> = [
    "item", "identifier", "startDate", "endDate", "questionType", "questionTypeName", "answer",
    "unit",
  ]

  /// The step for one answer file; a data file without any answer key (e.g. an active task's
  /// JSON) becomes a step holding one `other` result with every key kept.
  static func step(from value: JSONItem, file: String, notes: inout [String]) throws
    -> StepRecord
  {
    guard let members = value.objectMembers else {
      throw ImportError(
        location: file, reason: "expected an object, found \(value.kindDescription)")
    }
    let identifier =
      value["item"]?.stringValue ?? value["identifier"]?.stringValue ?? baseName(file)
    let start = value["startDate"]?.dateText?.instant
    let end = value["endDate"]?.dateText?.instant
    let typeName = value["questionTypeName"]?.stringValue ?? value["questionType"]?.stringValue
    let mapped =
      typeName.flatMap { answerKeys[$0] } ?? keyTypes.first { value[$0.key] != nil }
    guard let (key, type) = mapped else {
      let result = ResultRecord(
        identifier: identifier, className: "bridge:data", answerType: .other,
        answer: .fields(members.map { Field($0.key, $0.value.keyedValue) }), startDate: start,
        endDate: end)
      return StepRecord(identifier: identifier, startDate: start, endDate: end, results: [result])
    }
    // ResearchUXFactory also writes `answer` (the first choice only for single choice).
    let raw = value[key] ?? value["answer"]
    let extra = members.filter { !consumedKeys.contains($0.key) && $0.key != key }
      .map { Field($0.key, $0.value.keyedValue) }
    let answer = decode(raw, as: type, unit: value["unit"]?.stringValue)
    if answer == nil {
      // A value of the wrong shape is kept verbatim as an `other` result, never dropped.
      notes.append(
        "\(file): \(key) is \(raw?.kindDescription ?? "null"), not a \(type.rawValue) answer; kept raw"
      )
    }
    let result = ResultRecord(
      identifier: identifier, className: "bridge:\(typeName ?? key)",
      answerType: answer == nil ? .other : type,
      answer: answer ?? .fields([Field(key, raw?.keyedValue ?? .null)]), startDate: start,
      endDate: end,
      questionType: value["questionType"]?.numberValue?.int64Value.map { Int($0) }, extra: extra)
    return StepRecord(identifier: identifier, startDate: start, endDate: end, results: [result])
  }

  /// The typed answer, `.skipped` for null (or none), or nil when the value has the wrong
  /// shape.
  static func decode(_ raw: JSONItem?, as type: AnswerType, unit: String?) -> Answer? {
    guard let raw, !raw.isNull else { return .skipped }
    switch type {
    case .boolean:
      if let flag = raw.boolValue { return .boolean(flag) }
      // AppCore turns "yes"/"no" strings and NSNumber Booleans into 1/0.
      if let number = raw.numberValue, number.double == 0 || number.double == 1 {
        return .boolean(number.double == 1)
      }
      return nil
    case .choice:
      if let elements = raw.arrayValue {
        let values = elements.compactMap(choiceValue)
        return values.count == elements.count ? .choices(values) : nil
      }
      return choiceValue(raw).map { .choices([$0]) }
    case .scale:
      return raw.numberValue.map { .scale($0.numberValue) }
    case .numeric:
      return raw.numberValue.map { .numeric($0.numberValue, unit: unit, displayUnit: nil) }
    case .text:
      return raw.stringValue.map { .text($0) }
    case .date:
      return raw.dateText.map { .date($0.dateAnswer) }
    case .timeOfDay:
      return raw.stringValue.flatMap(JSONDateText.timeOfDay).map { .timeOfDay($0) }
    case .timeInterval:
      return raw.numberValue.map { .timeInterval($0.double) }
    default:
      return nil
    }
  }

  static func choiceValue(_ value: some JSONScalars) -> ChoiceValue? {
    if let text = value.stringValue { return .text(text) }
    if let number = value.numberValue { return .number(number.numberValue) }
    if value.isNull { return .null }
    return value.boolValue.map { .number(NumberValue($0 ? 1 : 0)) }
  }

  /// The file's name without its folders and its extension, by bytes (a slash or a dot
  /// followed by a combining mark is one Character with it).
  static func baseName(_ file: String) -> String {
    let last = zipEntryComponents(file).last ?? file
    let bytes = last.utf8
    guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex else {
      return last
    }
    return String(Substring(bytes[..<dot]))
  }
}
