// One export: walk the inputs, parse them in parallel, write every table in input order.
import Foundation
import RKImport
import RKModel
import RKTable
import RKTidy
import RKWrite

/// Runs one export (design.md §4): importers → flattener → writers, streaming.
///
/// Inputs are parsed on `options.jobs` threads and consumed in path order on the calling
/// thread, so outputs are identical whatever the scheduling. Only per-question statistics and
/// the wide tables' column sets grow with the input; wide rows wait in a spool file.
public final class ExportRun {
  public let options: ExportOptions

  public init(options: ExportOptions) {
    self.options = options
  }

  /// Exports everything; `log` receives one line per failed input and notable event.
  /// Throws only when the outputs themselves cannot be written (exit status 3).
  public func run(log: (String) -> Void) throws -> ExportReport {
    let started = Date()
    let definitions = try SurveyDefinitions.load(options.surveyDefinitions)
    let importer = InputImporter(options: ImportOptions(surveyDefinitions: definitions.surveys))
    let (items, problems) = InputWalker(roots: options.inputs).items()

    let outputs = try ExportOutputs(options: options, definitions: definitions.tasks)
    defer { outputs.abandonUnfinished() }
    var report = ExportReport()

    for problem in problems {
      try outputs.addInput(InputRecord(path: problem.file, format: "", status: .failed, taskRuns: 0, answers: 0, error: problem.message))
      report.filesRead += 1
      report.filesFailed += 1
      log("rkexport: \(problem)")
    }
    let rule = options.participantRule
    try orderedParallelMap(items, jobs: options.jobs, transform: { importer.importItem($0) }) {
      index, outcome in
      let item = items[index]
      report.filesRead += 1
      switch outcome {
      case .imported(let input):
        var answers = 0
        for (number, var run) in input.runs.enumerated() {
          run.participantID = rule.participantID(for: item)
          // A file holding several runs (an NSArray root) numbers them: `path#1`, `path#2`.
          run.source = input.runs.count > 1 ? "\(item.displayPath)#\(number + 1)" : item.displayPath
          answers += try outputs.add(run)
        }
        report.filesOK += 1
        report.taskRuns += input.runs.count
        report.answers += answers
        let note = input.notes.isEmpty ? nil : input.notes.joined(separator: "; ")
        try outputs.addInput(
          InputRecord(
            path: item.displayPath, format: input.format.rawValue, status: .ok,
            taskRuns: input.runs.count, answers: answers, error: note))
      case .failed(let format, let error):
        report.filesFailed += 1
        log("rkexport: \(error)")
        try outputs.addInput(
          InputRecord(
            path: item.displayPath, format: format.rawValue, status: .failed, taskRuns: 0,
            answers: 0, error: error.message))
      case .skipped(let format, let reason):
        report.filesSkipped += 1
        try outputs.addInput(
          InputRecord(
            path: item.displayPath, format: format.rawValue, status: .skipped, taskRuns: 0,
            answers: 0, error: reason))
      }
    }
    try outputs.finish()
    report.outputs = outputs.writtenFiles
    report.warnings = outputs.warnings
    for warning in report.warnings { log("rkexport: warning: \(warning)") }
    report.seconds = Date().timeIntervalSince(started)
    return report
  }
}

extension ExportReport {
  /// `read 10,234 files (10,230 ok, 3 failed, 1 skipped): 10,230 task runs, 152,340 answers in 4.2 s`
  public var summaryLine: String {
    "read \(grouped(filesRead)) files (\(grouped(filesOK)) ok, \(grouped(filesFailed)) failed, "
      + "\(grouped(filesSkipped)) skipped): \(grouped(taskRuns)) task runs, "
      + "\(grouped(answers)) answers in \(String(format: "%.1f", seconds)) s"
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
