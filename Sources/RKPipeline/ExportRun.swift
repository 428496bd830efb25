// One export: lock the output folder, read the inputs, stage every file, commit them as a set.
import Foundation
import RKImport
import RKModel
import RKTable
import RKTidy
import RKWrite

/// Runs one export (design.md §4): importers → flattener → writers, streaming.
///
/// Inputs are parsed on `options.jobs` threads and consumed in path order on the calling
/// thread, so outputs are identical whatever the scheduling. Memory stays flat: wide rows, the
/// statistics' values, the run UUIDs of the duplicate check and the walked input list wait in
/// unlinked temporary files; only counts per question and the wide tables' column sets remain.
///
/// Every file is written into a staging folder and renamed into place only when the whole run
/// completed (`OutputCommit`); `OutputLock` keeps a second run off the same folder; with
/// `options.statePath` only new or changed inputs are read (`ExportState`).
public final class ExportRun {
  public let options: ExportOptions

  public init(options: ExportOptions) {
    self.options = options
  }

  /// Exports; events (failed inputs, warnings, the summary) go to `log`. With `interrupts`,
  /// SIGINT/SIGTERM remove the staged files and leave the previous outputs as they were.
  ///
  /// Throws `OutputLock.Busy` when another run holds the folder (exit status 4) and other
  /// errors when the outputs themselves cannot be written (exit status 3).
  public func run(log: RunLog, interrupts: InterruptGuard? = nil) throws -> ExportReport {
    let started = Date()
    let folder = options.outputDirectory
    try createFolder(folder)
    // A file made and its cleanup registered under one critical section: a signal in between
    // would otherwise leave the file behind.
    func uninterrupted<T>(_ work: () throws -> T) rethrows -> T {
      if let interrupts { return try interrupts.critical(work) }
      return try work()
    }
    let lock = try uninterrupted { () throws -> OutputLock in
      let lock = try OutputLock(directory: folder, started: started)
      interrupts?.onInterrupt { lock.release() }
      return lock
    }
    defer { lock.release() }
    if let stale = lock.staleHolder {
      log.log(
        LogEvent(
          "stale_lock", level: .warning,
          message: "took over the lock of \(folder) left by \(stale), which is no longer running"))
    }
    for note in OutputCommit.recover(outputDirectory: folder) {
      log.log(LogEvent("recovered", level: .warning, message: "\(folder): \(note)"))
    }
    // A plain export replaces the previous outputs (a --state run writes a delta folder, or
    // reads them to append): it lets go of their cached pages now, on the core the start
    // leaves idle, not in the commit's renames.
    let releasing =
      options.statePath == nil
      ? BackgroundWork(name: "rkexport.release") {
        OutputCommit.releaseCachedPages(of: ExportOutputs.fixedFileNames, in: folder)
      } : nil
    defer { _ = try? releasing?.wait() }
    let state = try options.statePath.flatMap { try ExportState.load(path: $0) }
    let definitions = try SurveyDefinitions.load(options.surveyDefinitions)
    var walker = InputWalker(roots: options.inputs)
    // Files are opened only when read (a zip is listed then), but for those the state has
    // entries for: the plan judges a zip's entries by its file, so it needs them before
    // anything is read. Of those, a file recorded under its own path (so not a zip) and
    // unchanged since is not opened either.
    walker.opensFilesAtImport = state == nil
    if let inputs = state?.inputs {
      walker.listsUnopened = { path in !inputs.hasEntries(forFile: path) }
      walker.knownPlainFileSize = { path in
        guard let recorded = inputs.fingerprint(forKey: path),
          let now = InputFingerprint.of(file: path), now == recorded
        else { return nil }
        return now.size
      }
    }
    // The list waits on disk (an unlinked file in the output folder, which exists by now):
    // streamed there during the walk when its order allows, else moved there after it.
    walker.streamDirectory = folder
    var (items, problems) = walker.itemList()
    uninterrupted { items.moveToDisk(directory: folder) }
    let plan = IncrementalPlan(
      items: items, state: state, append: options.append,
      recordsState: options.statePath != nil)

    var report = ExportReport()
    report.filesUnchanged = plan.unchangedCount
    if let state, plan.hasNothingToExport, problems.isEmpty {
      report.nothingNew = true
      report.filesUnchanged = items.count
      log.log(
        LogEvent(
          "nothing_new", level: .info,
          message: "nothing new since \(state.exportedAt): \(grouped(items.count)) files unchanged",
          fields: [("unchanged", .integer(items.count)), ("since", .text(state.exportedAt))]))
      return report
    }

    let stateStaging = options.statePath.map { $0 + ".next" }
    let staging = try uninterrupted { () throws -> OutputCommit in
      let staging = try OutputCommit(outputDirectory: folder)
      interrupts?.onInterrupt {
        staging.discard()
        if let stateStaging { unlink(stateStaging) }
      }
      return staging
    }
    defer {
      staging.discard()
      if let stateStaging { unlink(stateStaging) }
    }
    let outputs = try ExportOutputs(
      options: options, folder: staging.stagingDirectory, definitions: definitions.tasks)
    defer { outputs.abandonUnfinished() }
    let importer = InputImporter(options: ImportOptions(surveyDefinitions: definitions.surveys))
    var pass = ExportPass(
      options: options, plan: plan, outputs: outputs, log: log, now: started, state: state,
      definitions: definitions.tasks, importer: importer, walker: walker)
    pass.setWalkProblems(problems)
    try pass.importAll()
    try outputs.finish()
    report.merge(pass.report)

    var renames: [OutputCommit.Rename] = []
    let stamp = ExportRun.stamp(started)
    // Only touched inputs (new timestamps, same bytes): record the timestamps, write no outputs.
    let onlyTouched = state != nil && report.filesRead == 0
    if let state, onlyTouched {
      report.nothingNew = true
      log.log(
        LogEvent(
          "nothing_new", level: .info,
          message: "nothing new since \(state.exportedAt): \(grouped(items.count)) files unchanged",
          fields: [("unchanged", .integer(items.count)), ("since", .text(state.exportedAt))]))
    } else if state != nil && !options.append {
      var delta = folder + "/delta-" + stamp
      // Two runs within one second: keep both deltas.
      var attempt = 1
      while FileManager.default.fileExists(atPath: delta) {
        attempt += 1
        delta = folder + "/delta-" + stamp + "-\(attempt)"
      }
      renames.append(.init(from: staging.stagingDirectory, to: delta))
      report.deltaDirectory = delta
    } else {
      if options.append, state != nil {
        try AppendMerge(folder: folder, staging: staging.stagingDirectory)
          .mergeLongTables(replacing: pass.replacedSources)
      }
      renames += ExportRun.commitOrder(outputs.writtenFiles).map {
        .init(from: staging.stagingDirectory + "/" + $0, to: folder + "/" + $0)
      }
    }
    if let statePath = options.statePath, let stateStaging {
      var (next, newer) = try pass.nextState(previous: state, folder: folder)
      // "Nothing new since" keeps naming the last run that exported something.
      next.exportedAt = onlyTouched ? (state?.exportedAt ?? "") : ExportRun.iso8601(started)
      do {
        try writeDurably(to: stateStaging) { write in try next.writeJSON(replacing: newer, write) }
      } catch let error as StateChangedError {
        throw OutputError(path: statePath, reason: error.description)
      }
      renames.append(.init(from: stateStaging, to: statePath))
    }
    let commit = {
      try staging.commit(renames)
      interrupts?.markCommitted()
    }
    if let interrupts { try interrupts.critical(commit) } else { try commit() }
    report.outputs = onlyTouched ? [] : outputs.writtenFiles
    report.warnings = outputs.warnings
    for warning in report.warnings {
      log.log(LogEvent("warning", level: .warning, message: warning))
    }
    report.seconds = Date().timeIntervalSince(started)
    return report
  }

  /// Data tables first, the input list next, the data package last: a reader that sees the
  /// new datapackage.json sees every file it describes.
  static func commitOrder(_ files: [String]) -> [String] {
    let last = ["inputs.csv", "codebook.csv", "datapackage.json"]
    return files.filter { !last.contains($0) } + last.filter { files.contains($0) }
  }

  /// `20240131T020000Z`: the delta folder's suffix, UTC, sortable.
  static func stamp(_ date: Date) -> String {
    // The ISO 8601 text without its separators: no ICU formatter at the end of every export.
    String(ISO8601.utcSeconds(date.timeIntervalSince1970).filter { $0 != "-" && $0 != ":" })
  }

  static func iso8601(_ date: Date) -> String {
    ISO8601.utcSeconds(date.timeIntervalSince1970)
  }
}

extension ExportReport {
  /// `read 10,234 files (10,230 ok, 3 failed, 1 skipped): 10,230 task runs, 152,340 answers in 4.2 s`
  public var summaryLine: String {
    "read \(grouped(filesRead)) files (\(grouped(filesOK)) ok, \(grouped(filesFailed)) failed, "
      + "\(grouped(filesSkipped)) skipped): \(grouped(taskRuns)) task runs, "
      + "\(grouped(answers)) answers in \(oneDecimal(seconds)) s"
  }

  /// The summary as a log event (`{"event":"summary","files_read":…}` in JSON logs).
  public var summaryEvent: LogEvent {
    var fields: [(String, LogValue)] = [
      ("files_read", .integer(filesRead)), ("files_ok", .integer(filesOK)),
      ("files_failed", .integer(filesFailed)), ("files_skipped", .integer(filesSkipped)),
      ("files_unchanged", .integer(filesUnchanged)), ("task_runs", .integer(taskRuns)),
      ("answers", .integer(answers)), ("data_warnings", .integer(dataWarnings)),
      ("seconds", .number((seconds * 1000).rounded() / 1000)),
      ("exit_status", .integer(Int(exitStatus))),
    ]
    if let deltaDirectory { fields.append(("delta", .text(deltaDirectory))) }
    return LogEvent("summary", level: .info, message: summaryLine, fields: fields)
  }

  mutating func merge(_ pass: ExportReport) {
    filesRead = pass.filesRead
    filesOK = pass.filesOK
    filesFailed = pass.filesFailed
    filesSkipped = pass.filesSkipped
    filesUnchanged += pass.filesUnchanged
    taskRuns = pass.taskRuns
    answers = pass.answers
    runsBeforeSince = pass.runsBeforeSince
    dataWarnings = pass.dataWarnings
  }
}

/// 10234 → "10,234": readable in a log, unambiguous in any locale.
func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var out = ""
  for (i, c) in digits.enumerated() {
    if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
    out.append(c)
  }
  return value < 0 ? "-" + out : out
}

/// `String(format: "%.1f", value)`: the exact value rounded to tenths, half to even, as glibc's
/// printf does, worked out on the Double's bits for the summary's seconds (0 to 10^14), so the
/// run's last line does not scan the binary's conformances for `String(format:)` (~0.9 M
/// instructions at every exit). Other values go to `String(format:)`.
func oneDecimal(_ value: Double) -> String {
  guard value.isFinite, value >= 0, value < 1e14 else { return String(format: "%.1f", value) }
  // value = significand × 2^exponent, the significand an integer below 2^53.
  let isNormal = value.exponentBitPattern != 0
  let significand = value.significandBitPattern | (isNormal ? 1 << 52 : 0)
  let exponent = (isNormal ? Int(value.exponentBitPattern) : 1) - 1075
  let tenfold = significand * 10  // below 2^57
  var tenths: UInt64
  if exponent >= 0 {
    tenths = tenfold << UInt64(exponent)
  } else if -exponent >= 58 {
    tenths = 0  // below a half
  } else {
    let shift = UInt64(-exponent)
    tenths = tenfold >> shift
    let rest = tenfold & ((1 << shift) - 1)
    let half: UInt64 = 1 << (shift - 1)
    if rest > half || (rest == half && tenths & 1 == 1) { tenths += 1 }
  }
  return "\(tenths / 10).\(tenths % 10)"
}
