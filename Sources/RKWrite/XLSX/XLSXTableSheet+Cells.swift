// How each kind of cell becomes an Excel cell: strings stay strings, dates become date serials.
internal import CXLSXWriter
import RKTable

extension XLSXTableSheet {
  /// Integers beyond 15 digits are written as text: Excel keeps only 15 significant digits.
  static let maxExactInteger: Int64 = 999_999_999_999_999

  func write(_ cell: Cell, row: Int, column: Int, on segment: Segment) throws {
    let worksheet = segment.worksheet
    let excelRow = lxw_row_t(row)
    let excelColumn = lxw_col_t(column)
    let code: lxw_error
    switch cell {
    case .empty:
      return
    case .text(let text):
      try writeText(text, row: row, column: column, on: segment, format: nil)
      return
    case .number(let text, let value):
      // NaN and infinities have no Excel form; their text keeps them visible.
      guard value.isFinite else {
        return try writeText(text, row: row, column: column, on: segment, format: nil)
      }
      code = worksheet_write_number(worksheet, excelRow, excelColumn, value, nil)
    case .integer(let value):
      guard value.magnitude <= Self.maxExactInteger.magnitude else {
        return try writeText(String(value), row: row, column: column, on: segment, format: nil)
      }
      code = worksheet_write_number(
        worksheet, excelRow, excelColumn, Double(value), core.integerFormat)
    case .bool(let value):
      code = worksheet_write_boolean(
        worksheet, excelRow, excelColumn, value ? 1 : 0, core.booleanFormat)
    case .instant(let milliseconds):
      guard let serial = excelSerial(milliseconds) else {
        let text = XLSXDates.fallbackText(milliseconds, zone: core.options.timeZone)
        return try writeText(text, row: row, column: column, on: segment, format: nil)
      }
      code = worksheet_write_number(worksheet, excelRow, excelColumn, serial, core.dateFormat)
    case .seconds(let value):
      guard value.isFinite else {
        return try writeText(
          String(value), row: row, column: column, on: segment, format: nil)
      }
      // The CSV writes durations to the millisecond; the cell holds that same value.
      let milliseconds = (value * 1000).rounded()
      let rounded = milliseconds.magnitude < 9e15 ? milliseconds / 1000 : value
      code = worksheet_write_number(
        worksheet, excelRow, excelColumn, rounded, core.secondsFormat)
    }
    try core.check(
      code, sheet: segment.name, row: row + 1, column: column + 1,
      columnName: schema.columns[column].name)
  }

  /// Writes text as a string cell (never a number or formula), cut at Excel's limit with a
  /// visible marker and a warning.
  func writeText(
    _ text: String, row: Int, column: Int, on segment: Segment,
    format: XLSXWorkbookCore.Format?
  ) throws {
    guard !text.isEmpty else { return }
    let (prepared, originalLength) = XLSXText.prepare(text)
    if let originalLength {
      core.warn(
        XLSXWarning(
          sheet: segment.name, row: row + 1, column: column + 1,
          columnName: schema.columns[column].name,
          kind: .textTruncated(originalLength: originalLength)))
    }
    let code = worksheet_write_string(
      segment.worksheet, lxw_row_t(row), lxw_col_t(column), prepared, format)
    try core.check(
      code, sheet: segment.name, row: row + 1, column: column + 1,
      columnName: schema.columns[column].name)
  }

  /// The Excel serial of an instant in the output zone, or nil outside Excel's dates.
  private func excelSerial(_ milliseconds: Int64) -> Double? {
    guard XLSXDates.isNearExcelRange(milliseconds) else { return nil }
    let offset = core.options.timeZone.offsetSeconds(atMillisecondsSince1970: milliseconds)
    return XLSXDates.serial(localMilliseconds: milliseconds + Int64(offset) * 1000)
  }

  /// Characters a cell needs on screen, for the column width.
  static func displayWidth(of cell: Cell) -> Int {
    switch cell {
    case .empty: return 0
    case .text(let text): return text.utf8.count > 200 ? 200 : text.count
    case .number(let text, _): return text.utf8.count
    case .integer(let value): return String(value).utf8.count
    case .bool: return 5
    case .instant: return 23
    case .seconds(let value):
      return value.magnitude < 1e15 ? String(Int64(value)).utf8.count + 4 : 12
    }
  }
}
