// One run's wide-table values before the final columns are known (spooled by the pipeline).
import RKTable

/// One task run in the wide pivot's compact form: the five run columns, then (key, value)
/// pairs of the answered questions only, so its size follows the run, not the table width.
///
/// `cells` layout: `participant_id, task_run_uuid, task_start, task_end, task_duration_s`, then
/// pairs `.integer(key), value`, where `key = question << 32 | option` (option 0: the question's
/// own column; option n ≥ 1: its n-th registered option, value `.integer(1)`). Keys refer to the
/// `WidePivot` that made the row and mean nothing to another pivot.
public struct WidePartialRow: Sendable, Equatable {
  /// Number of leading run cells.
  public static let runCellCount = 5

  /// The `task_runs` column each run cell repeats (`participant_id` is column 0, `task_start`
  /// column 3, …): a run's cells can be copied from its rendered `task_runs` row.
  public static let taskRunsColumns: [Int] = WideLayout.runColumns.map { column in
    ExportSchemas.taskRuns.columns.firstIndex { $0.name == column.name } ?? -1
  }

  public var taskID: String
  public var cells: [Cell]

  public init(taskID: String, cells: [Cell]) {
    self.taskID = taskID
    self.cells = cells
  }

  /// The row as one cell list for a `RowSpool`: the task id first, then `cells`.
  public var spoolCells: [Cell] { [.text(taskID)] + cells }

  /// Rebuilds a row from `spoolCells`; nil when the cells do not have that shape.
  public init?(spoolCells: [Cell]) {
    guard spoolCells.count >= 1 + WidePartialRow.runCellCount,
      case .text(let taskID) = spoolCells[0]
    else { return nil }
    self.taskID = taskID
    cells = Array(spoolCells.dropFirst())
  }

  /// The key of a pair (the value of its `.integer` key cell).
  static func key(question: Int, option: Int) -> Int64 {
    Int64(question) << 32 | Int64(option)
  }
}
