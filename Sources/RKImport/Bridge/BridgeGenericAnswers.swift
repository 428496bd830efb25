// The v2_generic `answers.json` of a Bridge upload: a flat map `{qid: answer, qid_unit: unit}`
// with no times (BridgeDocs bundled_zip_file_uploads.md; formats.md §5.2 item 4).
import RKModel

/// Turns a flat answers map into one step per question, in file order, times left blank.
enum BridgeGenericAnswers {
  static func steps(from value: JSONItem, file: String) throws -> [StepRecord] {
    guard let members = value.objectMembers else {
      throw ImportError(
        location: file, reason: "expected an object, found \(value.kindDescription)")
    }
    let keys = Set(members.map(\.key))
    var steps: [StepRecord] = []
    for member in members {
      // `<qid>_unit` belongs to `<qid>` when that question is present.
      if member.key.hasSuffix("_unit"), keys.contains(String(member.key.dropLast(5))) { continue }
      let unit = value["\(member.key)_unit"]?.stringValue
      let (type, answer) = typedAnswer(member.value, unit: unit)
      let result = ResultRecord(
        identifier: member.key, className: "bridge:v2_generic", answerType: type, answer: answer)
      steps.append(StepRecord(identifier: member.key, results: [result]))
    }
    return steps
  }

  /// The answer type follows the JSON value: the map carries no question types.
  static func typedAnswer(_ value: JSONItem, unit: String?) -> (AnswerType, Answer) {
    if value.isNull { return (.other, .skipped) }
    if let flag = value.boolValue { return (.boolean, .boolean(flag)) }
    if let number = value.numberValue {
      return (.numeric, .numeric(number.numberValue, unit: unit, displayUnit: nil))
    }
    if let text = value.stringValue { return (.text, .text(text)) }
    if let elements = value.arrayValue {
      let values = elements.compactMap(BridgeAnswerFile.choiceValue)
      if values.count == elements.count { return (.choice, .choices(values)) }
      return (.other, .fields([Field("answer", value.keyedValue)]))
    }
    let members = value.objectMembers ?? []
    return (.other, .fields(members.map { Field($0.key, $0.value.keyedValue) }))
  }
}
