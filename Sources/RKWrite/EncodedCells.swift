// Spool cells encoded ahead of time: the costly part of spooling, done off the writing thread.
import RKTable

/// Cells in `RowSpool`'s encoding, made on any thread and copied into a row later by
/// `RowSpool.appendRow(cellCount:_:)`, whole or one cell at a time.
public struct EncodedCells: Sendable {
  var bytes: [UInt8] = []
  /// Where each cell starts in `bytes`.
  var starts: [Int] = []

  public init() {}

  /// The number of cells.
  public var count: Int { starts.count }

  public mutating func append(_ cell: Cell) {
    starts.append(bytes.count)
    RowCodec.appendCell(cell, to: &bytes)
  }
}

/// Appends the cells of one spool row (see `RowSpool.appendRow(cellCount:_:)`).
public struct SpoolRowWriter {
  var bytes: [UInt8] = []
  var cellCount = 0

  public mutating func append(_ cell: Cell) {
    RowCodec.appendCell(cell, to: &bytes)
    cellCount += 1
  }

  /// Appends an integer cell (`Cell.integer`).
  public mutating func appendInteger(_ value: Int64) {
    bytes.append(RowCodec.Tag.integer.rawValue)
    RowCodec.appendVarint(RowCodec.zigzag(value), to: &bytes)
    cellCount += 1
  }

  /// Appends every cell of `cells`.
  public mutating func append(_ cells: EncodedCells) {
    bytes.append(contentsOf: cells.bytes)
    cellCount += cells.count
  }

  /// Appends the cell at `index` of `cells`; nothing when there is none.
  public mutating func append(_ cells: EncodedCells, at index: Int) {
    guard index >= 0 && index < cells.starts.count else { return }
    let end = index + 1 < cells.starts.count ? cells.starts[index + 1] : cells.bytes.count
    bytes.append(contentsOf: cells.bytes[cells.starts[index]..<end])
    cellCount += 1
  }
}
