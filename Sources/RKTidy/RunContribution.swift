// One run's share of the derived tables (wide tables and statistics), worked out on a parsing
// thread apart from the pivot and the collector.
import RKModel
import RKTable

/// What `WidePivot.register(_:pairs:)` and `StatisticsCollector.add(_:)` need of one task run: its
/// run cells, identity and durations and, per result, the question, what its value says about
/// the column, its status, its numeric value and the cells of its partial-row pairs.
///
/// Everything that does not depend on the pivot's or the collector's state (answer encoding,
/// value kinds, option texts, statuses) is done here, once for both, so their single thread
/// only numbers questions and options and adds numbers. (The statistics had a contribution of
/// their own until session 26: a second walk of every run and three more arrays per run.)
public struct RunContribution: Sendable {
  public var taskID: String
  /// How many (key, value) pairs the partial row has: per answered question one, plus one per
  /// chosen option (`WidePivot.register(_:pairs:)` gives them).
  public private(set) var pairCount: Int
  var results: [ResultContribution]
  var participantID: String
  var runUUID: String?
  var source: String
  var startDate: Instant?
  var endDate: Instant?
  /// The run's duration when finite.
  var durationSeconds: Double?
  /// Steps with a finite duration, in run order.
  var stepDurations: [StepDuration]
  /// False for a contribution to the statistics alone (no packed wide values were made): it
  /// feeds no wide table.
  public let hasWideValues: Bool
}

extension RunContribution {
  /// The run's contribution, values encoded as the flattener encodes answers.csv values.
  public init(_ run: borrowing TaskRun, flattener: Flattener) {
    self.init(run, encoder: flattener.encoder)
  }

  /// The run's contribution to the statistics alone (`rkexport stats`): the wide values, which
  /// the statistics do not read, are not made. `WidePivot.register` refuses it.
  public init(statisticsOf run: borrowing TaskRun) {
    self.init(run, encoder: nil)
  }

  /// `encoder` nil: no wide values.
  init(_ run: borrowing TaskRun, encoder: AnswerEncoder?) {
    self.init(run: run, hasWideValues: encoder != nil)
    results.reserveCapacity(run.steps.reduce(0) { $0 + $1.results.count })
    run.forEachRecordInPlace { record, step in
      append(ResultContribution(record, step: step, encoder: encoder))
    }
  }

  /// The run's cells, identity and durations, without results yet. Built through the
  /// memberwise initializer (see `TaskRun.init`): set field by field, the finished value was
  /// copied once and the original destroyed.
  fileprivate init(run: borrowing TaskRun, hasWideValues: Bool = true) {
    var stepDurations: [StepDuration] = []
    stepDurations.reserveCapacity(run.steps.count)
    for index in run.steps.indices {
      if let duration = run.steps[index].durationSeconds, duration.isFinite {
        stepDurations.append(StepDuration(step: run.steps[index].identifier, seconds: duration))
      }
    }
    self.init(
      taskID: run.taskIdentifier, pairCount: 0, results: [], participantID: run.participantID,
      runUUID: run.runUUID, source: run.source, startDate: run.startDate, endDate: run.endDate,
      durationSeconds: run.durationSeconds.flatMap { $0.isFinite ? $0 : nil },
      stepDurations: stepDurations, hasWideValues: hasWideValues)
  }

  /// Orders the run among all runs, whatever order they are added in.
  var order: RunOrder { RunOrder(source: source, runUUID: runUUID ?? "") }

  /// The wide row's run cells: `participant_id, task_run_uuid, task_start, task_end,
  /// task_duration_s` (`WidePartialRow.runCellCount`).
  public var runCells: [Cell] {
    var cells: [Cell] = []
    cells.reserveCapacity(WidePartialRow.runCellCount)
    forEachRunCell { cells.append($0) }
    return cells
  }

  /// Gives the run cells to `body` in order: made from the run's fields where they are
  /// written, not kept as an array per run.
  public func forEachRunCell(_ body: (Cell) -> Void) {
    body(.text(participantID))
    body(textCell(runUUID))
    body(instantCell(startDate))
    body(instantCell(endDate))
    body(secondsCell(durationSeconds))
  }

  /// Appends `result` (the next of the run, in archive order).
  fileprivate mutating func append(_ result: consuming ResultContribution) {
    if result.isAnswered { pairCount += 1 + result.options.count }
    results.append(consume result)
  }
}

struct StepDuration: Sendable {
  var step: String
  var seconds: Double
}

/// One result as the pivot and the collector see it.
struct ResultContribution: Sendable {
  var key: QuestionKey
  var answerType: AnswerType
  var kinds: ValueKinds
  var isChoice: Bool
  /// Evidence of several selections (see `WideQuestion.allowsSeveral`).
  var allowsSeveral: Bool
  var status: AnswerStatus
  /// Options the statistics count besides `options`: a null choice value, a boolean's value.
  var otherOptions: OtherOptions
  /// The question's single cell (`packedValue`; empty when made for the statistics alone).
  var packed: Cell
  /// Chosen options with a text (null values left out), in archive order.
  var options: [WideOption]
  /// The value the statistics summarise (`StatisticsCollector.numericValue`), when finite.
  var numericValue: Double?
  /// The answer's duration, when finite.
  var duration: Double?

  var isAnswered: Bool { status == .answered }

  /// Chosen values the statistics count as options besides the texts of `options`.
  struct OtherOptions: OptionSet, Sendable {
    let rawValue: UInt8
    /// A choice value that is null (counted as the option `nil`).
    static let null = OtherOptions(rawValue: 1)
    static let booleanTrue = OtherOptions(rawValue: 2)
    static let booleanFalse = OtherOptions(rawValue: 4)
  }

  /// `record` is read field by field, in place (see `RunContribution.init`).
  /// `packed`, when given, is the answer's one value as answers.csv encodes it; without it and
  /// without an encoder (statistics alone) the packed value is left empty.
  init(
    _ record: UnsafePointer<ResultRecord>, step: String, encoder: AnswerEncoder?,
    packed single: Cell? = nil
  ) {
    key = QuestionKey(step: step, item: record.pointee.identifier)
    answerType = record.pointee.answerType
    packed =
      single ?? encoder.map { ResultContribution.packedValue(record.pointee.answer, encoder: $0) }
      ?? .empty
    kinds = ValueKinds(packed)
    var choices: [ChoiceValue] = []
    if case .choices(let values) = record.pointee.answer { choices = values }
    isChoice = record.pointee.answerType == .choice || !choices.isEmpty
    allowsSeveral = isChoice && (record.pointee.questionType != 2 || choices.count > 1)
    status = AnswerStatus(record.pointee.answer)
    numericValue = StatisticsCollector.numericValue(record.pointee.answer)
    duration = record.pointee.durationSeconds.flatMap { $0.isFinite ? $0 : nil }
    otherOptions = []
    if case .boolean(let value) = record.pointee.answer {
      otherOptions = value ? .booleanTrue : .booleanFalse
    }
    options = []
    for choice in choices {
      // A null value has no wide column; the statistics count it as the option `nil`.
      guard let text = WidePivot.optionText(choice) else {
        otherOptions.insert(.null)
        continue
      }
      var optionNumber: Double?
      if case .number(let value) = choice { optionNumber = value.double }
      options.append(WideOption(text: text, number: optionNumber))
    }
  }

  /// The question's single cell: the answers.csv value when there is one value, else the
  /// values' texts joined with `;` (null choices left out).
  static func packedValue(_ answer: borrowing Answer, encoder: AnswerEncoder) -> Cell {
    var first = Cell.empty
    var count = 0
    withUnsafePointer(to: answer) { answer in
      encoder.forEachValue(of: answer) { value in
        if count == 0 { first = value.value }
        count += 1
      }
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
  /// `appendAnswerRows(run, to:)` that also makes the run's contribution to the derived tables
  /// in the same pass: each answer is encoded once, for its answers.csv rows and its packed
  /// wide value (a second encoding per answer cost ~1.5 % of a CSV export). Returns the number
  /// of rows and the contribution, the same as `RunContribution(run, flattener: self)`.
  public func appendAnswerRowsAndContribution<Builder: RowBuilder & ~Copyable>(
    _ run: TaskRun, to builder: inout Builder
  ) -> (rows: Int, contribution: RunContribution) {
    var contribution = RunContribution(run: run)
    contribution.results.reserveCapacity(run.steps.reduce(0) { $0 + $1.results.count })
    var rows = 0
    run.forEachRecordInPlace { record, step in
      var first = Cell.empty
      let count = appendAnswerRows(
        of: record, step: step, run: run, to: &builder, firstValue: &first)
      rows += count
      // One row: its value is the packed value; a generic result's row names its class in its
      // JSON, which the wide tables' value does not.
      let single = count == 1 && !record.pointee.answer.isFields ? first : nil
      contribution.append(
        ResultContribution(record, step: step, encoder: encoder, packed: single))
    }
    return (rows, contribution)
  }
}
