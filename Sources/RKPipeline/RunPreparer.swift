// The per-run work that needs no shared state, done on the parsing threads: participant,
// --since, privacy, flattening and CSV formatting. The writing thread only appends bytes.
import RKImport
import RKModel
import RKTable
import RKTidy
import RKWrite

/// One run made ready for the writers: everything the writing thread needs, worked out on a
/// parsing thread, so that thread only appends bytes and adds up small arrays. The `TaskRun`
/// itself stays (and is freed) on the parsing thread.
struct PreparedRun: Sendable {
  /// What the data checks and the state file read of the run.
  var checked: CheckedRun
  /// CSV bytes of its task_runs, steps and answers rows, formatted like `CSVWriter.write`, one
  /// table after the other in `csv[csvStart..<csvEnd]`. The buffer holds the rows of all the
  /// input's runs: one allocation per input, not two per run and a copy.
  var csv: [UInt8] = []
  var csvStart = 0
  var taskRunEnd = 0
  var stepsEnd = 0
  var csvEnd = 0
  var taskRunCSV: ArraySlice<UInt8> { csv[csvStart..<taskRunEnd] }
  var stepsCSV: ArraySlice<UInt8> { csv[taskRunEnd..<stepsEnd] }
  var answersCSV: ArraySlice<UInt8> { csv[stepsEnd..<csvEnd] }
  var stepCount = 0
  var answerCount = 0
  /// The same rows encoded for the workbook's sheets, only when a workbook is written too.
  var taskRunSheetRows: XLSXRows?
  var stepSheetRows: XLSXRows?
  var answerSheetRows: XLSXRows?
  /// Its share of the wide tables and the statistics (only the statistics' when it has no
  /// wide values: `rkexport stats`).
  var contribution: RunContribution
}

/// An input's runs, prepared, and how many `--since` left out.
struct PreparedInput: Sendable {
  var runs: [PreparedRun] = []
  var runsBeforeSince = 0
}

extension UnsafeMutablePointer {
  /// Calls `body` with the value here moved out, and moves it back after: a value passed on
  /// straight from an array's storage is copied first (a retain and a release per reference
  /// it holds), one in a local is lent as it is.
  @inline(__always)
  func withPointeeMovedOut<Result>(_ body: (borrowing Pointee) throws -> Result) rethrows
    -> Result
  {
    let value = move()
    defer { initialize(to: value) }
    return try body(value)
  }
}

extension PreparedInput {
  /// Calls `body` with each run in order, moved out of the array for the call and back after:
  /// a run passed on straight from the array was copied first, a retain and a release per
  /// reference it holds. The runs stay, to be freed by the thread that made them.
  mutating func forEachRun(_ body: (borrowing PreparedRun) throws -> Void) rethrows {
    try runs.withUnsafeMutableBufferPointer { runs in
      guard let first = runs.baseAddress else { return }
      for index in runs.indices { try (first + index).withPointeeMovedOut(body) }
    }
  }
}

/// Prepares runs on any thread: a value type holding only immutable settings.
struct RunPreparer: Sendable {
  /// What a run is prepared for.
  enum Output {
    /// Long-table rows, wide tables and statistics: a run exported now.
    case everything
    /// Wide tables and statistics: a run whose rows an earlier export wrote (--append).
    case derived
    /// Statistics only (`rkexport stats`).
    case statistics
  }

  let options: ExportOptions
  let privacy: PrivacyFilter
  let definitions: [String: TaskDefinition]
  let flattener: Flattener

  init(options: ExportOptions, definitions: [TaskDefinition]) {
    self.options = options
    privacy = PrivacyFilter(options: options.privacy)
    var byTask: [String: TaskDefinition] = [:]
    for definition in definitions where byTask[definition.taskIdentifier] == nil {
      byTask[definition.taskIdentifier] = definition
    }
    self.definitions = byTask
    flattener = Flattener(timeZone: options.timeZone)
  }

  /// The file's runs (their source set by the importer) with participant set, minus those
  /// --since leaves out, with privacy applied, made ready for `output`.
  func prepare(_ input: consuming ImportedInput, item: InputItem, for output: Output)
    -> PreparedInput
  {
    var prepared = PreparedInput()
    prepared.runs.reserveCapacity(input.runs.count)
    let participant = options.participantRule.participantID(for: item)
    // The rows of every run, one after the other; each run keeps its ranges (`PreparedRun`).
    // Room for typical row lengths, so the buffer rarely grows.
    var capacity = 0
    if output == .everything {
      // Each run moved out and back, as below: `for run in input.runs` or a run passed straight
      // from the buffer was copied whole (its strings and arrays retained, then released).
      input.runs.withUnsafeMutableBufferPointer { runs in
        guard let first = runs.baseAddress else { return }
        for index in runs.indices {
          capacity += (first + index).withPointeeMovedOut { run in
            256 + 160 * run.steps.count + 256 * flattener.answerRowCount(run)
          }
        }
      }
    }
    var rows = makeBuilder(capacity: capacity)
    // The file as the runs' sources name it (pseudonymised with them).
    let file = runFile(item, participantID: participant)
    // The runs are changed in place: a caller that hands over its input copies no run.
    input.runs.withUnsafeMutableBufferPointer { runs in
      guard let first = runs.baseAddress else { return }
      for index in runs.indices {
        runs[index].participantID = participant
        if let since = options.since {
          guard let when = runs[index].endDate ?? runs[index].startDate, when >= since else {
            prepared.runsBeforeSince += 1
            continue
          }
        }
        let definition = definitions[runs[index].taskIdentifier]
        privacy.apply(to: &runs[index], definition: definition)
        prepared.runs.append(
          (first + index).withPointeeMovedOut { run in
            prepare(run, file: file, for: output, rows: &rows)
          })
      }
    }
    if rows.byteCount > 0 {
      let csv = rows.bytes
      for index in prepared.runs.indices { prepared.runs[index].csv = csv }
    }
    return prepared
  }

  /// Each return builds its `PreparedRun` in place: a `var` filled in and returned is copied
  /// and the original destroyed (a 480-byte value and ~20 references, per run). Its CSV rows go
  /// into `rows`, after the previous runs' (the caller gives each run the finished buffer).
  private func prepare(
    _ run: TaskRun, file: String, for output: Output, rows: inout CSVRowBuilder
  ) -> PreparedRun {
    let checked = CheckedRun(run, file: file)
    guard output != .statistics else {
      return PreparedRun(checked: checked, contribution: RunContribution(statisticsOf: run))
    }
    guard output == .everything else {
      return PreparedRun(checked: checked, contribution: RunContribution(run, flattener: flattener))
    }
    let csvStart = rows.byteCount
    if options.writeXLSX {
      let contribution = RunContribution(run, flattener: flattener)
      // The workbook needs cells; the CSV bytes are rendered from the same cells.
      let taskRunRow = flattener.taskRunRow(run)
      let stepRows = flattener.stepRows(run)
      let answerRows = flattener.answerRows(run)
      rows.append(row: taskRunRow)
      let taskRunEnd = rows.byteCount
      for row in stepRows { rows.append(row: row) }
      let stepsEnd = rows.byteCount
      for row in answerRows { rows.append(row: row) }
      let zone = options.timeZone
      return PreparedRun(
        checked: checked, csvStart: csvStart, taskRunEnd: taskRunEnd, stepsEnd: stepsEnd,
        csvEnd: rows.byteCount, stepCount: stepRows.count, answerCount: answerRows.count,
        taskRunSheetRows: XLSXRows(encoding: [taskRunRow], timeZone: zone),
        stepSheetRows: XLSXRows(encoding: stepRows, timeZone: zone),
        answerSheetRows: XLSXRows(encoding: answerRows, timeZone: zone),
        contribution: contribution)
    }
    flattener.appendTaskRunRow(run, to: &rows)
    let taskRunEnd = rows.byteCount
    let stepCount = flattener.appendStepRows(run, to: &rows)
    let stepsEnd = rows.byteCount
    // The answers' rows and the contribution in one pass: each answer encoded once.
    let (answerCount, contribution) = flattener.appendAnswerRowsAndContribution(run, to: &rows)
    return PreparedRun(
      checked: checked, csvStart: csvStart, taskRunEnd: taskRunEnd, stepsEnd: stepsEnd,
      csvEnd: rows.byteCount, stepCount: stepCount, answerCount: answerCount,
      contribution: contribution)
  }

  /// The input's display path as its runs' sources begin (`file` or `file#N`): pseudonymised
  /// as they are when participant ids are. The duplicate check then keeps a run's place as
  /// the input's number and N, not the source's text (a String per run, 43 MB at 100k).
  /// The participant id is asked for only when pseudonymising: a `--participant-pattern` is a
  /// regular expression run per call (~17 k instructions), and zip items come here one by one.
  func runFile(_ item: InputItem, participantID: @autoclosure () -> String) -> String {
    guard let pseudonymizer = privacy.options.pseudonymizer else { return item.displayPath }
    return pseudonymizer.pseudonymizedPath(item.displayPath, participantID: participantID())
  }

  private func makeBuilder(capacity: Int) -> CSVRowBuilder {
    CSVRowBuilder(timeZone: options.timeZone, excelSafe: options.excelSafe, capacity: capacity)
  }
}
