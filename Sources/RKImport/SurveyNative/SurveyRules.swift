// What a SurveyNative definition says about answers: question types, sub-questions, `show_if`
// conditions and `validations`, evaluated as recoveryrecord/SurveyNative's SurveyQuestions.swift
// (conditionMet, numberComparison) and DefaultValidator.swift do.

/// The rules of one SurveyNative survey, read by `SurveyDefinitionReader`.
public struct SurveyRules: Sendable, Equatable {
  /// The definition file's name without extension.
  public var taskIdentifier: String
  /// Top-level questions in order; sub-questions inside them.
  public var questions: [SurveyQuestion] {
    didSet { questionIDs = Self.ids(of: questions) }
  }

  /// Every question id (top-level and sub-questions). Kept, not worked out when asked: it is
  /// asked twice per submission, and making the set cost ~23 k instructions, a tenth of a
  /// submission's import.
  public private(set) var questionIDs: Set<String>

  public init(taskIdentifier: String, questions: [SurveyQuestion]) {
    self.taskIdentifier = taskIdentifier
    self.questions = questions
    questionIDs = Self.ids(of: questions)
  }

  private static func ids(of questions: [SurveyQuestion]) -> Set<String> {
    Set(questions.flatMap { [$0.id] + $0.subQuestions.map(\.id) })
  }
}

/// One question of a SurveyNative definition.
public struct SurveyQuestion: Sendable, Equatable {
  public var id: String
  /// `single_select`, `multi_select`, `year_picker`, `date_picker`, `single_text_field`, …
  public var questionType: String
  /// Plain option titles (select and table questions; segment values).
  public var options: [String]
  /// The title of the free-text "Other" option, when there is one.
  public var otherOption: String?
  /// Validations of the "Other" option's typed text.
  public var otherValidations: [SurveyValidation]
  public var showIf: SurveyCondition?
  public var validations: [SurveyValidation]
  public var subQuestions: [SurveyQuestion]

  public init(
    id: String, questionType: String, options: [String] = [], otherOption: String? = nil,
    otherValidations: [SurveyValidation] = [], showIf: SurveyCondition? = nil,
    validations: [SurveyValidation] = [], subQuestions: [SurveyQuestion] = []
  ) {
    self.id = id
    self.questionType = questionType
    self.options = options
    self.otherOption = otherOption
    self.otherValidations = otherValidations
    self.showIf = showIf
    self.validations = validations
    self.subQuestions = subQuestions
  }
}

/// A `show_if` condition.
public indirect enum SurveyCondition: Sendable, Equatable {
  /// `{"id", "subid"?, "operation", "value"}`: `equals`, `not equals`, `greater than`,
  /// `greater than or equal to`, `less than`, `less than or equal to`, `contains`, `not contains`.
  case compare(id: String, subid: String?, operation: String, value: JSONValue)
  /// `{"operation": "and", "subconditions": […]}`.
  case all([SurveyCondition])
  /// `{"operation": "or", "subconditions": […]}`.
  case any([SurveyCondition])
  /// `{"operation": "custom", "ids": […]}`: decided by app code, so unknown offline.
  case custom(ids: [String])
  /// A condition SurveyNative cannot read either; like SurveyNative, it shows the question.
  case malformed

  /// Whether the condition holds for `answers` (nil when it depends on a custom condition).
  public func isMet(_ answers: [String: JSONValue]) -> Bool? {
    switch self {
    case .compare(let id, let subid, let operation, let value):
      var answer = answers[id]
      if let subid, let members = answer?.objectMembers {
        answer = members.first { $0.key == subid }?.value
      }
      return SurveyComparison.holds(operation, answer: answer, value: value)
    case .all(let conditions):
      let results = conditions.map { $0.isMet(answers) }
      if results.contains(false) { return false }
      return results.contains(nil) ? nil : true
    case .any(let conditions):
      let results = conditions.map { $0.isMet(answers) }
      if results.contains(true) { return true }
      return results.contains(nil) ? nil : false
    case .custom: return nil
    case .malformed: return true
    }
  }
}

/// One entry of a question's `validations`.
public struct SurveyValidation: Sendable, Equatable {
  public var operation: String
  public var value: JSONValue?
  /// Compare with another question's answer instead of `value`.
  public var answerToQuestionID: String?
  /// The `dynamic_label_text_field` label the rule applies to.
  public var forLabel: String?
  public var failMessage: String?

  public init(
    operation: String, value: JSONValue? = nil, answerToQuestionID: String? = nil,
    forLabel: String? = nil, failMessage: String? = nil
  ) {
    self.operation = operation
    self.value = value
    self.answerToQuestionID = answerToQuestionID
    self.forLabel = forLabel
    self.failMessage = failMessage
  }

  /// Whether `answer` passes (nil when the rule cannot be checked: the compared answer is
  /// missing). SurveyNative's DefaultValidator only implements the four number comparisons;
  /// `equals` and `not equals`, documented in its README, compare as show_if does.
  public func passes(_ answer: String, answers: [String: JSONValue]) -> Bool? {
    let target: JSONValue?
    if let answerToQuestionID {
      guard let other = answers[answerToQuestionID] else { return nil }
      target = other
    } else {
      target = value
    }
    guard let target else { return nil }
    return SurveyComparison.holds(operation, answer: .string(answer), value: target)
  }

  /// The rule in words for notes: `greater than 10` or `less than or equal to answer of age`.
  public var summary: String {
    if let answerToQuestionID { return "\(operation) answer of \(answerToQuestionID)" }
    return "\(operation) \(value.map(SurveyComparison.text) ?? "")"
  }
}
