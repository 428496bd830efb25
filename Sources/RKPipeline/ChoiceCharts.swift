// One bar chart per choice question, drawn from the rows of the choices sheet.
import RKTable
import RKWrite

enum ChoiceCharts {
  /// Groups consecutive choices rows of the same question (task_id, step_id, item_id) into one
  /// chart of option counts. Column positions come from the choices schema, not assumptions.
  static func specs(rows: [[Cell]], sheet: XLSXTableSheet) -> [XLSXBarChart] {
    var charts: [XLSXBarChart] = []
    var start = 0
    while start < rows.count {
      let key = questionKey(rows[start])
      var end = start + 1
      while end < rows.count && questionKey(rows[end]) == key { end += 1 }
      charts.append(
        XLSXBarChart(
          title: "\(key.task): \(key.item)", data: sheet, categoryColumn: "option",
          valueColumn: "count", rows: start..<end))
      start = end
    }
    return charts
  }

  private static func questionKey(_ row: [Cell]) -> (task: String, step: String, item: String) {
    func text(_ index: Int) -> String {
      guard index < row.count, case .text(let value) = row[index] else { return "" }
      return value
    }
    return (text(0), text(1), text(2))
  }
}
