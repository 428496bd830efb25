// Reads a SurveyNative questions file (`{"questions": […], "submit": {…}}`, README "JSON Input")
// into labels for the codebook (`TaskDefinition`) and the rules that interpret answers.
import Foundation
import RKModel

/// A survey definition ready for `ImportOptions`: labels plus rules.
public struct SurveyDefinition: Sendable, Equatable {
  public var definition: TaskDefinition
  public var rules: SurveyRules

  public init(definition: TaskDefinition, rules: SurveyRules) {
    self.definition = definition
    self.rules = rules
  }
}

/// Reads SurveyNative definition files.
public enum SurveyDefinitionReader {
  /// Reads a definition; the task id is `fileName` without its extension
  /// (`diet-v2.json` → `diet-v2`). Throws `ImportError` naming the question that is malformed.
  public static func read(_ bytes: [UInt8], fileName: String) throws -> (
    TaskDefinition, SurveyRules
  ) {
    let root = try JSONParser().parse(bytes)
    guard let questions = root["questions"]?.arrayValue else {
      throw ImportError(reason: "not a SurveyNative definition: no \"questions\" array")
    }
    let taskID = BridgeAnswerFile.baseName(fileName)
    var rules: [SurveyQuestion] = []
    var labels: [QuestionDefinition] = []
    for (index, value) in questions.enumerated() {
      let question = try readQuestion(value, location: "questions[\(index)]")
      rules.append(question)
      labels += questionLabels(value, stepID: question.id)
      // A sub-question's step is its parent (design.md §4).
      for sub in value["sub_questions"]?.arrayValue ?? [] {
        labels += questionLabels(sub, stepID: question.id)
      }
    }
    return (
      TaskDefinition(taskIdentifier: taskID, questions: labels),
      SurveyRules(taskIdentifier: taskID, questions: rules)
    )
  }

  /// Reads a definition file from disk (the command line's `--survey-definition FILE`).
  public static func read(path: String) throws -> SurveyDefinition {
    let name = (path as NSString).lastPathComponent
    do {
      let (definition, rules) = try read(readFile(path, limit: 64 << 20), fileName: name)
      return SurveyDefinition(definition: definition, rules: rules)
    } catch let error as ImportError {
      throw error.inFile(name)
    }
  }

  /// True when `value` is a SurveyNative definition (a `questions` array of objects with
  /// `question_type`), so the sniffer can skip definition files found among the inputs.
  public static func isDefinition(_ value: JSONValue) -> Bool {
    guard let questions = value["questions"]?.arrayValue, let first = questions.first else {
      return false
    }
    return first["question_type"]?.stringValue != nil
  }

  static func readQuestion(_ value: JSONValue, location: String) throws -> SurveyQuestion {
    guard let id = value["id"]?.stringValue, let type = value["question_type"]?.stringValue else {
      throw ImportError(
        location: location, reason: "a question needs string \"id\" and \"question_type\"")
    }
    var question = SurveyQuestion(id: id, questionType: type)
    for option in value["options"]?.arrayValue ?? [] {
      if let title = option.stringValue {
        question.options.append(title)
      } else if let title = option["title"]?.stringValue {
        question.otherOption = title
        question.otherValidations = validations(option["validations"])
      }
    }
    if type == "segment_select" {
      question.options = (value["values"]?.arrayValue ?? []).compactMap(\.stringValue)
    }
    question.showIf = value["show_if"].map(condition)
    question.validations = validations(value["validations"])
    for (index, sub) in (value["sub_questions"]?.arrayValue ?? []).enumerated() {
      question.subQuestions.append(
        try readQuestion(sub, location: "\(location) (\(id)) sub_questions[\(index)]"))
    }
    return question
  }

  static func condition(_ value: JSONValue) -> SurveyCondition {
    let operation = value["operation"]?.stringValue
    if let id = value["id"]?.stringValue, let operation {
      return .compare(
        id: id, subid: value["subid"]?.stringValue, operation: operation,
        value: value["value"] ?? .null)
    }
    if let subconditions = value["subconditions"]?.arrayValue, let operation {
      let parts = subconditions.map(condition)
      switch operation {
      case "and": return .all(parts)
      case "or": return .any(parts)
      default: return .malformed  // SurveyNative shows the question for an unknown tree operation
      }
    }
    if operation == "custom" {
      return .custom(ids: (value["ids"]?.arrayValue ?? []).compactMap(\.stringValue))
    }
    return .malformed
  }

  static func validations(_ value: JSONValue?) -> [SurveyValidation] {
    (value?.arrayValue ?? []).compactMap { rule in
      guard let operation = rule["operation"]?.stringValue else { return nil }
      return SurveyValidation(
        operation: operation, value: rule["value"],
        answerToQuestionID: rule["answer_to_question_id"]?.stringValue,
        forLabel: rule["for_label"]?.stringValue, failMessage: rule["on_fail_message"]?.stringValue)
    }
  }
}
