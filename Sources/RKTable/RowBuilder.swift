// Rows field by field: lets the flattener write CSV bytes directly, or cells for a workbook.

/// Receives table rows one field at a time, in column order, each row closed by `endRow()`.
///
/// The flattener writes its rows into any builder: `CellRowBuilder` collects `[Cell]` rows
/// (workbook, tests), RKWrite's `CSVRowBuilder` formats CSV bytes straight away, without a
/// `[Cell]` array and its Strings per row. Each method appends the field its `Cell` case would.
public protocol RowBuilder: ~Copyable {
  mutating func appendEmpty()
  mutating func appendText(_ text: String)
  /// A number with its canonical text and its Double (`Cell.number`).
  mutating func appendNumber(text: String, value: Double)
  mutating func appendInteger(_ value: Int64)
  mutating func appendBool(_ value: Bool)
  mutating func appendInstant(millisecondsSince1970 ms: Int64)
  /// A duration in seconds (`Cell.seconds`).
  mutating func appendSeconds(_ seconds: Double)
  mutating func endRow()
  /// The three text fields that start every row of a task run (participant, task, run UUID;
  /// nil is an empty field), as three `appendText` calls would append them. A builder may
  /// render them once per run: a run's rows all start with them.
  mutating func appendRunKey(participantID: String, taskIdentifier: String, runUUID: String?)
  /// The run's `source` field, as `appendText` would append it. A builder may render it once
  /// per run: every row of a run ends with it.
  mutating func appendRunSource(_ source: String)
  /// A text field known to be plain: ASCII letters, digits and `_` only (the names of answer
  /// types and statuses), so that no writer needs to quote or guard it.
  mutating func appendPlainText(_ text: StaticString)
}

extension RowBuilder where Self: ~Copyable {
  /// Appends the field of any cell.
  public mutating func append(_ cell: Cell) {
    switch cell {
    case .empty: appendEmpty()
    case .text(let text): appendText(text)
    case .number(let text, let value): appendNumber(text: text, value: value)
    case .integer(let value): appendInteger(value)
    case .bool(let value): appendBool(value)
    case .instant(let ms): appendInstant(millisecondsSince1970: ms)
    case .seconds(let seconds): appendSeconds(seconds)
    }
  }

  /// Appends a whole row of cells and ends it.
  public mutating func append(row: [Cell]) {
    for cell in row { append(cell) }
    endRow()
  }

  /// Text, or an empty field for nil.
  public mutating func appendText(_ text: String?) {
    if let text { appendText(text) } else { appendEmpty() }
  }

  public mutating func appendRunKey(
    participantID: String, taskIdentifier: String, runUUID: String?
  ) {
    appendText(participantID)
    appendText(taskIdentifier)
    appendText(runUUID)
  }

  public mutating func appendRunSource(_ source: String) { appendText(source) }

  public mutating func appendPlainText(_ text: StaticString) { appendText(text.description) }
}

/// Collects rows as `[Cell]` arrays.
public struct CellRowBuilder: RowBuilder {
  public private(set) var rows: [[Cell]] = []
  private var row: [Cell] = []

  /// - Parameter columnCount: the table's width, to size each row once.
  public init(columnCount: Int = 0) {
    row.reserveCapacity(columnCount)
  }

  public mutating func appendEmpty() { row.append(.empty) }
  public mutating func appendText(_ text: String) { row.append(.text(text)) }
  public mutating func appendNumber(text: String, value: Double) {
    row.append(.number(text: text, value: value))
  }
  public mutating func appendInteger(_ value: Int64) { row.append(.integer(value)) }
  public mutating func appendBool(_ value: Bool) { row.append(.bool(value)) }
  public mutating func appendInstant(millisecondsSince1970 ms: Int64) {
    row.append(.instant(millisecondsSince1970: ms))
  }
  public mutating func appendSeconds(_ seconds: Double) { row.append(.seconds(seconds)) }

  public mutating func endRow() {
    let capacity = row.capacity
    rows.append(row)
    row = []
    row.reserveCapacity(capacity)
  }
}
