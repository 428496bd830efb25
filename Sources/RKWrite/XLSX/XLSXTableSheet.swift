// One table as a worksheet (or several, past Excel's row limit), fed row by row.
internal import CXLSXWriter
import RKTable

/// A table sheet: rows written here go straight to the workbook, in order.
///
/// Row 1 is the header (the schema's column names, bold, frozen, with each column's description
/// as a note); data starts at row 2. When a sheet is full (1,048,576 rows) the table continues on
/// a new sheet named `<name> (2)`, `(3)`… with the header repeated and a visible note, and the
/// workbook records an `XLSXWarning`.
public final class XLSXTableSheet: RowSink {
  /// The table's columns, as given.
  public let schema: TableSchema
  /// The first sheet's name as written (repaired and made unique from the wanted name).
  public var name: String { segments[0].name }
  /// Every sheet holding this table, first to last.
  public var sheetNames: [String] { segments.map(\.name) }
  /// Data rows written so far, over all sheets.
  public private(set) var rowCount = 0

  let core: XLSXWorkbookCore
  private let note: String?
  private var segments: [Segment] = []
  /// Estimated widths (characters) per column, from the header and the first rows.
  private var widths: [Int]
  private static let widthSampleRows = 1000
  private static let maxWidth = 60

  struct Segment {
    let worksheet: XLSXWorkbookCore.Worksheet
    let name: String
    /// Data rows on this sheet (the header not counted).
    var rows: Int
  }

  init(core: XLSXWorkbookCore, name wanted: String, schema: TableSchema, note: String?) throws {
    self.core = core
    self.schema = schema
    self.note = note
    widths = schema.columns.map { min($0.name.count + 3, Self.maxWidth) }
    guard !schema.columns.isEmpty, schema.columns.count <= XLSXWorkbook.excelMaxColumns else {
      throw XLSXError(
        .worksheetIndexOutOfRange, path: core.output.path, sheet: wanted,
        message: "A table sheet needs 1 to 16,384 columns; \(wanted) has "
          + "\(schema.columns.count).")
    }
    let name = core.names.claim(wanted)
    try startSegment(name: name, note: note)
  }

  /// Data rows that fit on one sheet below the header.
  var rowsPerSheet: Int { core.options.maxRowsPerSheet - 1 }

  /// Writes one data row; `row.count` must equal the schema's column count.
  ///
  /// - Throws: `XLSXError` naming the sheet, row and column when libxlsxwriter refuses a cell,
  ///   `.parameterValidation` for a row of the wrong width, `.workbookClosed` after `close()`.
  public func write(_ row: [Cell]) throws {
    _ = try core.openHandle()
    guard row.count == schema.columns.count else {
      throw XLSXError(
        .parameterValidation, path: core.output.path, sheet: segments[segments.count - 1].name,
        row: segments[segments.count - 1].rows + 2,
        message: "Row has \(row.count) cells; the table has \(schema.columns.count) columns.")
    }
    if segments[segments.count - 1].rows >= rowsPerSheet { try startContinuation() }
    let last = segments.count - 1
    let excelRow = segments[last].rows + 1
    for (column, cell) in row.enumerated() {
      try write(cell, row: excelRow, column: column, on: segments[last])
    }
    segments[last].rows += 1
    rowCount += 1
    if rowCount <= Self.widthSampleRows {
      for (column, cell) in row.enumerated() {
        widths[column] = max(widths[column], min(Self.displayWidth(of: cell), Self.maxWidth))
      }
    }
  }

  /// Where data row `index` (0-based, in write order) sits: sheet name and 0-based sheet row.
  func location(ofDataRow index: Int) -> (sheet: String, row: Int)? {
    let part = index / rowsPerSheet
    guard index >= 0, part < segments.count else { return nil }
    return (segments[part].name, index % rowsPerSheet + 1)
  }

  /// Sets column widths and the autofilter on every sheet of the table; called at close.
  func finish() throws {
    for segment in segments {
      for (column, width) in widths.enumerated() {
        try core.check(
          worksheet_set_column(
            segment.worksheet, lxw_col_t(column), lxw_col_t(column), Double(width), nil),
          sheet: segment.name, column: column + 1, columnName: schema.columns[column].name)
      }
      try core.check(
        worksheet_autofilter(
          segment.worksheet, 0, 0, lxw_row_t(segment.rows),
          lxw_col_t(schema.columns.count - 1)),
        sheet: segment.name)
    }
  }

  // MARK: - Sheets and headers

  private func startContinuation() throws {
    let part = segments.count + 1
    let name = core.names.claimContinuation(of: segments[0].name, part: part)
    let firstRow = (part - 1) * rowsPerSheet + 1
    let previous = segments[segments.count - 1]
    core.warn(
      XLSXWarning(
        sheet: previous.name, row: previous.rows + 1, column: nil, columnName: nil,
        kind: .tableContinued(continuation: name)))
    let text =
      "Continued from sheet \"\(previous.name)\": this sheet holds rows \(firstRow) onwards of "
      + "table \(schema.name) (Excel allows \(core.options.maxRowsPerSheet) rows per sheet)."
    try startSegment(name: name, note: [text, note].compactMap { $0 }.joined(separator: "\n\n"))
  }

  private func startSegment(name: String, note: String?) throws {
    let worksheet = try core.addWorksheet(named: name)
    let segment = Segment(worksheet: worksheet, name: name, rows: 0)
    segments.append(segment)
    // Header cells and their notes must be written before any data row: in constant-memory
    // mode a row above the current one can no longer be written.
    for (index, column) in schema.columns.enumerated() {
      try writeText(column.name, row: 0, column: index, on: segment, format: core.headerFormat)
      try writeNote(for: column, at: index, sheetNote: index == 0 ? note : nil, on: segment)
    }
    worksheet_freeze_panes(worksheet, 1, 0)
  }

  private func writeNote(
    for column: Column, at index: Int, sheetNote: String?, on segment: Segment
  ) throws {
    var parts: [String] = []
    if let sheetNote { parts.append(sheetNote) }
    if !column.description.isEmpty { parts.append("\(column.name): \(column.description)") }
    if let unit = column.unit, !unit.isEmpty { parts.append("Unit: \(unit).") }
    if column.type == .datetime {
      parts.append(
        "Date-time cells show local time in \(core.options.timeZone.identifier), to the "
          + "millisecond; Excel dates carry no time zone.")
    }
    guard !parts.isEmpty else { return }
    let (text, _) = XLSXText.prepare(parts.joined(separator: "\n"))
    var options = lxw_comment_options()
    options.width = 320
    options.height = UInt16(min(60 + 14 * (text.utf8.count / 45), 400))
    if sheetNote != nil {
      // The sheet's own note is shown, beside the table rather than over it.
      options.visible = UInt8(LXW_COMMENT_DISPLAY_VISIBLE.rawValue)
      options.start_row = 0
      options.start_col = lxw_col_t(min(schema.columns.count + 1, XLSXWorkbook.excelMaxColumns - 8))
    }
    let code = "rkexport".withCString { author in
      options.author = UnsafeMutablePointer(mutating: author)
      return worksheet_write_comment_opt(segment.worksheet, 0, lxw_col_t(index), text, &options)
    }
    try core.check(code, sheet: segment.name, row: 1, column: index + 1, columnName: column.name)
  }
}
