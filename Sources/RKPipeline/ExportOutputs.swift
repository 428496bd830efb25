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
  private let options: ExportOptions
  /// The staging folder (temporary spool files may live there, unlinked).
  let folder: String
  private let definitions: [TaskDefinition]
  private let pivot: WidePivot
  private let spool: RowSpool
  private var statistics: StatisticsCollector
  private let taskRuns: TableOutput
  private let steps: TableOutput
  private let answers: TableOutput
  private let inputs: TableOutput
  private let summarySheet: RowSink?
  private let choicesSheet: XLSXTableSheet?
  private let workbook: XLSXWorkbook?
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
          timeZone: options.timeZone))
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
  }

  /// Writes one prepared run everywhere; returns the number of answer rows it gave.
  func add(_ prepared: PreparedRun) throws -> Int {
    try taskRuns.writeRendered(
      prepared.taskRunCSV, rowCount: 1, cells: prepared.taskRunRow.map { [$0] })
    try steps.writeRendered(
      prepared.stepsCSV, rowCount: prepared.stepCount, cells: prepared.stepRows)
    try answers.writeRendered(
      prepared.answersCSV, rowCount: prepared.answerCount, cells: prepared.answerRows)
    try addDerivedOnly(prepared)
    return prepared.answerCount
  }

  /// Feeds one run to the wide tables and statistics only: its long rows were written by an
  /// earlier run (--append).
  func addDerivedOnly(_ prepared: PreparedRun) throws {
    if let wide = prepared.wide {
      try spool.append(wide.row, filling: pivot.register(wide.contribution))
    }
    statistics.add(prepared.statistics)
  }

  func addInput(_ record: InputRecord) throws {
    try inputs.write(record.cells)
  }

  /// Writes the wide tables, statistics, codebook and data package; renames all into place.
  func finish() throws {
    var schemas = [ExportSchemas.taskRuns, ExportSchemas.steps, ExportSchemas.answers]
    schemas += try writeWideTables()
    let tasks = statistics.statistics()
    if let failure = statistics.spoolFailure {
      throw OutputError(path: folder, reason: failure)
    }
    let summaryRows = SummaryTable.rows(for: tasks)
    let choiceRows = ChoicesTable.rows(for: tasks)
    try writeCSV(SummaryTable.schema, summaryRows)
    try writeCSV(ChoicesTable.schema, choiceRows)
    for row in summaryRows { try summarySheet?.write(row) }
    for row in choiceRows { try choicesSheet?.write(row) }
    schemas += [SummaryTable.schema, ChoicesTable.schema, ExportSchemas.inputs, Codebook.schema]
    schemas = schemas.map(describingPrivacy)
    let codebookRows = Codebook.rows(for: schemas, definitions: definitions)
    try writeCSV(Codebook.schema, codebookRows)
    if let workbook {
      let sheet = try workbook.addTableSheet(name: "codebook", schema: Codebook.schema, note: nil)
      for row in codebookRows { try sheet.write(row) }
      if let choicesSheet {
        let charts = ChoiceCharts.specs(rows: choiceRows, sheet: choicesSheet)
        if !charts.isEmpty { _ = try workbook.addBarChartSheet(name: "charts", charts: charts) }
      }
    }
    for table in [taskRuns, steps, answers, inputs] {
      try table.finish()
      writtenFiles.append(table.schema.name + ".csv")
    }
    for writer in pending {
      try writer.finish()
    }
    pending.removeAll()
    try DataPackageWriter.write(schemas: schemas, toDirectory: folder)
    writtenFiles.append("datapackage.json")
    if let workbook {
      try workbook.close()
      warnings += workbook.warnings.map(\.description)
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
    for writer in pending { writer.abandon() }
    for table in [taskRuns, steps, answers, inputs] { table.abandon() }
  }

  /// Second pass over the spool: one CSV (and sheet) per task, rows in input order.
  private func writeWideTables() throws -> [TableSchema] {
    var writers: [String: (csv: CSVWriter, sheet: XLSXTableSheet?)] = [:]
    var schemas: [TableSchema] = []
    for taskID in pivot.taskIDs {
      guard var schema = pivot.finalSchema(taskID: taskID) else { continue }
      if let name = pivot.tableName(taskID: taskID) { schema.name = name }
      schemas.append(schema)
      let csv = try CSVWriter(
        path: folder + "/" + schema.name + ".csv", schema: schema,
        timeZone: options.timeZone, byteOrderMark: options.byteOrderMark,
        excelSafe: options.excelSafe)
      pending.append(csv)
      writtenFiles.append(schema.name + ".csv")
      let sheet = try workbook?.addTableSheet(name: taskID, schema: schema, note: nil)
      writers[taskID] = (csv, sheet)
    }
    let reader = try spool.makeReader()
    while let cells = try reader.next() {
      guard let partial = WidePartialRow(spoolCells: cells), let row = pivot.finalRow(partial),
        let writer = writers[partial.taskID]
      else { continue }
      try writer.csv.write(row)
      try writer.sheet?.write(row)
    }
    spool.close()
    return schemas
  }

  private func writeCSV(_ schema: TableSchema, _ rows: [[Cell]]) throws {
    let writer = try CSVWriter(
      path: folder + "/" + schema.name + ".csv", schema: schema,
      timeZone: options.timeZone, byteOrderMark: options.byteOrderMark, excelSafe: options.excelSafe
    )
    pending.append(writer)
    for row in rows { try writer.write(row) }
    writtenFiles.append(schema.name + ".csv")
  }
}

/// A long table written to CSV and, with --xlsx, to a sheet of the same name.
final class TableOutput {
  let schema: TableSchema
  private let csv: CSVWriter
  private let sheet: XLSXTableSheet?

  init(_ schema: TableSchema, folder: String, options: ExportOptions, workbook: XLSXWorkbook?)
    throws
  {
    self.schema = schema
    csv = try CSVWriter(
      path: folder + "/" + schema.name + ".csv", schema: schema, timeZone: options.timeZone,
      byteOrderMark: options.byteOrderMark, excelSafe: options.excelSafe)
    sheet = try workbook?.addTableSheet(name: schema.name, schema: schema, note: nil)
  }

  func write(_ row: [Cell]) throws {
    try csv.write(row)
    try sheet?.write(row)
  }

  /// Rows formatted on another thread (same zone and settings as this table's writer); their
  /// cells go to the sheet when there is one.
  func writeRendered(_ bytes: ArraySlice<UInt8>, rowCount: Int, cells: [[Cell]]?) throws {
    try csv.writeRendered(bytes, rowCount: rowCount)
    guard let sheet, let cells else { return }
    for row in cells { try sheet.write(row) }
  }

  func finish() throws { try csv.finish() }
  func abandon() { csv.abandon() }
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
