// The wide tables (design.md §4 `wide/<task_id>.csv`): one row per run, one column per question.
import RKModel
import RKTable

/// Builds `wide/<task_id>` tables in two passes with flat memory.
///
/// The final columns are known only after the last run, so each run first becomes a compact
/// `WidePartialRow` (answered questions only) that the caller stores, e.g. in an RKWrite
/// `RowSpool`; the pivot itself keeps only per-question state (ids, options, value kinds).
///
/// ```swift
/// let pivot = WidePivot(timeZone: zone, definitions: definitions)
/// for run in runs { try spool.append(pivot.add(run).spoolCells) }          // pass 1
/// for taskID in pivot.taskIDs { open a writer with pivot.finalSchema(taskID:) }
/// let reader = try spool.makeReader()
/// while let cells = try reader.next() {                                      // pass 2
///   guard let partial = WidePartialRow(spoolCells: cells),
///     let row = pivot.finalRow(partial) else { continue }
///   try writers[partial.taskID].write(row)
/// }
/// ```
/// Cells: the same value text as answers.csv. A multiple choice has a packed column (values
/// joined with `;`, a value that contains `;` is not escaped: use the option columns or
/// answers.csv to split exactly) and one 0/1 column per option seen in any run or listed in
/// the task definition. Skipped, don't-know and not-presented questions are blank, options
/// included (never 0). Multiple-component answers are joined with `;` too; a location gives its
/// address or typed text (coordinates are in answers.csv). If a run answers the same question
/// twice, the later answer wins here (answers.csv keeps both). Naming: see `WideNaming`.
public final class WidePivot {
  private let encoder: AnswerEncoder
  private let definitions: [String: TaskDefinition]
  // Unchecked exclusivity: `register` reaches it for every run (~60 instructions a check).
  @exclusivity(unchecked) private var tasks: [String: WideTask] = [:]
  /// Table names by task id; rebuilt when a task is added.
  private var tableNames: [String: String]?

  /// - Parameters:
  ///   - timeZone: the output zone (only for date-only answers archived without a zone).
  ///   - definitions: task definitions; their questions and options come first, in order.
  public init(timeZone: TimeZoneRule = .utc, definitions: [TaskDefinition] = []) {
    encoder = AnswerEncoder(outputZone: timeZone)
    var byTask: [String: TaskDefinition] = [:]
    for definition in definitions where byTask[definition.taskIdentifier] == nil {
      byTask[definition.taskIdentifier] = definition
    }
    self.definitions = byTask
  }

  /// Registers the run's questions and returns its partial row (to store until the end).
  public func add(_ run: TaskRun) -> WidePartialRow {
    let contribution = RunContribution(run, encoder: encoder)
    var cells = contribution.runCells
    cells.reserveCapacity(cells.count + 2 * contribution.pairCount)
    register(contribution) { key, value in
      cells.append(.integer(key))
      cells.append(value)
    }
    return WidePartialRow(taskID: contribution.taskID, cells: cells)
  }

  /// Registers a run's questions and options, and gives each (key, value) pair of its partial
  /// row to `pair` in order (the row is `runCells`, then key, value, key, value…): per
  /// answered question its packed value, then `.integer(1)` per chosen option. The caller
  /// writes the row where it keeps it, with no array of keys or values per run.
  public func register(_ contribution: RunContribution, pairs pair: (Int64, Cell) -> Void) {
    precondition(contribution.hasWideValues, "a contribution made for the statistics alone")
    let task = self.task(contribution.taskID)
    task.countRun()
    var previous: Int?
    // Each result is read field by field through a pointer: a result read from the array as
    // a value was copied first (its key, cell and options retained, then released).
    contribution.results.withUnsafeBufferPointer { results in
      guard let first = results.baseAddress else { return }
      for index in results.indices {
        let result = first + index
        let question: Int
        if let known = task.recentOrdinal(at: index, key: result.pointee.key) {
          question = known
        } else {
          let successor = previous == nil ? firstKnownQuestion(of: contribution, in: task) : nil
          question = task.register(result.pointee.key, after: previous, before: successor)
          task.noteRecent(question, at: index, key: result.pointee.key)
        }
        previous = question
        let answerType = result.pointee.answerType
        let kinds = result.pointee.kinds
        let isChoice = result.pointee.isChoice
        let allowsSeveral = result.pointee.allowsSeveral
        task.update(question) { state in
          if state.answerType == nil { state.answerType = answerType }
          state.kinds.formUnion(kinds)
          if isChoice { state.isChoice = true }
          if allowsSeveral { state.allowsSeveral = true }
        }
        guard result.pointee.status == .answered else { continue }
        pair(WidePartialRow.key(question: question, option: 0), result.pointee.packed)
        for option in result.pointee.options {
          let ordinal = task.option(option.text, number: option.number, question: question)
          pair(WidePartialRow.key(question: question, option: ordinal), .integer(1))
        }
      }
    }
  }

  /// Task ids with at least one run or definition, in Unicode order.
  public var taskIDs: [String] {
    tasks.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
  }

  /// Runs added for a task.
  public func runCount(taskID: String) -> Int { tasks[taskID]?.runCount ?? 0 }

  /// The table name `wide/<stem>` (file `wide/<stem>.csv`), unique among all tasks. Stable only
  /// once every run has been added.
  public func tableName(taskID: String) -> String? {
    if let tableNames { return tableNames[taskID] }
    var names = WideNaming.UniqueNames(foldCase: true)
    var byTask: [String: String] = [:]
    for id in taskIDs { byTask[id] = "wide/" + names.claim(WideNaming.fileStem(id)) }
    tableNames = byTask
    return byTask[taskID]
  }

  /// The final schema of a task's table: the five run columns, then per question in
  /// presentation order its column and, for a multiple choice, its option columns.
  public func finalSchema(taskID: String) -> TableSchema? { layout(taskID)?.schema }

  /// What each column of `finalSchema(taskID:)` holds, with exact ids (for the codebook).
  public func finalColumns(taskID: String) -> [WideColumn]? { layout(taskID)?.columns }

  /// The final cells of a partial row, in `finalSchema` order; nil for an unknown task.
  public func finalRow(_ partial: WidePartialRow) -> [Cell]? {
    guard let plan = rowPlan(taskID: partial.taskID) else { return nil }
    var sources: [CellSource] = []
    plan.sources(cellCount: partial.cells.count, into: &sources) { index in
      guard case .integer(let key) = partial.cells[index] else { return nil }
      return key
    }
    return sources.map { source in
      if let index = source.cellIndex { return partial.cells[index] }
      return source == .zero ? .integer(0) : .empty
    }
  }

  /// Where a task's partial-row cells go in its final row (nil for an unknown task), to
  /// format final rows without building them. Stable only once every run has been added.
  public func rowPlan(taskID: String) -> WideRowPlan? {
    layout(taskID).map(WideRowPlan.init)
  }

  // MARK: - Details

  private func task(_ taskID: String) -> WideTask {
    if let recent = recentTasks.value(for: taskID) { return recent }
    let task: WideTask
    if let known = tasks[taskID] {
      task = known
    } else {
      task = WideTask(taskID: taskID, definition: definitions[taskID])
      tasks[taskID] = task
      tableNames = nil
    }
    recentTasks.note(taskID, task)
    return task
  }

  /// The tasks of the last few runs, compared by id before the table is asked.
  @exclusivity(unchecked) private var recentTasks = RecentLookups<WideTask>()

  /// The first question of the run that the task already knows (where a new opening
  /// question is placed before).
  private func firstKnownQuestion(of run: RunContribution, in task: WideTask) -> Int? {
    for result in run.results {
      if let known = task.ordinal(of: result.key) { return known }
    }
    return nil
  }

  private func layout(_ taskID: String) -> WideLayout? {
    guard let task = tasks[taskID], let name = tableName(taskID: taskID) else { return nil }
    if let cached = task.cachedLayout, cached.schema.name == name { return cached }
    let layout = WideLayout(task: task, tableName: name)
    task.cachedLayout = layout
    return layout
  }

  /// The text naming an option: its value as text, a number's canonical text, a date in
  /// ISO 8601 UTC; nil for a null value.
  static func optionText(_ choice: ChoiceValue) -> String? {
    switch choice {
    case .text(let text): return text
    case .number(let number): return number.text
    case .date(let instant): return instant.millisecondsSince1970.map(ISO8601.utcMilliseconds)
    case .null: return nil
    }
  }
}
