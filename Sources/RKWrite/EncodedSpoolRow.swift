// Spool rows encoded ahead of time: the costly part of spooling, done off the writing thread.
import RKTable

/// One `RowSpool` row encoded on any thread, with integer cells left to fill in when it is
/// appended (`RowSpool.append(_:filling:)`): numbers only the writing thread can assign.
///
/// ```swift
/// var row = EncodedSpoolRow(cellCount: 3)
/// row.append(.text("survey"))
/// row.appendPlaceholder()
/// row.append(.bool(true))
/// row.finish()
/// try spool.append(row, filling: [42])   // reads back as [.text("survey"), .integer(42), .bool(true)]
/// ```
public struct EncodedSpoolRow: Sendable {
  /// The row's bytes: length, cell count, cells (see `RowCodec`).
  var bytes: [UInt8] = []
  /// Byte offsets of the placeholders' eight value bytes, in order.
  var placeholders: [Int] = []
  private let cellCount: Int
  private var cellsAppended = 0
  /// True once `finish()` succeeded.
  private(set) var isFinished = false

  /// Starts a row of `cellCount` cells, placeholders included.
  public init(cellCount: Int) {
    self.cellCount = cellCount
    // Room for typical cells (a tag and a short text or number), so the row rarely regrows;
    // about half the cells of a wide row are placeholders.
    bytes.reserveCapacity(16 + 16 * cellCount)
    placeholders.reserveCapacity(cellCount / 2)
    _ = RowCodec.beginRow(cellCount: cellCount, in: &bytes)
  }

  public mutating func append(_ cell: Cell) {
    RowCodec.appendCell(cell, to: &bytes)
    cellsAppended += 1
  }

  /// Appends an integer cell whose value `RowSpool.append(_:filling:)` writes.
  public mutating func appendPlaceholder() {
    bytes.append(RowCodec.Tag.fixedInteger.rawValue)
    placeholders.append(bytes.count)
    bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0])
    cellsAppended += 1
  }

  /// Closes the row; false when it has another number of cells than announced, or is 4 GiB
  /// or more (the spool then refuses it).
  @discardableResult
  public mutating func finish() -> Bool {
    isFinished = cellsAppended == cellCount && RowCodec.endRow(startingAt: 0, in: &bytes)
    return isFinished
  }
}
