// Spooled cells → CSV fields without decoding them into `Cell`s (the wide tables' hot path).
import RKTable

extension CSVRowBuilder {
  /// Appends one row whose fields come from `row`'s cells: column `i` takes
  /// `row` cell `firstCell + sources[i]`, a blank or `0`; then ends the row. Fields are
  /// formatted exactly as the decoded cells would be; a source beyond the row is a blank.
  public mutating func appendRow(_ sources: [CellSource], from row: SpooledRow, firstCell: Int) {
    sources.withUnsafeBufferPointer { sources in
      for source in sources {
        if let index = source.cellIndex {
          appendCell(of: row, at: firstCell + index)
        } else if source == .zero {
          separate()
          buffer.append(UInt8(ascii: "0"))
        } else {
          separate()
        }
      }
    }
    endRow()
  }

  /// Appends the field of `row`'s cell `index` (a blank for an index out of range).
  public mutating func appendCell(of row: SpooledRow, at index: Int) {
    guard let (tag, payload) = row.tagged(index) else {
      appendEmpty()
      return
    }
    var cursor = payload
    switch tag {
    case .empty: appendEmpty()
    case .text:
      if let text = cursor.stringBytes() { appendText(text) } else { appendEmpty() }
    case .number:
      separate()
      if let text = cursor.stringBytes() { CSVFieldEncoder.appendText(text, to: &buffer) }
    case .integer:
      if let value = cursor.varint() {
        appendInteger(RowCodec.unzigzag(value))
      } else {
        appendEmpty()
      }
    case .boolFalse: appendBool(false)
    case .boolTrue: appendBool(true)
    case .instant:
      if let value = cursor.varint() {
        appendInstant(millisecondsSince1970: RowCodec.unzigzag(value))
      } else {
        appendEmpty()
      }
    case .seconds:
      if let value = cursor.double() { appendSeconds(value) } else { appendEmpty() }
    case .csvField:
      separate()
      if let field = cursor.stringBytes() { buffer.append(field) }
    }
  }

  /// Text given as UTF-8 bytes, as `appendText(_:)` writes the same string.
  mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
    separate()
    guard excelSafe && CSVWriter.needsFormulaGuard(utf8: text) else {
      CSVFieldEncoder.appendText(text, to: &buffer)
      return
    }
    // The guard `'` never needs quotes itself, so it goes first, inside any quotes.
    let quoted = CSVFieldEncoder.needsQuotes(text)
    if quoted { buffer.append(0x22) }
    buffer.append(UInt8(ascii: "'"))
    for byte in text {
      if quoted && byte == 0x22 { buffer.append(0x22) }
      buffer.append(byte)
    }
    if quoted { buffer.append(0x22) }
  }
}
