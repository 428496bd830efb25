// `rkexport [export] INPUT...`: the whole export, as a cron job runs it.
import ArgumentParser
import Foundation
import RKPipeline
import RKTable

struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export every result found in the inputs (the default command)."
  )

  @OptionGroup var input: InputOptions

  @Option(
    name: .customLong("out"),
    help: ArgumentHelp("Folder to write the outputs into (created when missing).", valueName: "dir"))
  var outputDirectory: String = "rkexport-out"

  @Option(
    name: .customLong("tz"),
    help: ArgumentHelp(
      "Time zone for instants, e.g. Europe/Zurich (default: UTC, written with a Z).",
      valueName: "zone"))
  var timeZone: String = "UTC"

  @Flag(help: "Also write results.xlsx, with real Excel dates, a summary and charts.")
  var xlsx = false

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  func validate() throws {
    guard TimeZoneRule(identifier: timeZone) != nil else {
      throw ValidationError(
        "--tz '\(timeZone)' is not a time zone this system knows; use a name such as "
          + "Europe/Zurich or America/New_York, or UTC.")
    }
  }

  func run() throws {
    let options = ExportOptions(
      inputs: input.inputs,
      outputDirectory: outputDirectory,
      timeZone: TimeZoneRule(identifier: timeZone) ?? .utc,
      participantRule: try input.participantRule(),
      jobs: input.jobs,
      writeXLSX: xlsx,
      surveyDefinitions: input.surveyDefinitions
    )
    let report: ExportReport
    do {
      report = try ExportRun(options: options).run { line in
        if !quiet { printError(line) }
      }
    } catch {
      throw RunFailure(status: 3, message: "nothing exported: \(error)")
    }
    if !quiet { printError(report.summaryLine) }
    if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
  }
}

func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
