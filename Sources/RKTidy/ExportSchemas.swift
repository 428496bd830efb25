// The long tables of design.md §4, declared once each: column names, order, types and meaning.
import RKTable

/// Schemas of `task_runs`, `steps`, `answers` and `inputs`: the contract's column lists in
/// order, each column with its type and one sentence for the codebook.
///
/// Rows built by `Flattener` and `InputRecord` follow these column orders exactly.
public enum ExportSchemas {
  /// Columns that start `task_runs`, `steps` and `answers` rows (and identify the run).
  static let runKey = ["participant_id", "task_id", "task_run_uuid"]

  static let participantColumn = Column(
    "participant_id", .string,
    "Participant, from the input file's folder below the input root (archives record none).")
  static let taskColumn = Column(
    "task_id", .string, "Task identifier (ORKTaskResult.identifier or the upload's task).")
  static let runUUIDColumn = Column(
    "task_run_uuid", .string,
    "Run UUID as recorded (ORKTaskResult.taskRunUUID); empty when the input has none.")
  static let sourceColumn = Column(
    "source", .string,
    "Input file relative to its input root (zip entries as a.zip!/b.json), #N for the Nth run.")

  static let taskStartColumn = Column(
    "task_start", .datetime, "When the run started (ORKTaskResult.startDate).")
  static let taskEndColumn = Column(
    "task_end", .datetime, "When the run ended (ORKTaskResult.endDate).")
  static let taskDurationColumn = Column(
    "task_duration_s", .number, "task_end minus task_start, in seconds (ms precision).",
    unit: "s")

  /// `task_runs.csv`: one row per task run.
  public static let taskRuns = TableSchema(
    name: "task_runs",
    columns: [
      participantColumn, taskColumn, runUUIDColumn,
      taskStartColumn, taskEndColumn, taskDurationColumn,
      Column("n_steps", .integer, "Number of step results recorded in the run."),
      sourceColumn,
      Column("device_product", .string, "Device model (ORKDevice.product), when recorded."),
      Column("device_platform", .string, "Device platform (ORKDevice.platform), when recorded."),
      Column("device_os_version", .string, "OS version (ORKDevice.osVersion), when recorded."),
      Column("device_os_build", .string, "OS build (ORKDevice.osBuild), when recorded."),
      Column("app_version", .string, "App version from the run's metadata (appVersion)."),
      Column(
        "metadata", .string,
        "Other run metadata (e.g. Bridge phoneInfo) as one JSON object; empty when none."),
    ],
    primaryKey: ["source"])

  /// `steps.csv`: one row per step result, instruction steps included.
  public static let steps = TableSchema(
    name: "steps",
    columns: [
      participantColumn, taskColumn, runUUIDColumn,
      Column("step_index", .integer, "Position of the step result in the run, from 1."),
      Column("step_id", .string, "Step identifier (ORKStepResult.identifier)."),
      Column("step_start", .datetime, "When the step was shown (ORKStepResult.startDate)."),
      Column("step_end", .datetime, "When the step was left (ORKStepResult.endDate)."),
      Column(
        "step_duration_s", .number, "step_end minus step_start, in seconds (ms precision).",
        unit: "s"),
      sourceColumn,
    ],
    primaryKey: ["step_index", "source"],
    foreignKeys: [runForeignKey])

  /// `inputs.csv`: one row per input file, read, failed or skipped.
  public static let inputs = TableSchema(
    name: "inputs",
    columns: [
      Column("path", .string, "Input file (zip entries as a.zip!/b.json)."),
      Column("format", .string, "Format sniffed from the file's content."),
      Column(
        "status", .string,
        "ok: read; failed: could not be read (see error); skipped: not a result.",
        categories: InputStatus.allCases.map(\.rawValue)),
      Column("task_runs", .integer, "Task runs read from the file."),
      Column("answers", .integer, "Rows the file contributed to answers.csv."),
      Column("error", .string, "Why the file failed: place in the file and reason; else empty."),
    ],
    primaryKey: ["path"])

  /// Steps and answers rows refer to their task run by `source`, the one run column that is
  /// never empty (the run UUID may be missing) and unique per run (`#N` for several in a file).
  static let runForeignKey = ForeignKey(
    columns: ["source"], referencedTable: "task_runs", referencedColumns: ["source"])

  /// The four long tables, in the order they are usually written.
  public static var all: [TableSchema] { [taskRuns, steps, answers, inputs] }
}
