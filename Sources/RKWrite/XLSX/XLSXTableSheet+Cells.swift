// One encoded cell to libxlsxwriter: the only work left on the workbook's thread.
internal import CXLSXWriter
import RKTable

extension XLSXTableSheet {
  /// Writes one cell encoded by `XLSXRows`; `text` is that batch's string buffer.
  func write(
    _ entry: XLSXRows.Entry, text: UnsafeBufferPointer<UInt8>, row: Int, on segment: Segment
  ) throws {
    let worksheet = segment.worksheet
    let excelRow = lxw_row_t(row)
    let excelColumn = lxw_col_t(entry.column)
    let code: lxw_error
    switch entry.kind {
    case .text:
      let start = Int(entry.value)
      guard let base = text.baseAddress, start >= 0, start < text.count else {
        throw XLSXError(
          .parameterValidation, path: core.output.path, sheet: segment.name, row: row + 1,
          column: Int(entry.column) + 1, message: "Encoded text is missing.")
      }
      code = UnsafeRawPointer(base + start).withMemoryRebound(to: CChar.self, capacity: 1) {
        worksheet_write_string(worksheet, excelRow, excelColumn, $0, nil)
      }
    case .number:
      code = worksheet_write_number(worksheet, excelRow, excelColumn, entry.value, nil)
    case .integer:
      code = worksheet_write_number(
        worksheet, excelRow, excelColumn, entry.value, core.integerFormat)
    case .date:
      code = worksheet_write_number(worksheet, excelRow, excelColumn, entry.value, core.dateFormat)
    case .seconds:
      code = worksheet_write_number(
        worksheet, excelRow, excelColumn, entry.value, core.secondsFormat)
    case .boolean:
      code = worksheet_write_boolean(
        worksheet, excelRow, excelColumn, entry.value != 0 ? 1 : 0, core.booleanFormat)
    }
    guard code != LXW_NO_ERROR else { return }
    try core.check(
      code, sheet: segment.name, row: row + 1, column: Int(entry.column) + 1,
      columnName: schema.columns[Int(entry.column)].name)
  }

  /// Writes text as a string cell (never a number or formula), cut at Excel's limit with a
  /// visible marker and a warning. Used for the header row.
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
}
