// Codebook labels of a SurveyNative definition: one entry per item id answers.csv will hold
// (dict answers as `<question id>.<key>`), with the question text and the options shown.
import RKModel

extension SurveyDefinitionReader {
  static func questionLabels(_ value: JSONValue, stepID: String) -> [QuestionDefinition] {
    guard let id = value["id"]?.stringValue else { return [] }
    let text = value["question"]?.stringValue
    let options = (value["options"]?.arrayValue ?? []).compactMap(\.stringValue).map {
      ChoiceOption(value: $0, text: $0)
    }
    func part(_ key: String, _ label: String?) -> QuestionDefinition {
      let partText = [text, label].compactMap { $0 }.joined(separator: " ")
      return QuestionDefinition(
        stepIdentifier: stepID, itemIdentifier: "\(id).\(key)",
        text: partText.isEmpty ? nil : partText, options: options)
    }
    switch value["question_type"]?.stringValue {
    case "table_select":
      return (value["table_questions"]?.arrayValue ?? []).compactMap { row in
        row["id"]?.stringValue.map { part($0, row["title"]?.stringValue) }
      }
    case "multi_text_field":
      return (value["fields"]?.arrayValue ?? []).compactMap { field in
        field["label"]?.stringValue.map { part($0, $0) }
      }
    case "dynamic_label_text_field":
      var labels: [String] = []
      for option in value["label_options"]?.arrayValue ?? [] {
        let names = option.arrayValue?.compactMap(\.stringValue) ?? option.stringValue.map { [$0] }
        for name in names ?? [] where !labels.contains(name) { labels.append(name) }
      }
      return labels.map { part($0, $0) }
    case "segment_select":
      let values = (value["values"]?.arrayValue ?? []).compactMap(\.stringValue)
      return [
        QuestionDefinition(
          stepIdentifier: stepID, itemIdentifier: id, text: text,
          options: values.map { ChoiceOption(value: $0, text: $0) })
      ]
    default:
      return [
        QuestionDefinition(stepIdentifier: stepID, itemIdentifier: id, text: text, options: options)
      ]
    }
  }
}
