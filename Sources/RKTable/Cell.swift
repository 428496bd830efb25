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
  /// Allowed values of a categorical column, in order (Frictionless `categories`); empty if open.
  public var categories: [String]

  public init(
    _ name: String, _ type: ColumnType, _ description: String, unit: String? = nil,
    categories: [String] = []
  ) {
    self.name = name
    self.type = type
    self.description = description
    self.unit = unit
    self.categories = categories
  }
}

/// A table's name (its file name without extension, e.g. `answers`, `wide/survey`) and columns.
public struct TableSchema: Sendable, Equatable {
  public var name: String
  public var columns: [Column]
  /// Columns that identify a row (Frictionless `primaryKey`); empty when rows have no key.
  public var primaryKey: [String]
  /// References to other tables' keys (Frictionless `foreignKeys`).
  public var foreignKeys: [ForeignKey]

  public init(
    name: String, columns: [Column], primaryKey: [String] = [], foreignKeys: [ForeignKey] = []
  ) {
    self.name = name
    self.columns = columns
    self.primaryKey = primaryKey
    self.foreignKeys = foreignKeys
  }

  public var columnNames: [String] { columns.map(\.name) }
}

/// Columns of one table that refer to the key of another table.
public struct ForeignKey: Sendable, Equatable {
  public var columns: [String]
  /// The referenced table's schema name.
  public var referencedTable: String
  public var referencedColumns: [String]

  public init(columns: [String], referencedTable: String, referencedColumns: [String]) {
    self.columns = columns
    self.referencedTable = referencedTable
    self.referencedColumns = referencedColumns
  }
}

/// Where rows go. Writers implement it; rows arrive in their final order.
public protocol RowSink: AnyObject {
  /// Appends one row; `row.count` equals the schema's column count.
  func write(_ row: [Cell]) throws
}

/// `milliseconds` rounded half away from zero, as `rounded()` does, or nil when it is not a
/// finite value below 9e15 (beyond exact millisecond integers). Below 2^52 the truncation
/// through Int64 and the fraction it leaves are exact: no call into libm for each duration.
/// (`Instant.millisecondsSince1970` rounds the same way; the model does not import this module.)
@inlinable
public func roundedMilliseconds(_ milliseconds: Double) -> Int64? {
  guard abs(milliseconds) < 4.5e15 else {
    let rounded = milliseconds.rounded()
    guard rounded.isFinite, abs(rounded) < 9.0e15 else { return nil }
    return Int64(rounded)
  }
  let whole = Int64(milliseconds)
  let fraction = milliseconds - Double(whole)
  if fraction >= 0.5 { return whole + 1 }
  if fraction <= -0.5 { return whole - 1 }
  return whole
}
