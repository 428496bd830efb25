// Cells and columns: the vocabulary the flattener produces and every writer consumes.

/// One cell of an output table. Writers decide the text (CSV) or cell type (XLSX).
public enum Cell: Sendable, Equatable {
  /// Missing: an empty CSV field, a blank spreadsheet cell.
  case empty
  case text(String)
  /// A number with its canonical text (written as is to CSV) and its Double (for XLSX, stats).
  case number(text: String, value: Double)
  case integer(Int64)
  case bool(Bool)
  /// An instant, milliseconds since 1970-01-01T00:00:00Z; written in the run's time zone.
  case instant(millisecondsSince1970: Int64)
  /// A duration in seconds, written with millisecond precision.
  case seconds(Double)
}

/// The type of a column, as the codebook and Frictionless Table Schema name it.
public enum ColumnType: String, Sendable, Hashable {
  case string
  case number
  case integer
  case boolean
  case datetime
}

/// One column of a table: its contract name, type and meaning.
public struct Column: Sendable, Equatable {
  public var name: String
  public var type: ColumnType
  /// One sentence for the codebook and the data package.
  public var description: String
  public var unit: String?

  public init(_ name: String, _ type: ColumnType, _ description: String, unit: String? = nil) {
    self.name = name
    self.type = type
    self.description = description
    self.unit = unit
  }
}

/// A table's name (its file name without extension, e.g. `answers`, `wide/survey`) and columns.
public struct TableSchema: Sendable, Equatable {
  public var name: String
  public var columns: [Column]

  public init(name: String, columns: [Column]) {
    self.name = name
    self.columns = columns
  }

  public var columnNames: [String] { columns.map(\.name) }
}

/// Where rows go. Writers implement it; rows arrive in their final order.
public protocol RowSink: AnyObject {
  /// Appends one row; `row.count` equals the schema's column count.
  func write(_ row: [Cell]) throws
}
