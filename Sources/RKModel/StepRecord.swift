// One step of a task run (ORKStepResult) and the results it holds.

/// One step result: an instruction step (no results), a question step (one result) or a
/// form step (one result per form item).
public struct StepRecord: Sendable, Equatable {
  /// The step's identifier (`ORKStepResult.identifier`).
  public var identifier: String
  public var startDate: Instant?
  public var endDate: Instant?
  /// Question, file and active-task results, in archive order.
  public var results: [ResultRecord]
  /// Unmodelled keys of the step result itself (e.g. `enabledAssistiveTechnology`, `userInfo`).
  public var extra: [Field]

  public init(
    identifier: String, startDate: Instant? = nil, endDate: Instant? = nil,
    results: [ResultRecord] = [], extra: [Field] = []
  ) {
    self.identifier = identifier
    self.startDate = startDate
    self.endDate = endDate
    self.results = results
    self.extra = extra
  }

  public var durationSeconds: Double? { RKModel.durationSeconds(from: startDate, to: endDate) }
}

/// One result inside a step: a question result, a file result, or any other `ORKResult`
/// subclass (active tasks, consent, …) kept as generic keyed values.
public struct ResultRecord: Sendable, Equatable {
  /// The item's identifier (`ORKResult.identifier`; a form item's identifier in form steps).
  public var identifier: String
  /// The class as archived (`ORKChoiceQuestionResult`, or an app's subclass name).
  public var className: String
  /// What kind of answer this is, from the class (never from the unstable `questionType`).
  public var answerType: AnswerType
  public var answer: Answer
  public var startDate: Instant?
  public var endDate: Instant?
  /// The raw `questionType` integer when archived (its numbering changed between versions).
  public var questionType: Int?
  /// Keys the decoder did not model, kept so nothing is lost (e.g. `userInfo`, `questionText`).
  public var extra: [Field]

  public init(
    identifier: String, className: String, answerType: AnswerType, answer: Answer,
    startDate: Instant? = nil, endDate: Instant? = nil, questionType: Int? = nil,
    extra: [Field] = []
  ) {
    self.identifier = identifier
    self.className = className
    self.answerType = answerType
    self.answer = answer
    self.startDate = startDate
    self.endDate = endDate
    self.questionType = questionType
    self.extra = extra
  }

  public var durationSeconds: Double? { RKModel.durationSeconds(from: startDate, to: endDate) }
}
