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
  /// The row's bytes: length, cell count, cells (see `RowCodec`). Past `used` they are zeroed
  /// room, written in place by the next cells (through a pointer: appending each part cost
  /// over a hundred instructions in checks) and dropped by `finish()`.
  var bytes: [UInt8]
  private var used = 0
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
    bytes = [UInt8](repeating: 0, count: 16 + 16 * cellCount)
    placeholders.reserveCapacity(cellCount / 2)
    // The length (filled in by `finish()`), then the cell count.
    used = 4
    write(maximumSize: RowCodec.maximumVarintSize) {
      RowCodec.write(varint: UInt64(cellCount), at: $0)
    }
  }

  public mutating func append(_ cell: Cell) {
    write(maximumSize: RowCodec.maximumSize(of: cell)) { RowCodec.write(cell, at: $0) }
    cellsAppended += 1
  }

  /// Appends an integer cell whose value `RowSpool.append(_:filling:)` writes.
  public mutating func appendPlaceholder() {
    write(maximumSize: 9) { start in
      start.pointee = RowCodec.Tag.fixedInteger.rawValue
      // The eight value bytes stay zero until filled.
      return 9
    }
    placeholders.append(used - 8)
    cellsAppended += 1
  }

  /// Closes the row; false when it has another number of cells than announced, or is 4 GiB
  /// or more (the spool then refuses it).
  @discardableResult
  public mutating func finish() -> Bool {
    if !isFinished { bytes.removeLast(bytes.count - used) }
    isFinished = cellsAppended == cellCount && RowCodec.endRow(startingAt: 0, in: &bytes)
    // A row refused by `endRow` is removed: later writes start at the end of what is left.
    used = bytes.count
    return isFinished
  }

  /// Runs `body` at the first unwritten byte, with `maximumSize` zeroed bytes of room made
  /// first; `body` returns how many it wrote.
  @inline(__always)
  private mutating func write(
    maximumSize: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int
  ) {
    if bytes.count - used < maximumSize {
      bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, maximumSize)))
    }
    let start = used
    used += bytes.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
  }
}
