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
/// thread of its own while the statistics are written; with `csvParts` 2 the tables are shared
/// out between two such threads by their row counts, each passing over the other's rows
/// undecoded. `writeSheets()` decodes rows on the caller's thread and hands them to the
/// workbook thread. Each reads the whole spool once, rows in input order.
final class WideTableOutputs: @unchecked Sendable {
  /// The tables' schemas, in task order.
  let schemas: [TableSchema]
  /// The CSV writers, in task order (the caller finishes or abandons them after `writeCSV()`).
  let csvWriters: [CSVWriter]
  private let plans: [WideRowPlan]
  private let sheets: [XLSXTableSheet?]
  /// Table index by task id (as text, or as the bytes of a spooled row's first cell).
  private let tables: TableLookup
  /// The `writeCSV(part:)` call that writes each table (by table index).
  private let csvPart: [Int]
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
  /// CSVs out into `csvParts` parts. Call after the last run was added.
  init(
    pivot: WidePivot, spool: RowSpool, folder: String, options: ExportOptions,
    workbook: XLSXWorkbook?, workbookThread: XLSXWriterThread?, csvParts: Int = 1
  ) throws {
    var schemas: [TableSchema] = []
    var csvWriters: [CSVWriter] = []
    var plans: [WideRowPlan] = []
    var sheets: [XLSXTableSheet?] = []
    var tableIndex: [String: Int] = [:]
    var rowCounts: [Int] = []
    // Writers opened so far are abandoned if a later one fails, as the caller cannot see them.
    var opened = false
    defer { if !opened { for writer in csvWriters { writer.abandon() } } }
    for taskID in pivot.taskIDs {
      guard var schema = pivot.finalSchema(taskID: taskID), let plan = pivot.rowPlan(taskID: taskID)
      else { continue }
      if let name = pivot.tableName(taskID: taskID) { schema.name = name }
      tableIndex[taskID] = schemas.count
      rowCounts.append(pivot.runCount(taskID: taskID))
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
    tables = TableLookup(tableIndex)
    let partCount = max(1, min(csvParts, schemas.count))
    csvPart = Self.shareOut(rowCounts, parts: partCount)
    self.pivot = pivot
    self.options = options
    csvReaders = try (0..<partCount).map { _ in try spool.makeReader() }
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
    // no known task or without one are passed over.
    let firstCell = 1
    try plans.withUnsafeBufferPointer { plans in
      while try reader.next(
        where: { taskID -> Int? in
          guard let taskID, let table = tables.table(taskID), csvPart[table] == part else {
            return nil
          }
          return table
        },
        { table, row in
          guard row.count >= firstCell + WidePartialRow.runCellCount else { return }
          plans[table].sources(cellCount: row.count - firstCell, into: &sourcesByTable[table]) {
            index in row.integer(at: firstCell + index)
          }
          builder.appendRow(sourcesByTable[table], from: row, firstCell: firstCell)
          try builder.flush(into: csvWriters[table])
        })
      {}
    }
    // Finished later, on the caller's thread: they go to disk meanwhile.
    for (index, writer) in csvWriters.enumerated() where csvPart[index] == part {
      try writer.beginFlush()
    }
  }

  /// The part of each table (by index) when tables of `rows` rows each are shared out into
  /// `parts`: the longest first, each to the part with the fewest rows so far.
  static func shareOut(_ rows: [Int], parts: Int) -> [Int] {
    var part = [Int](repeating: 0, count: rows.count)
    guard parts > 1 else { return part }
    var load = [Int](repeating: 0, count: parts)
    let longestFirst = rows.indices.sorted { (rows[$1], $0) < (rows[$0], $1) }
    for table in longestFirst {
      let lightest = load.indices.min { (load[$0], $0) < (load[$1], $1) } ?? 0
      part[table] = lightest
      load[lightest] += rows[table]
    }
    return part
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
