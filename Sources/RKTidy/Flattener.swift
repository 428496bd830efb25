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
    var builder = CellRowBuilder(columnCount: ExportSchemas.taskRuns.columns.count)
    appendTaskRunRow(run, to: &builder)
    return builder.rows.first ?? []
  }

  /// One `steps` row per step result, `step_index` counting from 1.
  public func stepRows(_ run: TaskRun) -> [[Cell]] {
    var builder = CellRowBuilder(columnCount: ExportSchemas.steps.columns.count)
    appendStepRows(run, to: &builder)
    return builder.rows
  }

  /// The `answers` rows of every result of every step, in archive order.
  public func answerRows(_ run: TaskRun) -> [[Cell]] {
    var builder = CellRowBuilder(columnCount: ExportSchemas.answers.columns.count)
    appendAnswerRows(run, to: &builder)
    return builder.rows
  }

  /// Writes the `task_runs` row into `builder` (the same fields `taskRunRow` returns).
  public func appendTaskRunRow<Builder: RowBuilder & ~Copyable>(
    _ run: TaskRun, to builder: inout Builder
  ) {
    appendRunKey(run, to: &builder)
    appendInstant(run.startDate, to: &builder)
    appendInstant(run.endDate, to: &builder)
    appendSeconds(run.durationSeconds, to: &builder)
    builder.appendInteger(Int64(run.steps.count))
    builder.appendRunSource(run.source)
    let device = run.device
    builder.appendText(device?.product)
    builder.appendText(device?.platform)
    builder.appendText(device?.osVersion)
    builder.appendText(device?.osBuild)
    // The first string `appVersion` has its own column; every other field goes to `metadata`.
    let appVersionIndex = run.metadata.firstIndex { field in
      guard field.name == "appVersion", case .string = field.value else { return false }
      return true
    }
    if let appVersionIndex, case .string(let text) = run.metadata[appVersionIndex].value {
      builder.appendText(text)
    } else {
      builder.appendEmpty()
    }
    if run.metadata.count > (appVersionIndex == nil ? 0 : 1) {
      var others = run.metadata
      if let appVersionIndex { others.remove(at: appVersionIndex) }
      builder.appendText(KeyedValue.dictionary(others).jsonText)
    } else {
      builder.appendEmpty()
    }
    builder.endRow()
  }

  /// Writes the `steps` rows into `builder`; returns how many.
  @discardableResult
  public func appendStepRows<Builder: RowBuilder & ~Copyable>(
    _ run: TaskRun, to builder: inout Builder
  )
    -> Int
  {
    // By index, field by field: `for step in run.steps` copied each step record (retaining
    // its identifier, results and extra fields) and destroyed the copy.
    for index in run.steps.indices {
      appendRunKey(run, to: &builder)
      builder.appendInteger(Int64(index + 1))
      builder.appendText(run.steps[index].identifier)
      appendInstant(run.steps[index].startDate, to: &builder)
      appendInstant(run.steps[index].endDate, to: &builder)
      appendSeconds(run.steps[index].durationSeconds, to: &builder)
      builder.appendRunSource(run.source)
      builder.endRow()
    }
    return run.steps.count
  }

  /// Writes the `answers` rows into `builder`; returns how many.
  @discardableResult
  public func appendAnswerRows<Builder: RowBuilder & ~Copyable>(
    _ run: TaskRun, to builder: inout Builder
  )
    -> Int
  {
    var count = 0
    run.forEachRecordInPlace { record, step in
      var first = Cell.empty
      count += appendAnswerRows(
        of: record, step: step, run: run, to: &builder, firstValue: &first)
    }
    return count
  }

  /// The `answers` rows of one record; returns how many, and sets `firstValue` to the `value`
  /// cell of the first.
  @inline(__always)
  func appendAnswerRows<Builder: RowBuilder & ~Copyable>(
    of record: UnsafePointer<ResultRecord>, step: String, run: TaskRun, to builder: inout Builder,
    firstValue: inout Cell
  ) -> Int {
    let status = AnswerStatus(record.pointee.answer)
    var index: Int64 = 0
    // `answer` is a stored property: its pointer always exists.
    let answer = record.pointer(to: \.answer)!
    encoder.forEachValue(of: answer, className: record.pointee.className) { value in
      index += 1
      if index == 1 { firstValue = value.value }
      appendRunKey(run, to: &builder)
      builder.appendText(step)
      builder.appendText(record.pointee.identifier)
      builder.appendPlainText(record.pointee.answerType.columnText)
      builder.appendPlainText(status.columnText)
      builder.appendInteger(index)
      builder.append(value.value)
      builder.append(value.number)
      builder.append(value.datetime)
      builder.append(value.unit)
      appendInstant(record.pointee.startDate, to: &builder)
      appendInstant(record.pointee.endDate, to: &builder)
      appendSeconds(record.pointee.durationSeconds, to: &builder)
      builder.appendRunSource(run.source)
      builder.append(value.timeZone)
      builder.append(value.latitude)
      builder.append(value.longitude)
      builder.append(value.contentType)
      builder.endRow()
    }
    return Int(index)
  }

  /// The number of `answers` rows `answerRows(run)` returns, without building them.
  public func answerRowCount(_ run: TaskRun) -> Int {
    run.steps.reduce(0) { total, step in
      step.results.reduce(total) { $0 + Self.valueCount($1.answer) }
    }
  }

  // MARK: - Details

  private func appendRunKey<Builder: RowBuilder & ~Copyable>(
    _ run: TaskRun, to builder: inout Builder
  ) {
    builder.appendRunKey(
      participantID: run.participantID, taskIdentifier: run.taskIdentifier, runUUID: run.runUUID)
  }

  /// An instant, or an empty field when missing or beyond what outputs can write.
  private func appendInstant<Builder: RowBuilder & ~Copyable>(
    _ instant: Instant?, to builder: inout Builder
  ) {
    if let ms = instant?.millisecondsSince1970 {
      builder.appendInstant(millisecondsSince1970: ms)
    } else {
      builder.appendEmpty()
    }
  }

  /// A duration, or an empty field when missing or not finite.
  private func appendSeconds<Builder: RowBuilder & ~Copyable>(
    _ seconds: Double?, to builder: inout Builder
  ) {
    if let seconds, seconds.isFinite {
      builder.appendSeconds(seconds)
    } else {
      builder.appendEmpty()
    }
  }

  static func valueCount(_ answer: borrowing Answer) -> Int {
    switch answer {
    case .choices(let values), .components(let values, _): return max(values.count, 1)
    default: return 1
    }
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

extension AnswerType {
  /// `rawValue` as a static string, for `RowBuilder.appendPlainText` (tests keep the two equal).
  var columnText: StaticString {
    switch self {
    case .boolean: "boolean"
    case .choice: "choice"
    case .scale: "scale"
    case .numeric: "numeric"
    case .text: "text"
    case .date: "date"
    case .timeOfDay: "time_of_day"
    case .timeInterval: "time_interval"
    case .location: "location"
    case .multipleComponent: "multiple_component"
    case .ses: "ses"
    case .file: "file"
    case .other: "other"
    }
  }
}

extension AnswerStatus {
  /// `rawValue` as a static string, for `RowBuilder.appendPlainText` (tests keep the two equal).
  var columnText: StaticString {
    switch self {
    case .answered: "answered"
    case .skipped: "skipped"
    case .dontKnow: "dont_know"
    }
  }
}

extension TaskRun {
  /// Calls `body` with each result record in archive order, read in place through a pointer,
  /// and its step's identifier. (`for record in step.results`, or the array's subscript, copied
  /// each record, a retain and a release per field, and destroyed the copy, per result.)
  @inline(__always)
  func forEachRecordInPlace(_ body: (UnsafePointer<ResultRecord>, _ step: String) -> Void) {
    for stepIndex in steps.indices {
      steps[stepIndex].results.withUnsafeBufferPointer { records in
        for index in records.indices {
          body(records.baseAddress! + index, steps[stepIndex].identifier)
        }
      }
    }
  }
}

extension Answer {
  /// Whether this is a generic result's fields (its encoded value depends on the class name).
  var isFields: Bool {
    if case .fields = self { return true }
    return false
  }
}
