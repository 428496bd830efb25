// The wide tables' files: opened once the pivot is complete, filled from the spool.
import RKTable
import RKTidy
import RKWrite

/// One CSV (and, with --xlsx, one sheet) per task of the pivot, in task order.
///
/// `writeCSV()` formats every CSV row straight from the spool's bytes (no `[Cell]` per row) and
/// touches nothing but the CSV writers and its own spool reader, so it may run on a thread of
/// its own while the statistics are written; `writeSheets()` decodes rows on the caller's
/// thread and hands them to the workbook thread. Each reads the whole spool once, rows in input order.
final class WideTableOutputs: @unchecked Sendable {
  /// The tables' schemas, in task order.
  let schemas: [TableSchema]
  /// The CSV writers, in task order (the caller finishes or abandons them after `writeCSV()`).
  let csvWriters: [CSVWriter]
  private let plans: [WideRowPlan]
  private let sheets: [XLSXTableSheet?]
  /// Table index by task id.
  private let tableIndex: [String: Int]
  private let pivot: WidePivot
  private let options: ExportOptions
  /// Made here, on the caller's thread: `makeReader()` flushes the spool.
  private let csvReader: RowSpool.Reader
  private let sheetReader: RowSpool.Reader?
  private let workbookThread: XLSXWriterThread?

  /// Opens every table's CSV (and sheet, in task order) with its final columns. Call after the
  /// last run was added.
  init(
    pivot: WidePivot, spool: RowSpool, folder: String, options: ExportOptions,
    workbook: XLSXWorkbook?, workbookThread: XLSXWriterThread?
  ) throws {
    var schemas: [TableSchema] = []
    var csvWriters: [CSVWriter] = []
    var plans: [WideRowPlan] = []
    var sheets: [XLSXTableSheet?] = []
    var tableIndex: [String: Int] = [:]
    // Writers opened so far are abandoned if a later one fails, as the caller cannot see them.
    var opened = false
    defer { if !opened { for writer in csvWriters { writer.abandon() } } }
    for taskID in pivot.taskIDs {
      guard var schema = pivot.finalSchema(taskID: taskID), let plan = pivot.rowPlan(taskID: taskID)
      else { continue }
      if let name = pivot.tableName(taskID: taskID) { schema.name = name }
      tableIndex[taskID] = schemas.count
      schemas.append(schema)
      plans.append(plan)
      csvWriters.append(
        try CSVWriter(
          path: folder + "/" + schema.name + ".csv", schema: schema,
          timeZone: options.timeZone, byteOrderMark: options.byteOrderMark,
          excelSafe: options.excelSafe))
      var sheet: XLSXTableSheet?
      if let workbook, let workbookThread {
        let wideSchema = schema
        sheet = try workbookThread.sync {
          try workbook.addTableSheet(name: taskID, schema: wideSchema, note: nil)
        }
      }
      sheets.append(sheet)
    }
    self.schemas = schemas
    self.csvWriters = csvWriters
    self.plans = plans
    self.sheets = sheets
    self.tableIndex = tableIndex
    self.pivot = pivot
    self.options = options
    csvReader = try spool.makeReader()
    self.workbookThread = workbookThread
    sheetReader = workbookThread == nil ? nil : try spool.makeReader()
    opened = true
  }

  /// Writes every CSV row, in spool order, with one reused row buffer.
  func writeCSV() throws {
    let reader = csvReader
    var builder = CSVRowBuilder(
      timeZone: options.timeZone, excelSafe: options.excelSafe, capacity: 64 * 1024)
    var sources: [CellSource] = []
    var current: (taskID: String, table: Int)?
    let firstCell = 1  // the task id comes first (`WidePartialRow.spoolCells`)
    while try reader.next({ row in
      guard row.count >= firstCell + WidePartialRow.runCellCount, let taskID = row.text(at: 0)
      else { return }
      if current?.taskID != taskID {
        guard let table = tableIndex[taskID] else { return }
        current = (taskID, table)
      }
      guard let table = current?.table else { return }
      plans[table].sources(cellCount: row.count - firstCell, into: &sources) { index in
        row.integer(at: firstCell + index)
      }
      builder.appendRow(sources, from: row, firstCell: firstCell)
      try builder.flush(into: csvWriters[table])
    }) {}
    // Finished later, on the caller's thread: they go to disk meanwhile.
    for writer in csvWriters { try writer.beginFlush() }
  }

  /// Queues every sheet row, in spool order, for the workbook thread (nothing without one).
  func writeSheets() throws {
    guard let reader = sheetReader, let workbookThread else { return }
    var sheetRows = WideSheetRows(timeZone: options.timeZone)
    while let cells = try reader.next() {
      guard let partial = WidePartialRow(spoolCells: cells),
        let table = tableIndex[partial.taskID], let sheet = sheets[table],
        let row = pivot.finalRow(partial)
      else { continue }
      sheetRows.append(row, to: sheet)
      if sheetRows.isFull { try sheetRows.submit(to: workbookThread) }
    }
    try sheetRows.submit(to: workbookThread)
  }
}
