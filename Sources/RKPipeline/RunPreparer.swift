// The per-run work that needs no shared state, done on the parsing threads: participant, source,
// --since, privacy, flattening and CSV formatting. The writing thread only appends bytes.
import RKImport
import RKModel
import RKTable
import RKTidy
import RKWrite

/// One run made ready for the writers.
struct PreparedRun: Sendable {
  var run: TaskRun
  /// CSV bytes of its task_runs, steps and answers rows, formatted like `CSVWriter.write`.
  var taskRunCSV: [UInt8] = []
  var stepsCSV: [UInt8] = []
  var answersCSV: [UInt8] = []
  var stepCount = 0
  var answerCount = 0
  /// The same rows encoded for the workbook's sheets, only when a workbook is written too.
  var taskRunSheetRows: XLSXRows?
  var stepSheetRows: XLSXRows?
  var answerSheetRows: XLSXRows?
}

/// An input's runs, prepared, and how many `--since` left out.
struct PreparedInput: Sendable {
  var runs: [PreparedRun] = []
  var runsBeforeSince = 0
}

/// Prepares runs on any thread: a value type holding only immutable settings.
struct RunPreparer: Sendable {
  let options: ExportOptions
  let privacy: PrivacyFilter
  let definitions: [String: TaskDefinition]
  let flattener: Flattener
  let renderer: CSVRowRenderer

  init(options: ExportOptions, definitions: [TaskDefinition]) {
    self.options = options
    privacy = PrivacyFilter(options: options.privacy)
    var byTask: [String: TaskDefinition] = [:]
    for definition in definitions where byTask[definition.taskIdentifier] == nil {
      byTask[definition.taskIdentifier] = definition
    }
    self.definitions = byTask
    flattener = Flattener(timeZone: options.timeZone)
    renderer = CSVRowRenderer(timeZone: options.timeZone, excelSafe: options.excelSafe)
  }

  /// The file's runs with participant and source set, minus those --since leaves out, with
  /// privacy applied; rows flattened and formatted unless `rows` is false (runs that only feed
  /// the wide tables and statistics).
  func prepare(_ input: ImportedInput, item: InputItem, rows: Bool) -> PreparedInput {
    var prepared = PreparedInput()
    let participant = options.participantRule.participantID(for: item)
    for (number, var run) in input.runs.enumerated() {
      run.participantID = participant
      // A file holding several runs (an NSArray root) numbers them: `path#1`, `path#2`.
      run.source = input.runs.count > 1 ? "\(item.displayPath)#\(number + 1)" : item.displayPath
      if let since = options.since {
        guard let when = run.endDate ?? run.startDate, when >= since else {
          prepared.runsBeforeSince += 1
          continue
        }
      }
      run = privacy.apply(run, definition: definitions[run.taskIdentifier])
      prepared.runs.append(rows ? render(run) : PreparedRun(run: run))
    }
    return prepared
  }

  private func render(_ run: TaskRun) -> PreparedRun {
    var prepared = PreparedRun(run: run)
    let taskRunRow = flattener.taskRunRow(run)
    let stepRows = flattener.stepRows(run)
    let answerRows = flattener.answerRows(run)
    renderer.append(taskRunRow, to: &prepared.taskRunCSV)
    for row in stepRows { renderer.append(row, to: &prepared.stepsCSV) }
    for row in answerRows { renderer.append(row, to: &prepared.answersCSV) }
    prepared.stepCount = stepRows.count
    prepared.answerCount = answerRows.count
    if options.writeXLSX {
      let zone = options.timeZone
      prepared.taskRunSheetRows = XLSXRows(encoding: [taskRunRow], timeZone: zone)
      prepared.stepSheetRows = XLSXRows(encoding: stepRows, timeZone: zone)
      prepared.answerSheetRows = XLSXRows(encoding: answerRows, timeZone: zone)
    }
    return prepared
  }
}
