// `rkexport stats INPUT...`: the quick look in the terminal before opening any file.
import ArgumentParser
import RKPipeline

struct StatsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Print per-task statistics of the inputs as aligned tables; writes no files."
  )

  @OptionGroup var input: InputOptions

  func run() throws {
    let options = ExportOptions(
      inputs: input.inputs, participantRule: try input.participantRule(),
      jobs: input.parserThreads(writingWorkbook: false),
      surveyDefinitions: input.surveyDefinitions)
    let (text, report) = try StatsRun(options: options).run()
    print(text, terminator: "")
    for warning in report.warnings { printError(warning) }
    if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
  }
}
