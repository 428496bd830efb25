// TaskRun → rows of task_runs, steps and answers (design.md §4). Pure: no files, no state.
import RKModel
import RKTable

/// Flattens task runs into the long tables' rows, in `ExportSchemas` column order.
///
/// ```swift
/// let flattener = Flattener(timeZone: .utc)
/// try runsCSV.write(flattener.taskRunRow(run))
/// for row in flattener.stepRows(run) { try stepsCSV.write(row) }
/// for row in flattener.answerRows(run) { try answersCSV.write(row) }
/// ```
/// Rules beyond design.md's table:
/// - A missing run UUID, date or duration is an empty cell. Durations are end − start in
///   seconds (`Cell.seconds`; writers keep millisecond precision), negative if the input says so.
/// - Every step result gives a steps row (instruction steps too); only `ResultRecord`s give
///   answers rows, and `extra` fields of steps and results are never answers.
/// - `answer_type` is the result's type from its class; a generic result (`Answer.fields`,
///   e.g. active tasks) gives one row whose value is the JSON of its fields with `"_class"`.
/// - Choice and multiple-component answers give one row per value, value_index 1…k in archive
///   order; a `null` choice value gives a row with an empty value.
/// - A date-only answer's value is its day in the archived zone (tz name, else offset, else the
///   output zone); `time_zone` is the archived name, else the offset as `±HH:MM`.
/// - `unit` is the numeric answer's `unit`, else its `displayUnit`.
public struct Flattener: Sendable {
  /// The output zone, used for a date-only answer archived without a zone.
  public let timeZone: TimeZoneRule
  let encoder: AnswerEncoder

  public init(timeZone: TimeZoneRule = .utc) {
    self.timeZone = timeZone
    encoder = AnswerEncoder(outputZone: timeZone)
  }

  /// The run's `task_runs` row.
  public func taskRunRow(_ run: TaskRun) -> [Cell] {
    var appVersion: Cell = .empty
    var otherMetadata: [Field] = []
    for field in run.metadata {
      if case .empty = appVersion, field.name == "appVersion", case .string(let text) = field.value
      {
        appVersion = .text(text)
      } else {
        otherMetadata.append(field)
      }
    }
    let device = run.device
    return runKey(run) + [
      instantCell(run.startDate), instantCell(run.endDate), secondsCell(run.durationSeconds),
      .integer(Int64(run.steps.count)), .text(run.source),
      textCell(device?.product), textCell(device?.platform), textCell(device?.osVersion),
      textCell(device?.osBuild), appVersion,
      otherMetadata.isEmpty ? .empty : .text(KeyedValue.dictionary(otherMetadata).jsonText),
    ]
  }

  /// One `steps` row per step result, `step_index` counting from 1.
  public func stepRows(_ run: TaskRun) -> [[Cell]] {
    let key = runKey(run)
    return run.steps.enumerated().map { offset, step in
      key + [
        .integer(Int64(offset + 1)), .text(step.identifier), instantCell(step.startDate),
        instantCell(step.endDate), secondsCell(step.durationSeconds), .text(run.source),
      ]
    }
  }

  /// The `answers` rows of every result of every step, in archive order.
  public func answerRows(_ run: TaskRun) -> [[Cell]] {
    let key = runKey(run)
    var rows: [[Cell]] = []
    for step in run.steps {
      for record in step.results {
        appendAnswerRows(record, step: step, key: key, source: run.source, to: &rows)
      }
    }
    return rows
  }

  /// The number of `answers` rows `answerRows(run)` returns, without building them.
  public func answerRowCount(_ run: TaskRun) -> Int {
    run.steps.reduce(0) { total, step in
      step.results.reduce(total) { $0 + Self.valueCount($1.answer) }
    }
  }

  // MARK: - Details

  private func appendAnswerRows(
    _ record: ResultRecord, step: StepRecord, key: [Cell], source: String,
    to rows: inout [[Cell]]
  ) {
    let status = AnswerStatus(record.answer)
    let timing = [
      instantCell(record.startDate), instantCell(record.endDate),
      secondsCell(record.durationSeconds),
    ]
    let values = encoder.values(of: record.answer, className: record.className)
    for (offset, value) in values.enumerated() {
      var row = key
      row.reserveCapacity(ExportSchemas.answers.columns.count)
      row += [
        .text(step.identifier), .text(record.identifier), .text(record.answerType.rawValue),
        .text(status.rawValue), .integer(Int64(offset + 1)),
        value.value, value.number, value.datetime, value.unit,
      ]
      row += timing
      row += [
        .text(source), value.timeZone, value.latitude, value.longitude, value.contentType,
      ]
      rows.append(row)
    }
  }

  static func valueCount(_ answer: Answer) -> Int {
    switch answer {
    case .choices(let values), .components(let values, _): return max(values.count, 1)
    default: return 1
    }
  }

  private func runKey(_ run: TaskRun) -> [Cell] {
    [.text(run.participantID), .text(run.taskIdentifier), textCell(run.runUUID)]
  }
}

/// Text, or empty for nil. (An empty string stays an empty cell either way in CSV.)
func textCell(_ text: String?) -> Cell { text.map { .text($0) } ?? .empty }

/// An instant cell, or empty when missing or beyond what outputs can write.
func instantCell(_ instant: Instant?) -> Cell {
  instant.map(AnswerEncoder.cell) ?? .empty
}

/// A duration cell, or empty when missing or not finite.
func secondsCell(_ seconds: Double?) -> Cell {
  guard let seconds, seconds.isFinite else { return .empty }
  return .seconds(seconds)
}
