// `rkexport stats`: the same import as an export, feeding only the statistics.
import Foundation
import RKImport
import RKModel
import RKTidy

/// Reads the inputs and renders per-task statistics as text; writes no files.
public struct StatsRun {
  public let options: ExportOptions

  public init(options: ExportOptions) {
    self.options = options
  }

  /// The rendered report, and the counts (failed inputs become warnings and the exit status).
  public func run(width: Int = 100) throws -> (text: String, report: ExportReport) {
    let definitions = try SurveyDefinitions.load(options.surveyDefinitions)
    let importer = InputImporter(options: ImportOptions(surveyDefinitions: definitions.surveys))
    // The list waits in the temporary folder, streamed there as the walk lists it (as an
    // export's does in its output folder).
    var walker = InputWalker(roots: options.inputs)
    walker.streamDirectory = NSTemporaryDirectory()
    var (items, problems) = walker.itemList()
    items.moveToDisk(directory: NSTemporaryDirectory())
    // Values wait in an unlinked file in the temporary folder, as an export's do in its staging.
    var collector = StatisticsCollector(
      definitions: definitions.tasks, spoolDirectory: NSTemporaryDirectory())
    var report = ExportReport()
    for problem in problems.map(\.error) {
      report.filesRead += 1
      report.filesFailed += 1
      report.warnings.append("rkexport: \(problem)")
    }
    // The same participant, source (`#N`) and --since rules as an export.
    let preparer = RunPreparer(options: options, definitions: definitions.tasks)
    let read: @Sendable (InputItem) -> ImportOutcome = { importer.importItem($0) }
    orderedParallelMap(items, jobs: options.jobs, transform: read) { index, outcome in
      report.filesRead += 1
      switch outcome {
      case .imported(let input):
        report.filesOK += 1
        var prepared = preparer.prepare(input, item: items[index], for: .statistics)
        prepared.forEachRun { run in
          report.taskRuns += 1
          collector.add(run.contribution)
        }
      case .failed(_, let error):
        report.filesFailed += 1
        report.warnings.append("rkexport: \(error)")
      case .skipped:
        report.filesSkipped += 1
      }
    }
    let statistics = collector.statistics()
    if let failure = collector.spoolFailure {
      throw OutputError(path: NSTemporaryDirectory(), reason: failure)
    }
    return (StatsReport.render(statistics, width: width), report)
  }
}
