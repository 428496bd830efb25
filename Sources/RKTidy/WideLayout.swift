// The final shape of one wide table, computed once all runs have been added.
import RKModel
import RKTable

/// Final columns of a task's wide table, and where each partial-row key lands.
struct WideLayout {
  static let runColumns: [Column] = [
    ExportSchemas.participantColumn, ExportSchemas.runUUIDColumn, ExportSchemas.taskStartColumn,
    ExportSchemas.taskEndColumn, ExportSchemas.taskDurationColumn,
  ]

  var schema: TableSchema
  var columns: [WideColumn]
  /// Final column index of each question's value, by question ordinal.
  var valueColumn: [Int]
  /// Final column index of each option, by question ordinal then option ordinal (0-based);
  /// empty for questions without option columns.
  var optionColumns: [[Int]]

  init(task: WideTask, tableName: String) {
    var names = WideNaming.UniqueNames()
    var schemaColumns: [Column] = []
    columns = []
    for column in WideLayout.runColumns {
      let name = names.claim(column.name)
      schemaColumns.append(Column(name, column.type, column.description, unit: column.unit))
      columns.append(WideColumn(name: name, role: .run))
    }
    var itemUse: [String: Int] = [:]
    for question in task.questions { itemUse[question.key.item, default: 0] += 1 }
    valueColumn = Array(repeating: -1, count: task.questions.count)
    optionColumns = Array(repeating: [], count: task.questions.count)
    for ordinal in task.orderedQuestions {
      let question = task.questions[ordinal]
      let key = question.key
      let base = (itemUse[key.item] ?? 0) > 1 ? "\(key.step).\(key.item)" : key.item
      let name = names.claim(WideNaming.safeName(base))
      valueColumn[ordinal] = schemaColumns.count
      let withOptions = question.isChoice && question.allowsSeveral
      let valueType: ColumnType = withOptions ? .string : question.kinds.columnType
      schemaColumns.append(Column(name, valueType, Self.describe(question, packed: withOptions)))
      columns.append(
        WideColumn(
          name: name, role: .answer, stepID: key.step, itemID: key.item,
          answerType: question.answerType))
      guard withOptions else { continue }
      var indexes = Array(repeating: -1, count: question.options.count)
      for optionOrdinal in Self.optionOrder(question) {
        let option = question.options[optionOrdinal].text
        let optionName = names.claim(name + "." + WideNaming.safeName(option))
        indexes[optionOrdinal] = schemaColumns.count
        schemaColumns.append(
          Column(
            optionName, .integer,
            "1 if \(Self.quote(option)) was chosen for \(Self.place(key)), 0 if it was not, "
              + "blank when the question was not answered."))
        columns.append(
          WideColumn(
            name: optionName, role: .option, stepID: key.step, itemID: key.item, option: option,
            answerType: question.answerType))
      }
      optionColumns[ordinal] = indexes
    }
    schema = TableSchema(name: tableName, columns: schemaColumns)
  }

  /// Options from the task definition in its order; then the others, numbers ascending
  /// before texts in Unicode order, so the order does not depend on which run came first.
  static func optionOrder(_ question: WideQuestion) -> [Int] {
    let defined = Array(0..<min(question.definedOptionCount, question.options.count))
    let others = (question.definedOptionCount..<question.options.count).sorted { a, b in
      let left = question.options[a]
      let right = question.options[b]
      switch (left.number, right.number) {
      case (let x?, let y?) where x != y: return x < y
      case (.some, nil): return true
      case (nil, .some): return false
      default: return left.text.unicodeScalars.lexicographicallyPrecedes(right.text.unicodeScalars)
      }
    }
    return defined + others
  }

  private static func describe(_ question: WideQuestion, packed: Bool) -> String {
    let kind = question.answerType.map { " (\($0.rawValue))" } ?? ""
    if packed {
      return "Values chosen for \(place(question.key))\(kind), joined with ';' in archive order; "
        + "blank when not answered."
    }
    return "Answer to \(place(question.key))\(kind); blank when skipped or not presented."
  }

  private static func place(_ key: QuestionKey) -> String {
    "item \(quote(key.item)) of step \(quote(key.step))"
  }

  private static func quote(_ text: String) -> String { "\"\(WideNaming.safeName(text))\"" }
}
