// codebook.csv: one row per variable (column) of every table an export writes.
import RKModel
import RKTable

/// The schema and rows of `codebook.csv`, built from the tables' schemas and, when known, the
/// task definitions (question text as label, options as allowed values).
///
/// A column of a wide table (`wide/<task_id>`) is taken for a question when its name is the
/// question's item id, or `<step id>.<item id>`; a 0/1 option column when its name is that plus
/// `.<option>` or `_<option>`. Other columns are described by their schema's own description,
/// unit and categories.
///
/// ```swift
/// let schemas = [taskRuns, steps, answers, inputs] + wideSchemas
///   + [SummaryTable.schema, ChoicesTable.schema, Codebook.schema]
/// let rows = Codebook.rows(for: schemas, definitions: definitions)
/// ```
public enum Codebook {
  /// Separator between allowed values (and `value=text` pairs) in `allowed_values`.
  public static let valueSeparator = " | "

  /// `codebook`: one row per (table, name).
  public static let schema = TableSchema(
    name: "codebook",
    columns: [
      Column("table", .string, "Table the variable belongs to: its CSV path without .csv."),
      Column("name", .string, "Column name, as in the CSV header."),
      Column(
        "label", .string,
        "What the column holds: the question text for question columns, else a description."),
      Column(
        "type", .string, "Value type, as Frictionless Table Schema names it.",
        categories: ["string", "number", "integer", "boolean", "datetime"]),
      Column("unit", .string, "Unit of the values (s = seconds), when there is one."),
      Column(
        "allowed_values", .string,
        "Values the column may take, separated by \" | \"; value=text when the option text is "
          + "known; empty when open."),
      Column(
        "missing_meaning", .string,
        "What an empty cell means in this column (an empty cell is the only missing value)."),
    ],
    primaryKey: ["table", "name"])

  /// One row per column of each schema, in schema and column order.
  public static func rows(for schemas: [TableSchema], definitions: [TaskDefinition]) -> [[Cell]] {
    var rows: [[Cell]] = []
    forEachRow(for: schemas, definitions: definitions) { rows.append($0) }
    return rows
  }

  /// Calls `body` with each of `rows(for:definitions:)`'s rows in turn, holding only one: a
  /// wide table of very many columns needs no table of their rows in memory.
  public static func forEachRow(
    for schemas: [TableSchema], definitions: [TaskDefinition], _ body: ([Cell]) throws -> Void
  ) rethrows {
    for schema in schemas {
      let questions = QuestionColumns(table: schema.name, definitions: definitions)
      for column in schema.columns {
        try body(row(schema: schema, column: column, match: questions.match(column.name)))
      }
    }
  }

  private static func row(
    schema: TableSchema, column: Column, match: QuestionColumns.Match?
  ) -> [Cell] {
    var label = column.description
    var allowed = column.categories.joined(separator: valueSeparator)
    switch match {
    case .question(let question)?:
      if let text = question.text, !text.isEmpty { label = text }
      if !question.options.isEmpty {
        allowed = question.options.map { option in
          option.text.map { "\(option.value)=\($0)" } ?? option.value
        }.joined(separator: valueSeparator)
      }
    case .option(let question, let option)?:
      let optionText = option.text ?? option.value
      label = question.text.map { "\($0): \(optionText)" } ?? optionText
      allowed = ["0", "1"].joined(separator: valueSeparator)
    case nil: break
    }
    return [
      .text(schema.name),
      .text(column.name),
      label.isEmpty ? .empty : .text(label),
      .text(column.type.rawValue),
      column.unit.map { .text($0) } ?? .empty,
      allowed.isEmpty ? .empty : .text(allowed),
      .text(missingMeaning(table: schema.name, column: column.name, isQuestion: match != nil)),
    ]
  }
}

/// The questions of the task definition that belongs to a wide table, looked up by column name.
struct QuestionColumns {
  enum Match {
    case question(QuestionDefinition)
    case option(QuestionDefinition, ChoiceOption)
  }

  private var byName: [String: Match] = [:]

  init(table: String, definitions: [TaskDefinition]) {
    guard table.hasPrefix("wide/") else { return }
    let task = String(table.dropFirst("wide/".count))
    for definition in definitions where definition.taskIdentifier == task {
      for question in definition.questions {
        let names = [
          question.itemIdentifier, "\(question.stepIdentifier).\(question.itemIdentifier)",
        ]
        for name in names {
          // The first definition of a name wins; later duplicates do not overwrite it.
          if byName[name] == nil { byName[name] = .question(question) }
          for option in question.options {
            for optionName in ["\(name).\(option.value)", "\(name)_\(option.value)"]
            where byName[optionName] == nil {
              byName[optionName] = .option(question, option)
            }
          }
        }
      }
    }
  }

  func match(_ columnName: String) -> Match? { byName[columnName] }
}
