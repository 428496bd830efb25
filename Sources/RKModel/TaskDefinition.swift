// What a task asked, when the input comes with its definition (e.g. a SurveyNative questions file).

/// Labels for a task's questions and options: the codebook's `label` and `allowed values`, and
/// the option order of wide tables. Archives carry no such text, so this is optional everywhere.
public struct TaskDefinition: Sendable, Equatable {
  public var taskIdentifier: String
  /// Questions in the order the task presents them.
  public var questions: [QuestionDefinition]

  public init(taskIdentifier: String, questions: [QuestionDefinition]) {
    self.taskIdentifier = taskIdentifier
    self.questions = questions
  }
}

/// One question (or sub-question) of a task definition.
public struct QuestionDefinition: Sendable, Equatable {
  /// The step that holds it (a sub-question's parent id).
  public var stepIdentifier: String
  /// The item id as it appears in answers.csv.
  public var itemIdentifier: String
  /// The question text shown to the participant.
  public var text: String?
  /// Allowed values in presentation order (empty when not a choice question).
  public var options: [ChoiceOption]

  public init(
    stepIdentifier: String, itemIdentifier: String, text: String? = nil,
    options: [ChoiceOption] = []
  ) {
    self.stepIdentifier = stepIdentifier
    self.itemIdentifier = itemIdentifier
    self.text = text
    self.options = options
  }
}

/// One option of a choice question: the stored value and the text shown.
public struct ChoiceOption: Sendable, Equatable {
  public var value: String
  public var text: String?

  public init(value: String, text: String? = nil) {
    self.value = value
    self.text = text
  }
}
