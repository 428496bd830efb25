// SurveyNative answer values → results (design.md §4). Shapes as SurveyQuestions.swift and the
// table cells store them: single_select a string, or `{"<Other title>": typed}`; multi_select a
// list (typed "Other" text appended); year_picker `"1990"`; date_picker `"yyyy-MM-dd"`; text
// fields a string; add_text_field a list; multi_text_field and dynamic_label_text_field
// `{label: text}`; table_select `{row id: option}`; segment_select one of `values`.
import RKModel

enum SurveyAnswerTyping {
  /// The answer type a question type yields.
  static func answerType(_ questionType: String?) -> AnswerType {
    switch questionType {
    case "single_select", "multi_select", "segment_select", "table_select": return .choice
    case "year_picker": return .numeric
    case "date_picker": return .date
    case "single_text_field", "single_text_area", "add_text_field", "multi_text_field",
      "dynamic_label_text_field":
      return .text
    default: return .other
    }
  }

  /// `surveynative:<question type>`, the results' class name (`unknown` without a type). The
  /// known types' names are literals: a String made per answer cost ~480 instructions.
  static func className(_ questionType: String?) -> String {
    switch questionType {
    case nil: return "surveynative:unknown"
    case "single_select": return "surveynative:single_select"
    case "multi_select": return "surveynative:multi_select"
    case "segment_select": return "surveynative:segment_select"
    case "table_select": return "surveynative:table_select"
    case "year_picker": return "surveynative:year_picker"
    case "date_picker": return "surveynative:date_picker"
    case "single_text_field": return "surveynative:single_text_field"
    case "single_text_area": return "surveynative:single_text_area"
    case "add_text_field": return "surveynative:add_text_field"
    case "multi_text_field": return "surveynative:multi_text_field"
    case "dynamic_label_text_field": return "surveynative:dynamic_label_text_field"
    case let other?: return "surveynative:\(other)"
    }
  }

  /// The results of one answer: one result, or one per key of a dict answer
  /// (`<id>.<key>`). `[]`, `{}` and `""` give one skipped result with the question's id.
  static func results(
    id: String, type: String?, value: JSONValue
  ) -> [ResultRecord] {
    let className = Self.className(type)
    func result(_ itemID: String, _ answerType: AnswerType, _ answer: Answer) -> ResultRecord {
      ResultRecord(identifier: itemID, className: className, answerType: answerType, answer: answer)
    }
    if value.stringValue == "" || value.arrayValue?.isEmpty == true
      || value.objectMembers?.isEmpty == true || value.isNull
    {
      return [result(id, type.map(answerType) ?? .other, .skipped)]
    }
    switch (type, value) {
    case ("single_select", .string(let text)), ("segment_select", .string(let text)):
      return [result(id, .choice, .choices([.text(text)]))]
    case ("single_select", .object(let members)) where members.count == 1:
      // The "Other" option: the typed text is the answer (design.md §4).
      guard let typed = members[0].value.stringValue else { break }
      var other = result(id, .choice, typed.isEmpty ? .skipped : .choices([.text(typed)]))
      other.extra = [Field("other_option", .string(members[0].key))]
      return [other]
    case ("multi_select", .array(let elements)):
      let texts = elements.compactMap(\.stringValue)
      guard texts.count == elements.count else { break }
      return [result(id, .choice, .choices(texts.map { .text($0) }))]
    case ("year_picker", .string(let text)):
      guard let year = Int64(text) else { break }
      return [result(id, .numeric, .numeric(NumberValue(year), unit: nil, displayUnit: nil))]
    case ("date_picker", .string(let text)):
      guard let date = JSONDateText(text) else { break }
      return [result(id, .date, .date(date.dateAnswer))]
    case ("single_text_field", .string(let text)), ("single_text_area", .string(let text)):
      return [result(id, .text, .text(text))]
    case ("add_text_field", .array(let elements)):
      // A list of typed texts: one value per element, in file order.
      let texts = elements.compactMap(\.stringValue)
      guard texts.count == elements.count else { break }
      return [result(id, .text, .choices(texts.map { .text($0) }))]
    case ("multi_text_field", .object(let members)),
      ("dynamic_label_text_field", .object(let members)):
      return members.map { member in
        guard let text = member.value.stringValue else {
          return inferred("\(id).\(member.key)", member.value, className)
        }
        return result("\(id).\(member.key)", .text, text.isEmpty ? .skipped : .text(text))
      }
    case ("table_select", .object(let members)):
      return members.map { member in
        guard let text = member.value.stringValue else {
          return inferred("\(id).\(member.key)", member.value, className)
        }
        return result(
          "\(id).\(member.key)", .choice, text.isEmpty ? .skipped : .choices([.text(text)]))
      }
    default:
      break
    }
    // No definition, an unknown question type, or a value of an unexpected shape: type by shape.
    if let members = value.objectMembers {
      return members.map { inferred("\(id).\($0.key)", $0.value, className) }
    }
    return [inferred(id, value, className)]
  }

  /// A result typed from the JSON value alone.
  static func inferred(_ id: String, _ value: JSONValue, _ className: String) -> ResultRecord {
    let (type, answer): (AnswerType, Answer)
    switch value {
    case .null: (type, answer) = (.other, .skipped)
    case .bool(let flag): (type, answer) = (.boolean, .boolean(flag))
    case .number(let number):
      (type, answer) = (.numeric, .numeric(number.numberValue, unit: nil, displayUnit: nil))
    case .string(let text): (type, answer) = (.text, text.isEmpty ? .skipped : .text(text))
    case .array(let elements):
      let values = elements.compactMap(BridgeAnswerFile.choiceValue)
      (type, answer) =
        values.count == elements.count
        ? (.choice, .choices(values)) : (.other, .fields([Field("answer", value.keyedValue)]))
    case .object(let members):
      (type, answer) = (.other, .fields(members.map { Field($0.key, $0.value.keyedValue) }))
    }
    return ResultRecord(identifier: id, className: className, answerType: type, answer: answer)
  }
}
