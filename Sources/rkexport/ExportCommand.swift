// `rkexport [export] INPUT...`: the whole export, as a cron job runs it.
import ArgumentParser
import Foundation
import RKImport
import RKModel
import RKPipeline
import RKTable
import RKTidy

struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export every result found in the inputs (the default command).",
    discussion: """
      Outputs appear all together when the run completes: files are staged in a hidden folder \
      and renamed into place at the end. An interrupted or failed run leaves the previous \
      outputs unchanged. One run at a time per output folder (a lock file, .rkexport.lock).

      Exit status: 0 every input was read; 1 some inputs failed; 2 usage error; 3 nothing \
      could be exported; 4 another run is writing the output folder; 130/143 interrupted by \
      SIGINT/SIGTERM (nothing written).
      """
  )

  @OptionGroup var input: InputOptions

  @Option(
    name: .customLong("out"),
    help: ArgumentHelp("Folder to write the outputs into (created when missing).", valueName: "dir")
  )
  var outputDirectory: String = "rkexport-out"

  @Option(
    name: .customLong("tz"),
    help: ArgumentHelp(
      "Time zone for instants, e.g. Europe/Zurich (default: UTC, written with a Z).",
      valueName: "zone"))
  var timeZone: String = "UTC"

  @Flag(help: "Also write results.xlsx, with real Excel dates, a summary and charts.")
  var xlsx = false

  @Option(
    name: .customLong("xlsx-compression"),
    help: ArgumentHelp(
      "How hard results.xlsx is compressed: fast (zlib level 1, the default) or standard "
        + "(libxlsxwriter's own level 6: files about a fifth smaller, closed about 2x slower).",
      valueName: "fast|standard"))
  var xlsxCompression: XLSXCompression?

  @OptionGroup var cron: CronOptions

  @OptionGroup(title: "Sharing") var privacy: PrivacyFlags

  func validate() throws {
    if outputDirectory.isEmpty {
      throw ValidationError("--out needs a folder name (it was given an empty one).")
    }
    try refuseUnwritableName(outputDirectory, option: "--out")
    guard TimeZoneRule(identifier: timeZone) != nil else {
      throw ValidationError(
        "--tz '\(timeZone)' is not a time zone this system knows; use a name such as "
          + "Europe/Zurich or America/New_York, or UTC.")
    }
    if xlsxCompression != nil && !xlsx {
      throw ValidationError("--xlsx-compression applies to results.xlsx: add --xlsx.")
    }
    if cron.append && xlsx {
      throw ValidationError(
        "--append cannot be combined with --xlsx: a workbook cannot be appended to. "
          + "Use --state alone (a delta folder per run, each with its results.xlsx).")
    }
  }

  func run() throws {
    var options = ExportOptions(
      inputs: input.inputs,
      outputDirectory: outputDirectory,
      timeZone: TimeZoneRule(identifier: timeZone) ?? .utc,
      participantRule: try input.participantRule(),
      jobs: input.parserThreads(writingWorkbook: xlsx),
      writeXLSX: xlsx,
      surveyDefinitions: input.surveyDefinitions
    )
    if let xlsxCompression { options.xlsxCompression = xlsxCompression }
    options.statePath = cron.state
    options.append = cron.append
    options.since = cron.since.flatMap(CronOptions.parseInstant)
    options.fileTimeoutSeconds = cron.fileTimeout
    options.privacy = try privacy.privacyOptions()
    options.excelSafe = privacy.excelSafe
    options.byteOrderMark = privacy.byteOrderMark
    let log = RunLog(format: cron.logFormat, quiet: cron.quiet)
    let interrupts = InterruptGuard { message in
      log.log(LogEvent("interrupted", level: .error, message: message))
    }
    let report: ExportReport
    do {
      report = try ExportRun(options: options).run(log: log, interrupts: interrupts)
    } catch let busy as OutputLock.Busy {
      interrupts.waitForInterruptHandling()
      log.log(LogEvent("locked", level: .error, message: busy.description))
      throw ExitCode(CronOptions.lockedStatus)
    } catch {
      interrupts.waitForInterruptHandling()
      log.log(LogEvent("failed", level: .error, message: "nothing exported: \(error)"))
      throw ExitCode(3)
    }
    interrupts.stopListening()
    if !report.nothingNew { log.log(report.summaryEvent) }
    if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
  }
}

extension XLSXCompression: ExpressibleByArgument {}

func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Refuses a path rkexport would write under other bytes than it was given: outputs are
/// written by the path's text, and a name that is not valid UTF-8 (a Latin-1 folder) reaches
/// the program as mapped characters (`FileSystemName`), so `--out café` in Latin-1 created a
/// folder of another name, and the next cron run read a state file the user never named.
func refuseUnwritableName(_ path: String, option: String) throws {
  guard FileSystemName.holdsMappedBytes(path) else { return }
  throw ValidationError(
    "\(option) \(path): rkexport writes only to paths that are valid UTF-8 (this one holds "
      + "other bytes); use a name that is, or a link whose path is.")
}
