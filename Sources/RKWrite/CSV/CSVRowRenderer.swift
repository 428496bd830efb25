// Rows → CSV bytes, apart from any file: lets parser threads format while one thread writes.
import RKTable

/// Formats rows exactly as `CSVWriter.write(_:)` does, into a caller's byte buffer.
///
/// A value type with no shared state, so several threads can each render their own rows and
/// hand the bytes to `CSVWriter.writeRendered(_:rowCount:)`: formatting is most of the cost of
/// writing, and this moves it off the single writing thread.
public struct CSVRowRenderer: Sendable {
  public let timeZone: TimeZoneRule
  public let excelSafe: Bool

  public init(timeZone: TimeZoneRule = .utc, excelSafe: Bool = false) {
    self.timeZone = timeZone
    self.excelSafe = excelSafe
  }

  /// Appends one row and its `\n`.
  public func append(_ row: [Cell], to bytes: inout [UInt8]) {
    var builder = CSVRowBuilder(timeZone: timeZone, excelSafe: excelSafe, capacity: 256)
    for cell in row { builder.append(cell) }
    builder.endRow()
    bytes.append(contentsOf: builder.bytes)
  }
}
