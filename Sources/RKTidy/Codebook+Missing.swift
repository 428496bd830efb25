// What an empty cell means, column by column: the codebook's missing_meaning.

extension Codebook {
  /// Wide-table columns that describe the run rather than a question (design.md §4).
  static let wideRunColumns: Set<String> = [
    "participant_id", "task_run_uuid", "task_start", "task_end", "task_duration_s", "source",
  ]

  /// The meaning of an empty cell in `column` of `table`.
  static func missingMeaning(table: String, column: String, isQuestion: Bool) -> String {
    if table.hasPrefix("wide/"), isQuestion || !wideRunColumns.contains(column) {
      return "Empty = not presented, skipped or answered \"don't know\" (see status in "
        + "answers.csv); never 0 for an unanswered question."
    }
    if let meaning = specific[table]?[column] { return meaning }
    return shared[column] ?? notRecorded
  }

  private static let notRecorded = "Empty = not recorded in the input."
  private static let noAnswer =
    "Empty = no answer (status skipped or dont_know) or not used by this answer type."
  private static let noDates = "Empty = start or end date not recorded in the input."
  private static let noNumbers = "Empty = the question has no numeric answers."

  /// Meanings that hold for a column name in every table.
  private static let shared: [String: String] = [
    "participant_id":
      "Empty = no participant folder above the file and no --participant-pattern match.",
    "task_run_uuid": "Empty = the input records no run UUID.",
    "task_duration_s": noDates,
    "step_duration_s": noDates,
    "answer_duration_s": noDates,
  ]

  /// Meanings specific to one table's column.
  private static let specific: [String: [String: String]] = [
    "answers": [
      "value": noAnswer,
      "value_number": noAnswer + " Also empty for non-numeric values.",
      "value_datetime": noAnswer + " Also empty for answers that are not dates.",
      "value_index": "Empty = the question has no answer value (skipped or dont_know).",
      "unit": "Empty = no unit recorded (only numeric answers have one).",
    ],
    "summary": [
      "step_id": "Empty only on a task's single row when its runs hold no question results.",
      "item_id": "Empty only on a task's single row when its runs hold no question results.",
      "answer_type": "Empty only on a task's single row when its runs hold no question results.",
      "complete_rate": "Empty = the task has no runs.",
      "mean": noNumbers, "min": noNumbers, "p25": noNumbers, "median": noNumbers,
      "p75": noNumbers, "max": noNumbers,
      "sd": "Empty = fewer than two numeric answers.",
      "answer_duration_median_s": "Empty = no answer recorded both start and end dates.",
      "step_duration_median_s": "Empty = no step result recorded both start and end dates.",
      "step_duration_p90_s": "Empty = no step result recorded both start and end dates.",
      "task_n_participants": "Empty = no run of the task has a participant id.",
      "task_duration_median_s": "Empty = no run of the task recorded both start and end dates.",
    ],
    "choices": [
      "option": "Empty = the participant chose a null value (NSNull).",
      "percent": "Empty = nobody answered the question.",
    ],
    "inputs": [
      "error": "Empty = the file was read without error (status ok or skipped).",
      "format": "Empty = the format could not be recognised.",
    ],
  ]
}
