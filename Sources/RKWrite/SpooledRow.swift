// A spooled row read in place: its cells stay bytes until a writer formats them.
import RKTable

/// One `RowSpool` row lent by `RowSpool.Reader.next(_:)`: every cell was checked when the row
/// was read, and a cell is decoded only when asked for, so a writer can format fields straight
/// from the spool's bytes (`CSVRowBuilder.appendRow(_:from:firstCell:)`) with no `[Cell]`.
///
/// Valid only inside the closure it is lent to: it points into the reader's buffer.
public struct SpooledRow {
  /// The row's bytes after its length prefix.
  let bytes: UnsafeBufferPointer<UInt8>
  /// Where each cell's tag is in `bytes`.
  let starts: UnsafeBufferPointer<Int>

  /// The number of cells.
  public var count: Int { starts.count }

  /// The tag of cell `index` and a cursor on its payload; nil for an index out of range.
  func tagged(_ index: Int) -> (tag: RowCodec.Tag, payload: RowCodec.Cursor)? {
    guard index >= 0, index < starts.count else { return nil }
    var cursor = RowCodec.Cursor(bytes: bytes, position: starts[index])
    guard let raw = cursor.byte(), let tag = RowCodec.Tag(rawValue: raw) else { return nil }
    return (tag, cursor)
  }

  /// The value of an integer cell; nil for any other cell.
  public func integer(at index: Int) -> Int64? {
    guard let (tag, payload) = tagged(index), tag == .integer else { return nil }
    var cursor = payload
    return cursor.varint().map(RowCodec.unzigzag)
  }

  /// The text of a text cell; nil for any other cell.
  public func text(at index: Int) -> String? {
    guard let (tag, payload) = tagged(index), tag == .text else { return nil }
    var cursor = payload
    return cursor.string()
  }

  /// Cell `index` decoded; nil for an index out of range.
  public func cell(at index: Int) -> Cell? {
    guard let (tag, payload) = tagged(index) else { return nil }
    var cursor = payload
    return RowCodec.decodeCell(tag, &cursor)
  }
}
