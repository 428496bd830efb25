// One run's share of the wide tables, worked out apart from the pivot (on a parsing thread).
import RKModel
import RKTable

/// What `WidePivot.register(_:)` needs of one task run: its run cells and, per result, the
/// question, what its value says about the column, and the cells of its partial-row pairs.
///
/// Everything that does not depend on the pivot's state (answer encoding, value kinds, option
/// texts) is done here, so the pivot's single thread only numbers questions and options.
public struct WideRunContribution: Sendable {
  public var taskID: String
  /// `participant_id, task_run_uuid, task_start, task_end, task_duration_s`.
  public var runCells: [Cell]
  /// How many (key, value) pairs the partial row has: per answered question one, plus one per
  /// chosen option. `register` returns their keys; `forEachPairValue` gives their values.
  public private(set) var pairCount: Int
  var results: [WideResult]

  /// The run's contribution, values encoded as the flattener encodes answers.csv values.
  public init(_ run: borrowing TaskRun, flattener: Flattener) {
    self.init(run, encoder: flattener.encoder)
  }

  init(_ run: borrowing TaskRun, encoder: AnswerEncoder) {
    self.init(run: run)
    results.reserveCapacity(run.steps.reduce(0) { $0 + $1.results.count })
    run.forEachRecordInPlace { record, step in
      append(WideResult(record, step: step, encoder: encoder))
    }
  }

  /// The run's cells, without results yet.
  fileprivate init(run: borrowing TaskRun) {
    taskID = run.taskIdentifier
    runCells = [
      .text(run.participantID), textCell(run.runUUID), instantCell(run.startDate),
      instantCell(run.endDate), secondsCell(run.durationSeconds),
    ]
    pairCount = 0
    results = []
  }

  /// Appends `result` (the next of the run, in archive order).
  fileprivate mutating func append(_ result: consuming WideResult) {
    if result.isAnswered { pairCount += 1 + result.options.count }
    results.append(consume result)
  }

  /// The values of the partial row's pairs, in order: per answered question its packed value,
  /// then `.integer(1)` per chosen option. (Read from the results: an array of them was one
  /// more allocation and a copy of every value, per run.)
  public func forEachPairValue(_ body: (Cell) -> Void) {
    results.withUnsafeBufferPointer { results in
      for index in results.indices where results[index].isAnswered {
        body(results[index].packed)
        for _ in results[index].options { body(.integer(1)) }
      }
    }
  }
}

/// One result as the pivot sees it.
struct WideResult: Sendable {
  var key: QuestionKey
  var answerType: AnswerType
  var kinds: ValueKinds
  var isChoice: Bool
  /// Evidence of several selections (see `WideQuestion.allowsSeveral`).
  var allowsSeveral: Bool
  var isAnswered: Bool
  /// The question's single cell (`WidePivot.packedValue`).
  var packed: Cell
  /// Chosen options with a text (null values left out), in archive order.
  var options: [WideOption]

  /// `record` is read field by field, in place (see `WideRunContribution.init`).
  /// `packed`, when given, is the answer's one value as answers.csv encodes it.
  init(
    _ record: UnsafePointer<ResultRecord>, step: String, encoder: AnswerEncoder,
    packed single: Cell? = nil
  ) {
    key = QuestionKey(step: step, item: record.pointee.identifier)
    answerType = record.pointee.answerType
    packed = single ?? WideResult.packedValue(record.pointee.answer, encoder: encoder)
    kinds = ValueKinds(packed)
    var choices: [ChoiceValue] = []
    if case .choices(let values) = record.pointee.answer { choices = values }
    isChoice = record.pointee.answerType == .choice || !choices.isEmpty
    allowsSeveral = isChoice && (record.pointee.questionType != 2 || choices.count > 1)
    isAnswered = AnswerStatus(record.pointee.answer) == .answered
    options = []
    guard isAnswered else { return }
    for choice in choices {
      guard let text = WidePivot.optionText(choice) else { continue }
      var number: Double?
      if case .number(let value) = choice { number = value.double }
      options.append(WideOption(text: text, number: number))
    }
  }

  /// The question's single cell: the answers.csv value when there is one value, else the
  /// values' texts joined with `;` (null choices left out).
  static func packedValue(_ answer: borrowing Answer, encoder: AnswerEncoder) -> Cell {
    var first = Cell.empty
    var count = 0
    encoder.forEachValue(of: answer) { value in
      if count == 0 { first = value.value }
      count += 1
    }
    if count == 1 { return first }
    let texts: [String]
    switch answer {
    case .choices(let choices), .components(let choices, _):
      texts = choices.compactMap(WidePivot.optionText)
    default:
      texts = []
    }
    return texts.isEmpty ? .empty : .text(texts.joined(separator: ";"))
  }
}

extension Flattener {
  /// `appendAnswerRows(run, to:)` that also makes the run's wide-table contribution in the same
  /// pass: each answer is encoded once, for its answers.csv rows and its packed wide value (a
  /// second encoding per answer cost ~1.5 % of a CSV export). Returns the number of rows and
  /// the contribution, the same as `WideRunContribution(run, flattener: self)`.
  public func appendAnswerRowsAndWideShare<Builder: RowBuilder & ~Copyable>(
    _ run: TaskRun, to builder: inout Builder
  ) -> (rows: Int, wide: WideRunContribution) {
    var wide = WideRunContribution(run: run)
    wide.results.reserveCapacity(run.steps.reduce(0) { $0 + $1.results.count })
    var rows = 0
    run.forEachRecordInPlace { record, step in
      var first = Cell.empty
      let count = appendAnswerRows(
        of: record, step: step, run: run, to: &builder, firstValue: &first)
      rows += count
      // One row: its value is the packed value; a generic result's row names its class in its
      // JSON, which the wide tables' value does not.
      let single = count == 1 && !record.pointee.answer.isFields ? first : nil
      wide.append(WideResult(record, step: step, encoder: encoder, packed: single))
    }
    return (rows, wide)
  }
}
