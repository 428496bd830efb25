// The files of one export, open together: long tables stream, wide tables and statistics wait.
import Foundation
import RKModel
import RKTable
import RKTidy
import RKWrite

/// Owns every writer of one run. Rows of `task_runs`, `steps`, `answers` and `inputs` stream
/// straight to CSV (and XLSX); wide rows go to a spool until the columns are known; statistics
/// keep per-question counts and spool their values. `finish()` writes the rest; every file is complete in `folder` (the
/// run's staging folder) afterwards, and `OutputCommit` moves the set into place.
final class ExportOutputs {
  /// The files an export writes under fixed names (the wide tables are named by task, in
  /// `wide/`): what a new export into the same folder replaces.
  static let fixedFileNames =
    [
      ExportSchemas.taskRuns, ExportSchemas.steps, ExportSchemas.answers, ExportSchemas.inputs,
      SummaryTable.schema, ChoicesTable.schema, Codebook.schema,
    ].map { $0.name + ".csv" } + ["datapackage.json", "results.xlsx"]

  private let options: ExportOptions
  /// The staging folder (temporary spool files may live there, unlinked).
  let folder: String
  private let definitions: [TaskDefinition]
  private let pivot: WidePivot
  private let spool: RowSpool
  // Unchecked exclusivity: added to for every run (a runtime check is ~60 instructions).
  @exclusivity(unchecked) private var statistics: StatisticsCollector
  private let taskRuns: TableOutput
  private let steps: TableOutput
  private let answers: TableOutput
  private let inputs: TableOutput
  /// The four long tables, in the order they are finished.
  private var longTables: [TableOutput] { [taskRuns, steps, answers, inputs] }
  private let summarySheet: XLSXTableSheet?
  private let choicesSheet: XLSXTableSheet?
  private let workbook: XLSXWorkbook?
  /// Every workbook call runs on this thread once rows flow (see `XLSXWriterThread`).
  private let workbookThread: XLSXWriterThread?
  private var pending: [CSVWriter] = []
  private(set) var writtenFiles: [String] = []
  private(set) var warnings: [String] = []

  init(options: ExportOptions, folder: String, definitions: [TaskDefinition]) throws {
    self.options = options
    self.folder = folder
    self.definitions = definitions
    // The staging folder exists; never recreate it here (an interrupt may have just removed it).
    guard mkdir(folder + "/wide", 0o755) == 0 || errno == EEXIST else {
      throw OutputError(path: folder + "/wide", reason: "cannot create the output folder")
    }
    pivot = WidePivot(timeZone: options.timeZone, definitions: definitions)
    statistics = StatisticsCollector(definitions: definitions, spoolDirectory: folder)
    spool = try RowSpool(directory: folder)
    if options.writeXLSX {
      let book = try XLSXWorkbook(
        path: folder + "/results.xlsx",
        options: XLSXWorkbook.Options(
          title: "rkexport results", created: Date(), rkexportVersion: rkexportLibraryVersion,
          timeZone: options.timeZone, compression: options.xlsxCompression))
      workbook = book
      summarySheet = try book.addTableSheet(
        name: "summary", schema: SummaryTable.schema, note: nil)
      choicesSheet = try book.addTableSheet(
        name: "choices", schema: ChoicesTable.schema, note: nil)
    } else {
      workbook = nil
      summarySheet = nil
      choicesSheet = nil
    }
    answers = try TableOutput(
      ExportSchemas.answers, folder: folder, options: options, workbook: workbook)
    steps = try TableOutput(
      ExportSchemas.steps, folder: folder, options: options, workbook: workbook)
    taskRuns = try TableOutput(
      ExportSchemas.taskRuns, folder: folder, options: options, workbook: workbook)
    inputs = try TableOutput(
      ExportSchemas.inputs, folder: folder, options: options, workbook: workbook)
    // Started last: from here on the workbook belongs to this thread.
    workbookThread = workbook == nil ? nil : XLSXWriterThread()
  }

  deinit { workbookThread?.cancel() }

  /// Writes one prepared run everywhere; returns the number of answer rows it gave.
  func add(_ prepared: PreparedRun) throws -> Int {
    try taskRuns.writeRendered(prepared.taskRunCSV, rowCount: 1)
    try steps.writeRendered(prepared.stepsCSV, rowCount: prepared.stepCount)
    try answers.writeRendered(prepared.answersCSV, rowCount: prepared.answerCount)
    try writeToWorkbook(prepared)
    try addDerivedOnly(prepared)
    return prepared.answerCount
  }

  /// Feeds one run to the wide tables and statistics only: its long rows were written by an
  /// earlier run (--append).
  func addDerivedOnly(_ prepared: PreparedRun) throws {
    if prepared.contribution.hasWideValues {
      // The row goes straight into the spool's buffer as the pivot numbers its columns.
      let run = prepared.contribution
      let cellCount = 1 + WidePartialRow.runCellCount + 2 * run.pairCount
      // Without a workbook only the wide CSVs read the spool: the run cells are copied from the
      // run's task_runs row as rendered (dates, duration and texts formatted once, not again
      // in the wide tables after the last run). The workbook's sheets need them as cells.
      let renderedRun = workbook == nil && prepared.taskRunEnd > prepared.csvStart
      try spool.appendRow(cellCount: cellCount) { row in
        row.append(.text(run.taskID))
        if renderedRun {
          prepared.csv.withUnsafeBufferPointer { csv in
            row.appendCSVFields(
              of: UnsafeBufferPointer(rebasing: csv[prepared.csvStart..<prepared.taskRunEnd]),
              columns: WidePartialRow.taskRunsColumns)
          }
        } else {
          run.forEachRunCell { row.append($0) }
        }
        pivot.register(run) { key, value in
          row.append(.integer(key))
          row.append(value)
        }
      }
    }
    statistics.add(prepared.contribution)
  }

  func addInput(_ record: InputRecord) throws {
    let cells = record.cells
    try inputs.writeCSV(cells)
    if let sheet = inputs.sheet, let workbookThread {
      let rows = XLSXRows(encoding: [cells], timeZone: options.timeZone)
      try workbookThread.submit(bytes: rows.byteCount) { try sheet.write(rows) }
    }
  }

  /// Writes the wide tables, statistics, codebook and data package; renames all into place.
  func finish() throws {
    // Every run is in: the long tables go to disk while the statistics and wide tables are
    // worked out, and their fsyncs below find little left to wait for.
    for table in longTables { try table.beginFlush() }
    var schemas = [ExportSchemas.taskRuns, ExportSchemas.steps, ExportSchemas.answers]
    // The wide CSVs are the biggest part of the rest: with more than one job, two threads
    // format them (tables shared out by rows) while this one works out the statistics.
    let wide = try WideTableOutputs(
      pivot: pivot, spool: spool, folder: folder, options: options, workbook: workbook,
      workbookThread: workbookThread, csvParts: options.jobs > 1 ? 2 : 1)
    pending += wide.csvWriters
    warnings += wide.warnings
    writtenFiles += wide.schemas.map { $0.name + ".csv" }
    schemas += wide.schemas
    let wideCSV =
      options.jobs > 1
      ? (0..<wide.csvPartCount).map { part in
        BackgroundWork(name: "rkexport.wide") { try wide.writeCSV(part: part) }
      } : []
    defer {
      for work in wideCSV { _ = try? work.wait() }
      // The spools' pages are freed on another thread while the files are committed.
      spool.close(inBackground: true)
    }
    if wideCSV.isEmpty { try wide.writeCSV() }
    let tasks = statistics.statistics()
    if let failure = statistics.spoolFailure {
      throw OutputError(path: folder, reason: failure)
    }
    statistics.discardValues()
    // The summary and the codebook have a row per question and per column: written a row at
    // a time, with the workbook's copy kept encoded (~0.2 KB a row, against ~1.3 KB as
    // cells), so a task of very many questions needs no table of cells in memory.
    let zone = options.timeZone
    var summarySheetRows = workbook == nil ? nil : XLSXRows(timeZone: zone)
    try writeCSV(SummaryTable.schema) { write in
      try SummaryTable.forEachRow(for: tasks) { row in
        try write(row)
        summarySheetRows?.append(row)
      }
    }
    let choiceRows = ChoicesTable.rows(for: tasks)
    try writeCSV(ChoicesTable.schema, choiceRows)
    schemas += [SummaryTable.schema, ChoicesTable.schema, ExportSchemas.inputs, Codebook.schema]
    schemas = schemas.map(describingPrivacy)
    var codebookSheetRows = workbook == nil ? nil : XLSXRows(timeZone: zone)
    try writeCSV(Codebook.schema) { write in
      try Codebook.forEachRow(for: schemas, definitions: definitions) { row in
        try write(row)
        codebookSheetRows?.append(row)
      }
    }
    // After the statistics: the workbook thread is still busy with the runs' rows, and
    // handing it the wide rows blocks (its backlog is bounded), so the statistics come first.
    try wide.writeSheets()
    if let summarySheetRows, let codebookSheetRows {
      try finishWorkbookSheets(
        summary: summarySheetRows, choices: choiceRows, codebook: codebookSheetRows)
    }
    for table in longTables {
      try table.finish()
      writtenFiles.append(table.schema.name + ".csv")
    }
    for work in wideCSV { try work.wait() }
    try wide.joinSplitTable()
    for writer in pending {
      try writer.finish()
    }
    pending.removeAll()
    try DataPackageWriter.write(schemas: schemas, toDirectory: folder)
    writtenFiles.append("datapackage.json")
    if let workbook, let workbookThread {
      try workbookThread.submit { try workbook.close() }
      try workbookThread.finish()
      warnings += workbook.warnings.map(\.description)
      if !workbook.compressionApplied {
        warnings.append(
          "results.xlsx: --xlsx-compression \(options.xlsxCompression.rawValue) could not be "
            + "applied on this system; the workbook is at libxlsxwriter's own level")
      }
      writtenFiles.append("results.xlsx")
    }
  }

  /// The schema with the privacy options' notes added to the columns they change, so the
  /// codebook and data package say why ids look random or text cells are empty.
  private func describingPrivacy(_ schema: TableSchema) -> TableSchema {
    var schema = schema
    for index in schema.columns.indices {
      let name = schema.columns[index].name
      if options.privacy.pseudonymizer != nil && (name == "participant_id" || name == "source") {
        schema.columns[index].description += " " + PrivacyOptions.pseudonymNote
      }
      if options.privacy.dropFreeText && schema.name == "answers" && name == "value" {
        schema.columns[index].description += " " + PrivacyOptions.freeTextNote
      }
    }
    return schema
  }

  /// Removes temporary files of a run that did not finish.
  func abandonUnfinished() {
    // The workbook thread must stop before the workbook is released.
    workbookThread?.cancel()
    for writer in pending { writer.abandon() }
    for table in longTables { table.abandon() }
  }

  private func writeCSV(_ schema: TableSchema, _ rows: [[Cell]]) throws {
    try writeCSV(schema) { write in
      for row in rows { try write(row) }
    }
  }

  /// Writes `schema.name`.csv with the rows `body` hands to the function it is given.
  private func writeCSV(
    _ schema: TableSchema, rows body: (_ write: ([Cell]) throws -> Void) throws -> Void
  ) throws {
    let writer = try CSVWriter(
      path: folder + "/" + schema.name + ".csv", schema: schema,
      timeZone: options.timeZone, byteOrderMark: options.byteOrderMark, excelSafe: options.excelSafe
    )
    pending.append(writer)
    try body { try writer.write($0) }
    writtenFiles.append(schema.name + ".csv")
  }
}

/// A long table written to CSV and, with --xlsx, to a sheet of the same name.
final class TableOutput {
  let schema: TableSchema
  private let csv: CSVWriter
  /// Written only on the workbook thread.
  let sheet: XLSXTableSheet?

  init(_ schema: TableSchema, folder: String, options: ExportOptions, workbook: XLSXWorkbook?)
    throws
  {
    self.schema = schema
    csv = try CSVWriter(
      path: folder + "/" + schema.name + ".csv", schema: schema, timeZone: options.timeZone,
      byteOrderMark: options.byteOrderMark, excelSafe: options.excelSafe)
    sheet = try workbook?.addTableSheet(name: schema.name, schema: schema, note: nil)
  }

  func writeCSV(_ row: [Cell]) throws {
    try csv.write(row)
  }

  /// Rows formatted on another thread (same zone and settings as this table's writer).
  func writeRendered(_ bytes: ArraySlice<UInt8>, rowCount: Int) throws {
    try csv.writeRendered(bytes, rowCount: rowCount)
  }

  func beginFlush() throws { try csv.beginFlush() }
  func finish() throws { try csv.finish() }
  func abandon() { csv.abandon() }
}

// MARK: - Workbook

extension ExportOutputs {
  /// Hands a run's rows, encoded on the parsing thread, to the workbook thread.
  fileprivate func writeToWorkbook(_ prepared: PreparedRun) throws {
    guard let workbookThread else { return }
    let sheets = (taskRuns.sheet, steps.sheet, answers.sheet)
    let rows = (prepared.taskRunSheetRows, prepared.stepSheetRows, prepared.answerSheetRows)
    let bytes =
      (rows.0?.byteCount ?? 0) + (rows.1?.byteCount ?? 0) + (rows.2?.byteCount ?? 0)
    try workbookThread.submit(bytes: bytes) {
      if let sheet = sheets.0, let batch = rows.0 { try sheet.write(batch) }
      if let sheet = sheets.1, let batch = rows.1 { try sheet.write(batch) }
      if let sheet = sheets.2, let batch = rows.2 { try sheet.write(batch) }
    }
  }

  /// Summary, choices and codebook sheets and the charts, on the workbook thread.
  fileprivate func finishWorkbookSheets(
    summary: XLSXRows, choices: [[Cell]], codebook: XLSXRows
  ) throws {
    guard let workbook, let workbookThread else { return }
    let zone = options.timeZone
    let summarySheet = summarySheet
    let choicesSheet = choicesSheet
    try workbookThread.submit {
      try summarySheet?.write(summary)
      try choicesSheet?.write(XLSXRows(encoding: choices, timeZone: zone))
      let sheet = try workbook.addTableSheet(name: "codebook", schema: Codebook.schema, note: nil)
      try sheet.write(codebook)
      if let choicesSheet {
        let charts = ChoiceCharts.specs(rows: choices, sheet: choicesSheet)
        if !charts.isEmpty { _ = try workbook.addBarChartSheet(name: "charts", charts: charts) }
      }
    }
  }
}

/// Wide rows of several sheets batched in spool order for the workbook thread.
struct WideSheetRows {
  private var rows: XLSXRows
  private var targets: [XLSXTableSheet] = []
  private static let batchSize = 512

  init(timeZone: TimeZoneRule) { rows = XLSXRows(timeZone: timeZone) }

  var isFull: Bool { targets.count >= Self.batchSize }

  mutating func append(_ row: [Cell], to sheet: XLSXTableSheet) {
    rows.append(row)
    targets.append(sheet)
  }

  /// Queues the batch: each run of consecutive rows for one sheet is one write.
  mutating func submit(to thread: XLSXWriterThread) throws {
    guard !targets.isEmpty else { return }
    let batch = rows
    let sheets = targets
    rows.removeAll()
    targets.removeAll(keepingCapacity: true)
    try thread.submit(bytes: batch.byteCount) {
      var start = 0
      while start < sheets.count {
        var end = start + 1
        while end < sheets.count && sheets[end] === sheets[start] { end += 1 }
        try sheets[start].write(batch, rows: start..<end)
        start = end
      }
    }
  }
}

func createFolder(_ path: String) throws {
  do {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  } catch {
    throw OutputError(path: path, reason: "cannot create the output folder")
  }
}

/// The outputs cannot be written at all (exit status 3).
public struct OutputError: Error, CustomStringConvertible {
  public var path: String
  public var reason: String
  public var description: String { "\(path): \(reason)" }
}

/// The version written into workbook properties.
public let rkexportLibraryVersion = "0.1.0"
