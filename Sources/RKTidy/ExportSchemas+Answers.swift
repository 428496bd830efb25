// The answers table's columns (design.md §4 "Answer encoding"), apart for its length.
import RKModel
import RKTable

extension ExportSchemas {
  /// `answers.csv`: one row per answer value (a multiple choice with 3 choices gives 3 rows).
  ///
  /// A skipped or don't-know answer gives one row (value_index 1) with empty value columns.
  /// Questions not presented in a run give no row at all. No primary key: an item id may repeat
  /// within a step in real archives, and nothing is merged or dropped.
  public static let answers = TableSchema(
    name: "answers",
    columns: [
      participantColumn, taskColumn, runUUIDColumn,
      Column("step_id", .string, "Step holding the result (ORKStepResult.identifier)."),
      Column("item_id", .string, "Result identifier (the question, or form item, identifier)."),
      Column(
        "answer_type", .string, "Kind of answer, from the result's class.",
        categories: AnswerType.allCases.map(\.rawValue)),
      Column(
        "status", .string, "answered, skipped (no answer), or dont_know (I don't know).",
        categories: AnswerStatus.allCases.map(\.rawValue)),
      Column(
        "value_index", .integer,
        "Position of this value among the answer's values (chosen options, components), from 1."),
      Column(
        "value", .string,
        "The answer as text: number, true/false, text as typed, choice value, date, HH:MM, path."),
      Column(
        "value_number", .number,
        "The answer as a number when it has one (1/0 for booleans, seconds for times of day)."),
      Column("value_datetime", .datetime, "The instant of a date answer."),
      Column("unit", .string, "Unit of a numeric answer, when recorded."),
      Column("answer_start", .datetime, "When the result started (ORKResult.startDate)."),
      Column("answer_end", .datetime, "When the result ended (ORKResult.endDate)."),
      Column(
        "answer_duration_s", .number, "answer_end minus answer_start, in seconds (ms precision).",
        unit: "s"),
      sourceColumn,
      Column(
        "time_zone", .string,
        "Time zone archived with a date answer: its name, or an offset such as +02:00."),
      Column("latitude", .number, "Latitude of a location answer, in degrees.", unit: "deg"),
      Column("longitude", .number, "Longitude of a location answer, in degrees.", unit: "deg"),
      Column("content_type", .string, "Content type of a file result (e.g. audio/x-m4a)."),
    ],
    foreignKeys: [runForeignKey])
}
