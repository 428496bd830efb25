// Rows assembled from another row's cells: where each column's field comes from.

/// The source of one column's field when a row is put together from the cells of another row
/// (a wide table's row from a run's compact partial row): one of its cells, a blank, or `0`.
///
/// Four bytes, so a table-wide array of sources is cheap to reset for every row.
///
/// ```swift
/// var sources = [CellSource](repeating: .empty, count: 3)
/// sources[0] = .cell(4)   // the fifth cell of the source row
/// sources[2] = .zero      // the integer 0
/// ```
public struct CellSource: Hashable, Sendable {
  /// A cell index (0 or more), or one of the negative markers below.
  public let rawValue: Int32

  // Computed and inlinable: a stored `static let` costs a lazy-global check per use.
  /// A blank field (`Cell.empty`).
  @inlinable public static var empty: CellSource { CellSource(rawValue: -1) }
  /// The integer 0 (`Cell.integer(0)`).
  @inlinable public static var zero: CellSource { CellSource(rawValue: -2) }

  /// The cell at `index` of the source row; a blank for an index out of `Int32`'s range.
  @inlinable
  public static func cell(_ index: Int) -> CellSource {
    guard index >= 0, index <= Int(Int32.max) else { return .empty }
    return CellSource(rawValue: Int32(index))
  }

  @usableFromInline
  init(rawValue: Int32) { self.rawValue = rawValue }

  /// The cell index, or nil for a blank or zero.
  @inline(__always)
  public var cellIndex: Int? { rawValue >= 0 ? Int(rawValue) : nil }
}
