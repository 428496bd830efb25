// The reading half of an export: every input in path order, its rows to the staged outputs.
import Foundation
import RKImport
import RKModel
import RKTidy

/// Reads the planned inputs in parallel and hands their runs, in path order, to the outputs;
/// keeps the counts, the warnings and what the next state file records.
struct ExportPass {
  /// What a worker thread found for one input.
  struct Found: Sendable {
    /// The planned input, as the parsing thread had it: rebuilding it from the plan costs the
    /// item's paths again (and, with --state, the entry's parse).
    var piece: IncrementalPlan.Work
    /// nil when the input was only touched (same hash) and need not be read; an imported
    /// input's runs are dropped (see `prepared`).
    var outcome: ImportOutcome?
    var hash: String
    /// The imported runs, ready for the writers (prepared on the parsing thread).
    var prepared: PreparedInput?
  }

  let options: ExportOptions
  let plan: IncrementalPlan
  let outputs: ExportOutputs
  let log: RunLog
  private(set) var report = ExportReport()
  /// Display paths whose earlier rows --append must drop (the input changed).
  private(set) var replacedSources: Set<String> = []
  /// The next state's entries for the inputs read now.
  private let entries: EntrySpool
  private var warnings: DataWarnings
  private let preparer: RunPreparer

  init(
    options: ExportOptions, plan: IncrementalPlan, outputs: ExportOutputs, log: RunLog,
    now: Date, state: ExportState?, definitions: [TaskDefinition] = []
  ) {
    self.options = options
    preparer = RunPreparer(options: options, definitions: definitions)
    self.plan = plan
    self.outputs = outputs
    self.log = log
    entries = EntrySpool(directory: options.statePath == nil ? nil : outputs.folder)
    let inputs = state?.inputs ?? [:]
    let known = inputs.knownRuns(skipping: plan.replacedKeys)
    let work = plan.work
    warnings = DataWarnings(
      now: now, knownUUIDs: known, knownFileName: inputs.knownFileName,
      spoolDirectory: outputs.folder
    ) { work[$0].item.displayPath }
  }

  /// Lists inputs the walk could not open (a missing root) as failed.
  mutating func recordWalkProblems(_ problems: [ImportError]) throws {
    for problem in problems {
      try outputs.addInput(
        InputRecord(
          path: problem.file, format: "", status: .failed, taskRuns: 0, answers: 0,
          error: problem.message))
      report.filesRead += 1
      report.filesFailed += 1
      log.log(inputFailed(path: problem.file, error: problem.description))
    }
  }

  /// Reads every planned input, `options.jobs` at a time, each within the per-file time limit.
  mutating func importAll(importer: InputImporter) throws {
    let work = plan.work
    let incremental = options.statePath != nil
    let append = options.append
    let hashes = HashCache()
    let limit = options.fileTimeoutSeconds
    let preparer = self.preparer
    let progress = ProgressBar(
      log: log, total: work.count,
      enabled: ProgressBar.standardErrorIsTerminal && !log.quiet && log.format == .text)
    defer { progress.finish() }
    try orderedParallelMap(
      work, jobs: options.jobs, timeout: limit > 0 ? limit : nil,
      timedOut: { piece in
        let seconds = limit.rounded() == limit ? String(Int(limit)) : String(limit)
        let error = ImportError(
          file: piece.item.displayPath, reason: "took longer than \(seconds) s; given up")
        return Found(piece: piece, outcome: .failed(.unknown, error), hash: "", prepared: nil)
      },
      transform: { piece in
        // A plain file is read once: hashed, then imported from the same bytes.
        var bytes: [UInt8]?
        if incremental, case .file(let path) = piece.item.location {
          bytes = try? readFile(path, limit: importer.maximumFileSize)
        }
        let hash: String
        if let bytes {
          var content = ContentHash()
          content.update(bytes)
          hash = content.hex
        } else {
          hash = incremental ? InputFingerprint.hash(piece.item, cache: hashes) : ""
        }
        let touched = piece.role == .export && !hash.isEmpty && piece.previous?.hash == hash
        if touched && !append {
          return Found(piece: piece, outcome: nil, hash: hash, prepared: nil)
        }
        var outcome =
          bytes.map { importer.importItem(piece.item, bytes: $0) }
          ?? importer.importItem(piece.item)
        // Taken out, so this thread holds the only reference to the runs: they are prepared
        // in place, and stay (and are freed) here. Freeing a parsing thread's memory on the
        // consuming thread costs malloc arena locks, and the consumer needs only the notes.
        guard let input = outcome.takeRuns() else {
          return Found(piece: piece, outcome: outcome, hash: hash, prepared: nil)
        }
        // Runs that only feed wide tables and statistics need no long rows.
        let derived = piece.role == .derivedOnly || touched
        let prepared = preparer.prepare(
          consume input, item: piece.item, for: derived ? .derived : .everything)
        return Found(piece: piece, outcome: outcome, hash: hash, prepared: prepared)
      },
      consume: { index, found in
        try consume(found.piece, found, number: index)
        progress.update(done: index + 1)
      })
    for event in warnings.omitted() { log.log(event) }
  }

  /// The state after this run: the previous entries, with every input read for export replaced
  /// (`ExportState.writeJSON(replacing:_:)` writes them without merging them into a copy).
  func nextState(previous: ExportState?, folder: String) throws -> (
    ExportState, replacing: ExportState.Inputs
  ) {
    var state = previous ?? ExportState(exportedAt: "", outputDirectory: folder)
    state.outputDirectory = folder
    return (state, try entries.finish())
  }

  // MARK: - One input

  private mutating func consume(
    _ piece: IncrementalPlan.Work, _ found: Found, number: Int
  ) throws {
    let item = piece.item
    let touched =
      piece.role == .export && !found.hash.isEmpty && piece.previous?.hash == found.hash
    if piece.role == .derivedOnly || touched {
      report.filesUnchanged += 1
      if touched, var entry = piece.previous, let fingerprint = piece.fingerprint {
        // Same bytes, new timestamp: remember the timestamp so the next run need not hash it.
        entry.size = fingerprint.size
        entry.modified = fingerprint.modified
        try entries.add(key: piece.key, entry: entry)
      }
      if let prepared = found.prepared {
        report.runsBeforeSince += prepared.runsBeforeSince
        // Borrowed in place, as in the export case below.
        try prepared.runs.withUnsafeBufferPointer { runs in
          for index in runs.indices { try outputs.addDerivedOnly(runs[index]) }
        }
      }
      return
    }
    guard let outcome = found.outcome else { return }
    if piece.previous != nil {
      replacedSources.insert(item.displayPath)
      log.log(
        LogEvent(
          "input_changed", level: .warning,
          message: "\(item.displayPath): changed since the last export; exported again",
          fields: [("path", .text(item.displayPath))]))
    }
    report.filesRead += 1
    var uuids: [String] = []
    let status: InputStatus
    switch outcome {
    case .imported(let input):
      var answers = 0
      // Always set for an imported input (the import's runs are left on its thread).
      let prepared = found.prepared ?? PreparedInput()
      report.runsBeforeSince += prepared.runsBeforeSince
      let runs = prepared.runs
      // Borrowed in place: the array's subscript (and a `for ready in` loop) would copy each
      // prepared run, a retain and a release per field.
      try runs.withUnsafeBufferPointer { runs in
        for index in runs.indices {
          for event in warnings.check(runs[index].checked, inputNumber: number) {
            report.dataWarnings += 1
            log.log(event)
          }
          if let uuid = runs[index].checked.runUUID { uuids.append(uuid) }
          answers += try outputs.add(runs[index])
        }
      }
      report.filesOK += 1
      report.taskRuns += runs.count
      report.answers += answers
      status = .ok
      let note = input.notes.isEmpty ? nil : input.notes.joined(separator: "; ")
      try addInput(
        InputRecord(
          path: item.displayPath, format: input.format.rawValue, status: .ok,
          taskRuns: runs.count, answers: answers, error: note), item: item)
    case .failed(let format, let error):
      report.filesFailed += 1
      status = .failed
      log.log(inputFailed(path: item.displayPath, error: error.description))
      try addInput(
        InputRecord(
          path: item.displayPath, format: format.rawValue, status: .failed, taskRuns: 0,
          answers: 0, error: error.message), item: item)
    case .skipped(let format, var reason):
      report.filesSkipped += 1
      if isGivenDefinition(item) {
        reason = "SurveyNative survey definition, used with --survey-definition"
      }
      status = .skipped
      try addInput(
        InputRecord(
          path: item.displayPath, format: format.rawValue, status: .skipped, taskRuns: 0,
          answers: 0, error: reason), item: item)
    }
    if let fingerprint = piece.fingerprint {
      try entries.add(
        key: piece.key,
        entry: ExportState.Entry(
          size: fingerprint.size, modified: fingerprint.modified, hash: found.hash,
          taskRunUUIDs: uuids, status: status.rawValue, path: item.displayPath))
    }
  }

  /// True when the item is one of the --survey-definition files (it sits among the inputs).
  private func isGivenDefinition(_ item: InputItem) -> Bool {
    guard case .file(let path) = item.location else { return false }
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    return options.surveyDefinitions.contains {
      URL(fileURLWithPath: $0).standardizedFileURL.path == standardized
    }
  }

  /// An inputs.csv row, with participant ids in its path replaced when pseudonymising.
  private func addInput(_ record: InputRecord, item: InputItem) throws {
    guard options.privacy.isActive else { return try outputs.addInput(record) }
    let participant = options.participantRule.participantID(for: item)
    try outputs.addInput(preparer.privacy.apply(record, participantID: participant))
  }

  private func inputFailed(path: String, error: String) -> LogEvent {
    LogEvent(
      "input_failed", level: .error, message: error,
      fields: [("path", .text(path)), ("error", .text(error))])
  }
}

extension ImportOutcome {
  /// An imported input, moved out: the outcome keeps its format and notes, without runs.
  fileprivate mutating func takeRuns() -> ImportedInput? {
    guard case .imported(let input) = self else { return nil }
    self = .imported(ImportedInput(format: input.format, runs: [], notes: input.notes))
    return input
  }
}
