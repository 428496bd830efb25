// The wide tables' files: opened once the pivot is complete, filled from the spool.
import RKTable
import RKTidy
import RKWrite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One CSV (and, with --xlsx, one sheet) per task of the pivot, in task order.
///
/// `writeCSV(part:)` formats CSV rows straight from the spool's bytes (no `[Cell]` per row) and
/// touches nothing but its tables' CSV writers and its own spool reader, so it may run on a
/// thread of its own while the statistics are written; with `csvParts` 2 the rows are shared
/// out between two such threads (`WideShare`: whole tables, and one table split by rows), each
/// passing over the other's rows undecoded; `joinSplitTable()` then puts the split table's
/// rows together. `writeSheets()` decodes rows on the caller's thread and hands them to the
/// workbook thread. Each reads the whole spool once, rows in input order.
final class WideTableOutputs: @unchecked Sendable {
  /// The tables' schemas, in task order.
  let schemas: [TableSchema]
  /// The CSV writers, in task order (the caller finishes or abandons them after `writeCSV()`).
  let csvWriters: [CSVWriter]
  private let plans: [WideRowPlan]
  private let sheets: [XLSXTableSheet?]
  /// Tables left out of the workbook, with why (the CSVs hold them whole).
  let warnings: [String]
  /// Table index by task id (as text, or as the bytes of a spooled row's first cell).
  private let tables: TableLookup
  /// Which `writeCSV(part:)` call writes which rows.
  let share: WideShare
  /// The split table's rows written by part 1, until part 0 has written the ones before them.
  private let continuation: WideContinuation?
  private let pivot: WidePivot
  private let options: ExportOptions
  /// One per CSV part, made here, on the caller's thread: `makeReader()` flushes the spool.
  private let csvReaders: [RowSpool.Reader]
  /// How many `writeCSV(part:)` calls write the CSVs between them (at most `csvParts`, one
  /// per table at most).
  var csvPartCount: Int { csvReaders.count }
  private let sheetReader: RowSpool.Reader?
  private let workbookThread: XLSXWriterThread?

  /// Opens every table's CSV (and sheet, in task order) with its final columns, and shares the
  /// CSVs' rows out into `csvParts` parts (1 or 2). Call after the last run was added.
  init(
    pivot: WidePivot, spool: RowSpool, folder: String, options: ExportOptions,
    workbook: XLSXWorkbook?, workbookThread: XLSXWriterThread?, csvParts: Int = 1
  ) throws {
    var schemas: [TableSchema] = []
    var csvWriters: [CSVWriter] = []
    var plans: [WideRowPlan] = []
    var sheets: [XLSXTableSheet?] = []
    var tableIndex: [String: Int] = [:]
    var warnings: [String] = []
    var rowCounts: [Int] = []
    var columnCounts: [Int] = []
    // Writers opened so far are abandoned if a later one fails, as the caller cannot see them.
    var opened = false
    defer { if !opened { for writer in csvWriters { writer.abandon() } } }
    for taskID in pivot.taskIDs {
      guard var schema = pivot.finalSchema(taskID: taskID), let plan = pivot.rowPlan(taskID: taskID)
      else { continue }
      if let name = pivot.tableName(taskID: taskID) { schema.name = name }
      tableIndex[taskID] = schemas.count
      rowCounts.append(pivot.runCount(taskID: taskID))
      columnCounts.append(plan.columnCount)
      schemas.append(schema)
      plans.append(plan)
      csvWriters.append(
        try CSVWriter(
          path: folder + "/" + schema.name + ".csv", schema: schema,
          timeZone: options.timeZone, byteOrderMark: options.byteOrderMark,
          excelSafe: options.excelSafe))
      var sheet: XLSXTableSheet?
      // A sheet holds 16,384 columns: a wider table (a task with thousands of questions) is
      // left out of the workbook, not the whole export failed.
      if workbook != nil, schema.columns.count > XLSXWorkbook.excelMaxColumns {
        warnings.append(
          "results.xlsx: the wide table of task \(taskID) has \(schema.columns.count) columns, "
            + "more than a sheet's \(XLSXWorkbook.excelMaxColumns): it is in \(schema.name).csv "
            + "only")
      } else if let workbook, let workbookThread {
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
    self.warnings = warnings
    tables = TableLookup(tableIndex)
    share = WideShare(rows: rowCounts, columns: columnCounts, parts: csvParts)
    continuation = share.split == nil ? nil : try WideContinuation(directory: folder)
    self.pivot = pivot
    self.options = options
    csvReaders = try (0..<share.partCount).map { _ in try spool.makeReader() }
    self.workbookThread = workbookThread
    sheetReader = workbookThread == nil ? nil : try spool.makeReader()
    opened = true
  }

  /// Writes every CSV row of the tables in `part` (0..<csvPartCount), in spool order, with one
  /// reused row buffer. Calls for different parts may run at the same time.
  func writeCSV(part: Int = 0) throws {
    let reader = csvReaders[part]
    var builder = CSVRowBuilder(
      timeZone: options.timeZone, excelSafe: options.excelSafe, capacity: 64 * 1024)
    // One array of sources per table, as wide as its rows: rows of tables of other widths
    // alternate in the spool, and refilling one array to another width cost more than the row.
    var sourcesByTable = plans.map { [CellSource](repeating: .empty, count: $0.columnCount) }
    // The task id comes first (`WidePartialRow.spoolCells`); rows of another part's tasks, of
    // no known task or without one are passed over, and of the split table, the other part's.
    let firstCell = 1
    let split = share.split
    var splitRowsSeen = 0
    try plans.withUnsafeBufferPointer { plans in
      while try reader.next(
        where: { taskID -> Int? in
          guard let taskID, let table = tables.table(taskID) else { return nil }
          if let split, table == split.table {
            defer { splitRowsSeen += 1 }
            return (splitRowsSeen < split.firstRowOfPart1) == (part == 0) ? table : nil
          }
          return share.part[table] == part ? table : nil
        },
        { table, row in
          guard row.count >= firstCell + WidePartialRow.runCellCount else { return }
          plans[table].sources(cellCount: row.count - firstCell, into: &sourcesByTable[table]) {
            index in row.integer(at: firstCell + index)
          }
          builder.appendRow(sourcesByTable[table], from: row, firstCell: firstCell)
          if part == 1, table == split?.table, let continuation {
            try builder.flush { try continuation.append($0, rowCount: $1) }
          } else {
            try builder.flush(into: csvWriters[table])
          }
        })
      {}
    }
    // Finished later, on the caller's thread: they go to disk meanwhile.
    for (index, writer) in csvWriters.enumerated() where share.part[index] == part {
      try writer.beginFlush()
    }
  }

  /// After every `writeCSV(part:)` call returned: the split table's later rows, which part 1
  /// kept aside, follow part 0's.
  func joinSplitTable() throws {
    guard let split = share.split, let continuation else { return }
    try continuation.append(to: csvWriters[split.table])
  }

  /// Queues every sheet row, in spool order, for the workbook thread (nothing without one).
  func writeSheets() throws {
    guard let reader = sheetReader, let workbookThread else { return }
    var sheetRows = WideSheetRows(timeZone: options.timeZone)
    while let cells = try reader.next() {
      guard let partial = WidePartialRow(spoolCells: cells),
        let table = tables.table(named: partial.taskID), let sheet = sheets[table],
        let row = pivot.finalRow(partial)
      else { continue }
      sheetRows.append(row, to: sheet)
      if sheetRows.isFull { try sheetRows.submit(to: workbookThread) }
    }
    try sheetRows.submit(to: workbookThread)
  }
}

/// Which of two threads writes which wide CSV rows: each table whole to one part, but the one
/// table where half of the estimated work falls is split by rows, its first rows written by
/// part 0 and the rest by part 1 (`WideContinuation`). Whole tables alone could not balance
/// five tables of about equal size better than three to two, nor share out a single table.
struct WideShare: Equatable {
  struct Split: Equatable {
    var table: Int
    /// Rows of the table (in spool order) before this one are part 0's.
    var firstRowOfPart1: Int
  }

  /// The part of each table; the split table's is 0 (its first rows).
  var part: [Int]
  var split: Split?
  /// How many parts have rows: 1 or 2.
  var partCount: Int

  /// A row costs about as much to write as this many of its columns, besides them (reading
  /// it from the spool, looking up its columns, handing it to its file).
  static let rowOverhead = 8

  /// Shares out tables of `rows` rows and `columns` columns each (in table order) between
  /// `parts` threads: all to part 0 when `parts` is 1, else the tables in order until half
  /// of the cost (`rows × (columns + rowOverhead)`) to part 0 and the rest to part 1, the
  /// table in the middle split by rows.
  init(rows: [Int], columns: [Int], parts: Int) {
    part = [Int](repeating: 0, count: rows.count)
    split = nil
    partCount = 1
    precondition(rows.count == columns.count, "a row count and a column count per table")
    let rowCost = columns.map { $0 + Self.rowOverhead }
    let costs = zip(rows, rowCost).map { $0 * $1 }
    let total = costs.reduce(0, +)
    guard parts > 1, total > 0 else { return }
    let half = (total + 1) / 2
    var before = 0
    for table in rows.indices {
      defer { before += costs[table] }
      if before + costs[table] <= half { continue }
      if before >= half {
        part[table] = 1
        continue
      }
      // Half of the work falls inside this table: its rows up to there go to part 0.
      let first = (half - before + rowCost[table] / 2) / rowCost[table]
      if first >= rows[table] { continue }
      if first <= 0 {
        part[table] = 1
      } else {
        split = Split(table: table, firstRowOfPart1: first)
      }
    }
    partCount = split != nil || part.contains(1) ? 2 : 1
  }
}

/// Table indexes by task id, looked up from UTF-8 bytes in place: a few tables are compared
/// byte for byte (no `String` per row), many through a dictionary.
struct TableLookup {
  private let small: [(taskID: [UInt8], table: Int)]
  private let byTaskID: [String: Int]

  /// Up to this many tables are compared one by one.
  static let smallCount = 16

  init(_ tableIndex: [String: Int]) {
    byTaskID = tableIndex
    small =
      tableIndex.count <= Self.smallCount
      ? tableIndex.sorted { $0.value < $1.value }.map { (Array($0.key.utf8), $0.value) } : []
  }

  func table(named taskID: String) -> Int? { byTaskID[taskID] }

  func table(_ taskID: UnsafeBufferPointer<UInt8>) -> Int? {
    if byTaskID.count > Self.smallCount {
      return byTaskID[String(decoding: taskID, as: UTF8.self)]
    }
    for entry in small where entry.taskID.count == taskID.count {
      let same = entry.taskID.withUnsafeBufferPointer { known in
        guard let knownStart = known.baseAddress, let start = taskID.baseAddress else {
          return true  // both empty
        }
        return memcmp(knownStart, start, known.count) == 0
      }
      if same { return entry.table }
    }
    return nil
  }
}
