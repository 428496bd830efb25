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
  private(set) var segments: [Segment] = []
  /// Estimated widths (characters) per column, from the header and the first rows.
  private var widths: [Int]
  /// Reused by `write(_:)` for single rows.
  private var scratch: XLSXRows
  private static let widthSampleRows = 1000
  static let maxWidth = 60

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
    scratch = XLSXRows(timeZone: core.options.timeZone)
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
    scratch.removeAll()
    scratch.append(row)
    try write(scratch)
  }

  /// Writes rows encoded by `XLSXRows` (possibly on another thread), in order; the same
  /// checks and errors as `write(_:)` for one row.
  public func write(_ rows: XLSXRows) throws {
    try write(rows, rows: 0..<rows.count)
  }

  /// Writes some of the rows of `rows` (a batch may hold rows of several sheets).
  public func write(_ rows: XLSXRows, rows range: Range<Int>) throws {
    _ = try core.openHandle()
    guard range.lowerBound >= 0, range.upperBound <= rows.count else {
      throw XLSXError(
        .parameterValidation, path: core.output.path, sheet: segments[segments.count - 1].name,
        message: "Rows \(range) are not in a batch of \(rows.count).")
    }
    guard
      rows.timeZone === core.options.timeZone
        || rows.timeZone.identifier == core.options.timeZone.identifier
    else {
      throw XLSXError(
        .parameterValidation, path: core.output.path, sheet: segments[segments.count - 1].name,
        message: "Rows were encoded for time zone \(rows.timeZone.identifier), the workbook "
          + "shows \(core.options.timeZone.identifier).")
    }
    let columnCount = schema.columns.count
    try rows.entries.withUnsafeBufferPointer { entries in
      try rows.text.withUnsafeBufferPointer { text in
        var entryIndex = range.lowerBound == 0 ? 0 : rows.rowEnds[range.lowerBound - 1]
        var truncationIndex = rows.truncationsBefore(entry: entryIndex)
        for rowIndex in range {
          let rowEnd = rows.rowEnds[rowIndex]
          guard rows.rowWidths[rowIndex] == columnCount else {
            throw XLSXError(
              .parameterValidation, path: core.output.path,
              sheet: segments[segments.count - 1].name, row: segments[segments.count - 1].rows + 2,
              message: "Row has \(rows.rowWidths[rowIndex]) cells; the table has "
                + "\(columnCount) columns.")
          }
          if segments[segments.count - 1].rows >= rowsPerSheet { try startContinuation() }
          let segment = segments[segments.count - 1]
          let excelRow = segment.rows + 1
          let measure = rowCount < Self.widthSampleRows
          while entryIndex < rowEnd {
            let entry = entries[entryIndex]
            entryIndex += 1
            if entry.truncated {
              let length =
                truncationIndex < rows.truncations.count
                ? rows.truncations[truncationIndex] : 0
              truncationIndex += 1
              core.warn(
                XLSXWarning(
                  sheet: segment.name, row: excelRow + 1, column: Int(entry.column) + 1,
                  columnName: schema.columns[Int(entry.column)].name,
                  kind: .textTruncated(originalLength: length)))
            }
            try write(entry, text: text, row: excelRow, on: segment)
            if measure {
              let column = Int(entry.column)
              widths[column] = max(widths[column], Int(entry.width))
            }
          }
          segments[segments.count - 1].rows += 1
          rowCount += 1
        }
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
      try writeNote(
        Self.columnNote(column, zone: core.options.timeZone), column: index, on: segment)
    }
    if let note {
      try writeSheetNote(note, on: segment)
    }
    worksheet_freeze_panes(worksheet, 1, 0)
    // Printed: landscape, one page wide, the header repeated on every page.
    worksheet_set_landscape(worksheet)
    worksheet_fit_to_pages(worksheet, 1, 0)
    try core.check(worksheet_repeat_rows(worksheet, 0, 0), sheet: name)
  }

  /// The note on a header cell: the column's description, unit and, for dates, the zone.
  private static func columnNote(_ column: Column, zone: TimeZoneRule) -> String? {
    var parts: [String] = []
    if !column.description.isEmpty { parts.append("\(column.name): \(column.description)") }
    if let unit = column.unit, !unit.isEmpty { parts.append("Unit: \(unit).") }
    if column.type == .datetime {
      parts.append(
        "Date-time cells show local time in \(zone.identifier), to the millisecond; Excel "
          + "dates carry no time zone.")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "\n")
  }

  /// The sheet's own note, shown open on the empty header cell just right of the table, so its
  /// box sits beside the data rather than over it. A table as wide as Excel allows gets it as
  /// a closed note on A1 instead.
  private func writeSheetNote(_ note: String, on segment: Segment) throws {
    let count = schema.columns.count
    guard count + 8 < XLSXWorkbook.excelMaxColumns else {
      let columnNote = Self.columnNote(schema.columns[0], zone: core.options.timeZone)
      let text = [note, columnNote].compactMap { $0 }.joined(separator: "\n\n")
      return try writeNote(text, column: 0, on: segment)
    }
    try writeNote(note, column: count, on: segment, visible: true)
  }

  private func writeNote(
    _ note: String?, column: Int, on segment: Segment, visible: Bool = false
  ) throws {
    guard let note else { return }
    let (text, _) = XLSXText.prepare(note)
    var options = lxw_comment_options()
    options.width = 320
    options.height = UInt16(min(60 + 14 * (text.utf8.count / 45), 400))
    if visible { options.visible = UInt8(LXW_COMMENT_DISPLAY_VISIBLE.rawValue) }
    let code = "rkexport".withCString { author in
      options.author = UnsafeMutablePointer(mutating: author)
      return worksheet_write_comment_opt(segment.worksheet, 0, lxw_col_t(column), text, &options)
    }
    let columnName = column < schema.columns.count ? schema.columns[column].name : nil
    try core.check(
      code, sheet: segment.name, row: 1, column: column + 1, columnName: columnName)
  }
}
