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
    /// A file listed unopened that turned out to be a zip (`outcome` is nil then).
    var zip: ZipFound?
  }

  /// A zip found at import. (A listing is held for every zip the workers run ahead to, and a
  /// zip's listing grows with its entries: large ones are listed again by the consumer.)
  enum ZipFound: Sendable {
    /// Its items few and small (`InputReading.itemsReadTogether`): read on the thread that
    /// found it, as one input.
    case read([Found], problems: [InputWalker.PlacedProblem])
    /// Up to `InputReading.listingKept` items: their listing, for the consumer to spread
    /// over the workers.
    case listed(InputItemList, problems: [InputWalker.PlacedProblem])
    /// Not listed: more items, or reading the file took longer than the time limit
    /// (`timedOut`; listed again, a zip's items are read one by one, each within the limit,
    /// and a file that is no zip failed with this).
    case unlisted(timedOut: ImportError?)

    /// What the result weighs while it waits to be consumed: its inputs read.
    var weight: Int {
      guard case .read(let founds, _) = self else { return 1 }
      return 1 + founds.count
    }
  }

  /// Reads one planned input on a worker thread: what the plan is mapped through.
  struct InputReading: Sendable {
    /// Zips found at import with at most this many items are read on the thread that found
    /// them, as one input (a Bridge upload in a zip is one item; a batch of a hundred archives
    /// too): spreading a zip's items over the workers stops and starts the pipeline per zip,
    /// which cost ~15 % on zips of a hundred archives. The results wait to be consumed with
    /// the weight of their items (`maximumWeight`), so memory stays bounded.
    static let readTogether = 256
    /// Nor more than this many bytes (uncompressed) in all: a result holds its items' rows, so
    /// a zip of a few large files is spread over the workers instead.
    static let readTogetherBytes: Int64 = 16 << 20
    /// Results waiting to be consumed, in items: as many as the window holds of plain files.
    static let maximumWeight = 64
    /// Zips with at most this many items hand their listing to the consumer (~70 bytes an
    /// item, compact): larger ones are listed again when the consumer comes to them.
    static let listingKept = 1024

    let importer: InputImporter
    let preparer: RunPreparer
    let walker: InputWalker
    let incremental: Bool
    let append: Bool
    let hashes = HashCache()

    func read(_ piece: IncrementalPlan.Work) -> Found {
      // A plain file is read once: hashed, then imported from the same bytes.
      var bytes: [UInt8]?
      if piece.item.mayBeZip {
        // Listed unopened (never with --state): read now, telling a zip as the walk would.
        switch importer.readUnopened(piece.item) {
        case .bytes(let read): bytes = read
        case .zip(let size, let zipBytes): return zipFound(piece, size: size, bytes: zipBytes)
        case .failed(let outcome):
          return Found(piece: piece, outcome: outcome, hash: "", prepared: nil)
        }
      } else if incremental, case .file(let path) = piece.item.location {
        bytes = try? readFile(path, limit: importer.maximumFileSize)
      }
      let hash: String
      if incremental, let bytes {
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
    }

    /// A zip's items when they are read on the thread that found it, as one input: at most
    /// `readTogether` of them, of at most `readTogetherBytes` in all; nil otherwise. (Made
    /// once: each is rebuilt from the compact list on access.)
    static func itemsReadTogether(_ items: InputItemList) -> [InputItem]? {
      guard items.count <= readTogether else { return nil }
      let all = Array(items)
      let bytes = all.reduce(Int64(0)) { $0 + $1.size }
      return bytes <= readTogetherBytes ? all : nil
    }

    /// A zip found where the walk listed a plain file: its few items read here, or a note
    /// that it is one.
    private func zipFound(
      _ piece: IncrementalPlan.Work, size: Int64, bytes: InputImporter.ZipBytes
    ) -> Found {
      guard
        let (items, problems) = importer.zipContents(
          of: piece.item, size: size, bytes: bytes, walker: walker)
      else {
        return read(piece.asOpened)
      }
      let zip: ZipFound
      if let few = Self.itemsReadTogether(items) {
        zip = .read(
          few.map { read(incremental ? .init($0, foundIn: piece) : .init($0)) },
          problems: problems)
      } else if items.count <= Self.listingKept {
        zip = .listed(items, problems: problems)
      } else {
        zip = .unlisted(timedOut: nil)
      }
      return Found(piece: piece, outcome: nil, hash: "", prepared: nil, zip: zip)
    }
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
  /// How the inputs are read, on the worker threads.
  private let reading: InputReading
  /// The display paths of the items of zips found at import, numbered after the plan's.
  private let zipItemPaths: ZipItemPaths
  /// The walk's problems, and the next one to list.
  private var walkProblems: [InputWalker.PlacedProblem] = []
  private var nextWalkProblem = 0

  init(
    options: ExportOptions, plan: IncrementalPlan, outputs: ExportOutputs, log: RunLog,
    now: Date, state: ExportState?, definitions: [TaskDefinition] = [],
    importer: InputImporter, walker: InputWalker
  ) {
    self.options = options
    let preparer = RunPreparer(options: options, definitions: definitions)
    self.preparer = preparer
    self.plan = plan
    self.outputs = outputs
    self.log = log
    reading = InputReading(
      importer: importer, preparer: preparer, walker: walker,
      incremental: options.statePath != nil, append: options.append)
    entries = EntrySpool(directory: options.statePath == nil ? nil : outputs.folder)
    let inputs = state?.inputs ?? [:]
    let known = inputs.knownRuns(skipping: plan.replacedKeys)
    let work = plan.work
    let zipItemPaths = ZipItemPaths(directory: outputs.folder, firstNumber: work.count)
    self.zipItemPaths = zipItemPaths
    let participantRule = options.participantRule
    warnings = DataWarnings(
      now: now, knownUUIDs: known, knownFileName: inputs.knownFileName,
      spoolDirectory: outputs.folder
    ) { number in
      guard number < work.count else { return zipItemPaths.path(number) }
      let item = work[number].item
      return preparer.runFile(item, participantID: participantRule.participantID(for: item))
    }
  }

  /// The path the duplicate check names an item by: its runs' file (`RunPreparer.runFile`).
  private func runFile(_ item: InputItem) -> String {
    preparer.runFile(item, participantID: options.participantRule.participantID(for: item))
  }

  /// Sets what the walk could not list (a missing root, an entry escaping its zip): each is
  /// listed as a failed input at its place in path order, as the items are read.
  mutating func setWalkProblems(_ problems: [InputWalker.PlacedProblem]) {
    walkProblems = problems
    nextWalkProblem = 0
  }

  /// Lists the walk's problems placed before item number `item` (all that are left for nil).
  private mutating func recordWalkProblems(before item: Int?) throws {
    let start = nextWalkProblem
    while nextWalkProblem < walkProblems.count,
      item.map({ walkProblems[nextWalkProblem].before <= $0 }) ?? true
    {
      nextWalkProblem += 1
    }
    guard nextWalkProblem > start else { return }
    try recordProblems(walkProblems[start..<nextWalkProblem].map(\.error))
  }

  /// Lists inputs that could not be listed (a missing root, an entry escaping its zip) as
  /// failed.
  private mutating func recordProblems(_ problems: [ImportError]) throws {
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
  mutating func importAll() throws {
    let work = plan.work
    let progress = ProgressBar(
      log: log, total: work.count,
      enabled: ProgressBar.standardErrorIsTerminal && !log.quiet && log.format == .text)
    defer { progress.finish() }
    try readInOrder(work) { pass, index, found in
      try pass.recordWalkProblems(before: work.itemNumber(index))
      try pass.consume(&found, number: index)
      progress.update(done: index + 1)
    }
    try recordWalkProblems(before: nil)
    for event in warnings.duplicates() { log.log(event) }
    for event in warnings.omitted() { log.log(event) }
    // Every warning found, shown or counted in an omitted line.
    report.dataWarnings = warnings.found
  }

  /// Maps `inputs` through `reading` on `options.jobs` threads, each input within the per-file
  /// time limit, and hands each result to `consume` in input order.
  private mutating func readInOrder<Inputs>(
    _ inputs: Inputs, consume: (inout ExportPass, Int, inout Found) throws -> Void
  ) throws
  where
    Inputs: RandomAccessCollection & Sendable, Inputs.Index == Int,
    Inputs.Element == IncrementalPlan.Work
  {
    let limit = options.fileTimeoutSeconds
    let reading = self.reading
    try orderedParallelMap(
      inputs, jobs: options.jobs, timeout: limit > 0 ? limit : nil,
      timedOut: { piece in
        let seconds = limit.rounded() == limit ? String(Int(limit)) : String(limit)
        let error = ImportError(
          file: piece.item.displayPath, reason: "took longer than \(seconds) s; given up")
        if piece.item.mayBeZip {
          // Perhaps a zip read as one input: its items get a time limit each.
          return Found(
            piece: piece, outcome: nil, hash: "", prepared: nil, zip: .unlisted(timedOut: error))
        }
        return Found(piece: piece, outcome: .failed(.unknown, error), hash: "", prepared: nil)
      },
      weight: { $0.zip?.weight ?? 1 }, maximumWeight: InputReading.maximumWeight,
      transform: { reading.read($0) },
      consume: { index, found in try consume(&self, index, &found) })
  }

  /// The items of a zip found at import, in path order with its problems: read by the thread
  /// that found it when few, else spread over the workers now (listed again when large).
  private mutating func consumeZip(_ found: inout Found) throws {
    // Taken out of `found` and switched on consumed, so that `founds` below is the only
    // reference to the items read together: each is then consumed in place (see `consume`),
    // and the array goes back into `found` after, for its worker to free. (Held a second time,
    // the array and every item's runs were copied on the first change.)
    guard let zip = found.zip.take() else { return }
    let piece = found.piece
    let problems: [InputWalker.PlacedProblem]
    var items: InputItemList?
    var founds: [Found] = []
    switch consume zip {
    case .read(let read, let readProblems):
      founds = read
      problems = readProblems
    case .listed(let listed, let listedProblems):
      items = listed
      problems = listedProblems
    case .unlisted(let timedOut):
      guard let (listed, listedProblems) = reading.walker.zipContents(of: piece.item) else {
        // No zip after all: it timed out as a file, or is no longer a zip (read as any file).
        var opened =
          timedOut.map {
            Found(piece: piece, outcome: .failed(.unknown, $0), hash: "", prepared: nil)
          } ?? reading.read(piece.asOpened)
        return try consume(&opened, number: zipItemPaths.add(runFile(piece.item)))
      }
      items = listed
      problems = listedProblems
      // A large zip's listing waits on disk, as the walk's does.
      items?.moveToDisk(directory: outputs.folder)
    }
    var next = problems[...]
    /// The problems placed before item number `item` (all that are left for nil).
    func problemsBefore(_ item: Int?) -> [ImportError] {
      let count = next.prefix { problem in item.map { problem.before <= $0 } ?? true }.count
      defer { next = next.dropFirst(count) }
      return next.prefix(count).map(\.error)
    }
    if let items {
      var work = IncrementalPlan.WorkList(items: items, planned: nil, state: nil)
      if reading.incremental { work.zip = piece }
      try readInOrder(work) { pass, index, found in
        try pass.recordProblems(problemsBefore(index))
        let number = pass.zipItemPaths.add(pass.runFile(found.piece.item))
        try pass.consume(&found, number: number)
      }
    } else {
      for index in founds.indices {
        try recordProblems(problemsBefore(index))
        let number = zipItemPaths.add(runFile(founds[index].piece.item))
        try consume(&founds[index], number: number)
      }
      found.zip = .read(founds, problems: problems)
    }
    try recordProblems(problemsBefore(nil))
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

  /// `found` in place: its prepared runs are moved out one at a time for the writers (see
  /// `PreparedInput.forEachRun`), and left for the worker that made them to free.
  private mutating func consume(_ found: inout Found, number: Int) throws {
    if found.zip != nil { return try consumeZip(&found) }
    let piece = found.piece
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
      report.runsBeforeSince += found.prepared?.runsBeforeSince ?? 0
      try found.prepared?.forEachRun { run in try outputs.addDerivedOnly(run) }
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
    // The run UUIDs are kept only for the state file (an array per input otherwise for nothing).
    let keepsUUIDs = piece.fingerprint != nil
    var uuids: [String] = []
    let status: InputStatus
    switch outcome {
    case .imported(let input):
      var answers = 0
      // Always set for an imported input (the import's runs are left on its thread).
      report.runsBeforeSince += found.prepared?.runsBeforeSince ?? 0
      let runCount = found.prepared?.runs.count ?? 0
      try found.prepared?.forEachRun { run in
        for event in warnings.check(run.checked, inputNumber: number) { log.log(event) }
        if keepsUUIDs, let uuid = run.checked.runUUID { uuids.append(uuid) }
        answers += try outputs.add(run)
      }
      report.filesOK += 1
      report.taskRuns += runCount
      report.answers += answers
      status = .ok
      let note = input.notes.isEmpty ? nil : input.notes.joined(separator: "; ")
      try addInput(
        InputRecord(
          path: item.displayPath, format: input.format.rawValue, status: .ok,
          taskRuns: runCount, answers: answers, error: note), item: item)
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

extension IncrementalPlan.Work {
  /// An item of a zip found at import: exported, with no state.
  init(_ item: InputItem) {
    self.init(item: item, key: "", role: .export, fingerprint: nil, previous: nil)
  }

  /// An item of the zip `zip` found at import, in a run that keeps a state: keyed as the walk
  /// would have keyed it, judged by the zip's fingerprint. (Only files the state has no entry
  /// for are listed unopened, so it has no previous entry.)
  init(_ item: InputItem, foundIn zip: IncrementalPlan.Work) {
    self.init(
      item: item, key: InputFingerprint.key(item), role: zip.role, fingerprint: zip.fingerprint,
      previous: nil)
  }

  /// The same work for a file that turned out not to be a zip after all (it changed since it
  /// was first read): read as any file.
  var asOpened: IncrementalPlan.Work {
    var work = self
    work.item.mayBeZip = false
    return work
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
