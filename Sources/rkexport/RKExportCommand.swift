// The root command: `rkexport INPUT...` exports; `stats` and `inspect` are the quick looks.
import ArgumentParser

struct RKExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rkexport",
    abstract: "Turn archived ResearchKit results into tidy CSV, XLSX, statistics and a codebook.",
    discussion: """
      Reads NSKeyedArchiver archives of ORKTaskResult (binary or XML plists), ResearchKit JSON, \
      Bridge uploads and SurveyNative answers from files, folders and zips, sniffing each \
      format from its content, and writes into the output folder:
        task_runs.csv, steps.csv, answers.csv, wide/<task_id>.csv, inputs.csv
        summary.csv, choices.csv, codebook.csv, datapackage.json, results.xlsx (--xlsx)

      Export options (see rkexport export --help): --out <dir>, --tz <zone>, --xlsx,
      --xlsx-compression fast|standard, --participant-pattern <regex>,
      --survey-definition <file>, --jobs <n>, --quiet, --state <file>, --append,
      --since <date>, --log-format text|json, --file-timeout <s>.

      Exit status: 0 every input was read; 1 some inputs failed (the others are exported and \
      inputs.csv says why); 2 usage error; 3 nothing could be exported; 4 another run is \
      writing the output folder; 130/143 interrupted by SIGINT/SIGTERM (nothing written).

      Nightly: rkexport /srv/study/results --out /srv/study/export --state /srv/study/state.json \
      --quiet
      """,
    version: rkexportVersion,
    subcommands: [ExportCommand.self, StatsCommand.self, InspectCommand.self],
    defaultSubcommand: ExportCommand.self
  )
}

/// An outcome that ends the program with a given status and one line on stderr.
struct RunFailure: Error {
  var status: Int32
  var message: String
}

let rkexportVersion = "0.1.0"
