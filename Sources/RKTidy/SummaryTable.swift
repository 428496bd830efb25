// summary.csv: one row per question of each task (design.md §4).
import RKModel
import RKTable

/// The schema and rows of `summary.csv`.
///
/// Columns after `max` extend the contract's "duration medians": the answer's and its step's
/// duration, then two task-level columns repeated on every row of the task. A task whose runs
/// hold no results at all still gets one row, with empty step_id, item_id and answer_type, so
/// every task appears.
public enum SummaryTable {
  /// `summary`: one row per (task_id, step_id, item_id, answer_type).
  public static let schema = TableSchema(
    name: "summary",
    columns: [
      Column("task_id", .string, "Task identifier (ORKTaskResult.identifier)."),
      Column("step_id", .string, "Step identifier of the step holding the question."),
      Column("item_id", .string, "Question (form item) identifier, as in answers.csv."),
      Column(
        "answer_type", .string, "Kind of answer, from the result class.",
        categories: AnswerType.allCases.map(\.rawValue)),
      Column("n_runs", .integer, "Runs of the task, whether or not they presented the question."),
      Column(
        "n_presented", .integer,
        "Runs with a result for the question; n_runs - n_presented were not presented."),
      Column("n_answered", .integer, "Runs in which the question was answered."),
      Column("n_skipped", .integer, "Runs in which the question was presented but skipped."),
      Column("n_dont_know", .integer, "Runs in which the participant answered \"I don't know\"."),
      Column(
        "complete_rate", .number,
        "n_answered / n_runs: share of all runs of the task with an answer (not of presented)."),
      Column("mean", .number, meaning("Mean")),
      Column("sd", .number, meaning("Sample standard deviation (n - 1; empty below 2 values)")),
      Column("min", .number, meaning("Minimum")),
      Column("p25", .number, meaning("25th percentile (type 7, as R quantile and numpy)")),
      Column("median", .number, meaning("Median")),
      Column("p75", .number, meaning("75th percentile (type 7, as R quantile and numpy)")),
      Column("max", .number, meaning("Maximum")),
      Column(
        "answer_duration_median_s", .number,
        "Median seconds from the question result's start to its end.", unit: "s"),
      Column(
        "step_duration_median_s", .number,
        "Median seconds spent on the step holding the question, over all its step results.",
        unit: "s"),
      Column(
        "step_duration_p90_s", .number,
        "90th percentile (type 7) of the seconds spent on the step holding the question.",
        unit: "s"),
      Column(
        "task_n_participants", .integer,
        "Distinct participants with runs of the task (empty when no participant id is known)."),
      Column(
        "task_duration_median_s", .number,
        "Median seconds from task start to task end over the task's runs.", unit: "s"),
    ],
    primaryKey: ["task_id", "step_id", "item_id", "answer_type"])

  /// Rows in the order of `tasks` and their questions, one cell per schema column.
  public static func rows(for tasks: [TaskStatistics]) -> [[Cell]] {
    var rows: [[Cell]] = []
    forEachRow(for: tasks) { rows.append($0) }
    return rows
  }

  /// Calls `body` with each of `rows(for:)`'s rows in turn, holding only one: a task with very
  /// many questions (one row each, ~1.3 KB as cells) needs no table of them in memory.
  public static func forEachRow(
    for tasks: [TaskStatistics], _ body: ([Cell]) throws -> Void
  ) rethrows {
    for task in tasks {
      let taskCells: [Cell] = [
        task.participantCount.map { .integer(Int64($0)) } ?? .empty,
        secondsCell(task.medianDurationSeconds),
      ]
      if task.questions.isEmpty {
        let leading: [Cell] = [
          .text(task.taskIdentifier), .empty, .empty, .empty, .integer(Int64(task.runCount)),
        ]
        let blanks = schema.columns.count - leading.count - taskCells.count
        try body(leading + Array(repeating: .empty, count: blanks) + taskCells)
        continue
      }
      for question in task.questions {
        try body(questionCells(question) + taskCells)
      }
    }
  }

  private static func questionCells(_ question: QuestionStatistics) -> [Cell] {
    let numbers = question.numbers
    return [
      .text(question.taskIdentifier),
      .text(question.stepIdentifier),
      .text(question.itemIdentifier),
      .text(question.answerType.rawValue),
      .integer(Int64(question.runCount)),
      .integer(Int64(question.presentedCount)),
      .integer(Int64(question.answeredCount)),
      .integer(Int64(question.skippedCount)),
      .integer(Int64(question.dontKnowCount)),
      numberCell(question.completeRate),
      numberCell(numbers?.mean),
      numberCell(numbers?.standardDeviation),
      numberCell(numbers?.minimum),
      numberCell(numbers?.p25),
      numberCell(numbers?.median),
      numberCell(numbers?.p75),
      numberCell(numbers?.maximum),
      secondsCell(question.answerDurationMedianSeconds),
      secondsCell(question.stepDurationMedianSeconds),
      secondsCell(question.stepDurationP90Seconds),
    ]
  }

  private static func meaning(_ statistic: String) -> String {
    "\(statistic) of the numeric answers: the number entered (numeric, scale, SES), seconds "
      + "(time interval), seconds since midnight (time of day) or seconds since "
      + "1970-01-01T00:00:00Z (date)."
  }
}

/// A number cell in shortest round-trip text; empty for nil and non-finite values.
func numberCell(_ value: Double?) -> Cell {
  guard let value, value.isFinite else { return .empty }
  return .number(text: NumberValue(value).text, value: value)
}
