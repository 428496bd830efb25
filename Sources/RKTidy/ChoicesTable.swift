// choices.csv: one row per option of each choice or boolean question (design.md §4).
import RKModel
import RKTable

/// The schema and rows of `choices.csv`: how many runs chose each option.
///
/// Options come in definition order when a `TaskDefinition` lists them (options nobody chose
/// then appear with count 0); boolean questions always list `true` and `false`; options seen only
/// in answers follow, numerically when all are numbers, else by text; a null choice value
/// (`NSNull`) comes last with an empty option cell.
public enum ChoicesTable {
  /// `choices`: one row per (task_id, step_id, item_id, option).
  public static let schema = TableSchema(
    name: "choices",
    columns: [
      Column("task_id", .string, "Task identifier (ORKTaskResult.identifier)."),
      Column("step_id", .string, "Step identifier of the step holding the question."),
      Column("item_id", .string, "Question (form item) identifier, as in answers.csv."),
      Column(
        "option", .string,
        "The option's value as answers.csv writes a chosen value (empty for a null value)."),
      Column(
        "count", .integer,
        "Runs that chose the option (0 for a known option nobody chose)."),
      Column(
        "percent", .number,
        "100 * count / n_answered of the question: percent of the runs that answered it, so "
          + "multiple choice options can add up to more than 100.",
        unit: "%"),
    ])

  /// Rows for every choice and boolean question of `tasks`, in question and option order.
  public static func rows(for tasks: [TaskStatistics]) -> [[Cell]] {
    var rows: [[Cell]] = []
    for task in tasks {
      for question in task.questions where question.hasOptions {
        for option in question.options {
          rows.append([
            .text(question.taskIdentifier),
            .text(question.stepIdentifier),
            .text(question.itemIdentifier),
            option.value.map { .text($0) } ?? .empty,
            .integer(Int64(option.count)),
            numberCell(option.percent),
          ])
        }
      }
    }
    return rows
  }
}
