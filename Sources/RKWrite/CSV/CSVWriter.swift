// The CSV writer: buffered bytes to an atomic file, one header row, RFC 4180 fields.
import RKTable

/// Writes one table as CSV (design.md §4): UTF-8, header row of the schema's column names,
/// RFC 4180 quoting only where needed, `\n` line ends, empty field for `Cell.empty`.
///
/// Rows are formatted into a 64 KiB byte buffer and flushed with POSIX `write(2)`; the file
/// appears under its final name only after `finish()` (see `AtomicFile`).
///
/// ```swift
/// let csv = try CSVWriter(path: "out/answers.csv", schema: ExportSchemas.answers)
/// for row in rows { try csv.write(row) }
/// try csv.finish()           // or csv.abandon() on failure: no file is left behind
/// ```
/// Cell text rules are listed on `CSVFieldEncoder`; instants use `timeZone`
/// (`2016-05-16T19:34:25.846Z` in UTC, `2016-05-16T21:34:25.846+02:00` in Europe/Zurich).
public final class CSVWriter: RowSink {
  /// Bytes gathered before each `write(2)`.
  public static let bufferCapacity = 64 * 1024

  /// The final path of the file.
  public var path: String { file.path }
  public let schema: TableSchema
  public let timeZone: TimeZoneRule
  /// True when text cells are guarded against formula injection (`excelSafeText(_:)`).
  public let excelSafe: Bool
  // Unchecked exclusivity (here and below): one thread at a time writes a table, several
  // times a run, and a runtime check costs ~60 instructions an access.
  /// Data rows written so far (the header not counted).
  @exclusivity(unchecked) public private(set) var rowCount = 0

  private let file: AtomicFile
  @exclusivity(unchecked) private var buffer: [UInt8] = []
  @exclusivity(unchecked) private var isOpen = true

  /// Creates the temporary file and buffers the header row.
  ///
  /// - Parameters:
  ///   - path: the final file; its folder must exist.
  ///   - byteOrderMark: start with a UTF-8 BOM (EF BB BF) so that Excel on Windows reads UTF-8.
  ///   - excelSafe: put `'` before text cells (header included) that a spreadsheet would run as
  ///     a formula (`--excel-safe`; rules on `excelSafeText(_:)`). Off by default: R and pandas
  ///     users want the text unchanged.
  public init(
    path: String, schema: TableSchema, timeZone: TimeZoneRule = .utc, byteOrderMark: Bool = false,
    excelSafe: Bool = false
  ) throws {
    self.schema = schema
    self.timeZone = timeZone
    self.excelSafe = excelSafe
    file = try AtomicFile(path: path)
    buffer.reserveCapacity(CSVWriter.bufferCapacity + 4096)
    if byteOrderMark { buffer.append(contentsOf: [0xEF, 0xBB, 0xBF]) }
    var header = CSVRowBuilder(timeZone: timeZone, excelSafe: excelSafe)
    for column in schema.columns { header.appendText(column.name) }
    header.endRow()
    buffer.append(contentsOf: header.bytes)
  }

  deinit {
    if isOpen { file.abandon() }
  }

  /// Appends one row; it must have exactly one cell per schema column.
  public func write(_ row: [Cell]) throws {
    guard isOpen else { throw WriteError.closed(path: file.path) }
    guard row.count == schema.columns.count else {
      throw WriteError.rowWidth(path: file.path, expected: schema.columns.count, actual: row.count)
    }
    var builder = CSVRowBuilder(timeZone: timeZone, excelSafe: excelSafe, capacity: 256)
    builder.append(row: row)
    buffer.append(contentsOf: builder.bytes)
    rowCount += 1
    if buffer.count >= CSVWriter.bufferCapacity { try flush() }
  }

  /// Appends rows already formatted by a `CSVRowBuilder` with this writer's zone and
  /// `excelSafe` setting (`rowCount` of them, each ending in `\n`).
  public func writeRendered(_ bytes: [UInt8], rowCount rows: Int) throws {
    try writeRendered(bytes[...], rowCount: rows)
  }

  /// The same for rows that share a buffer with other bytes.
  public func writeRendered(_ bytes: ArraySlice<UInt8>, rowCount rows: Int) throws {
    try bytes.withUnsafeBufferPointer { try writeRendered($0, rowCount: rows) }
  }

  /// Appends rows already formatted, lent in place (see `writeRendered(_:rowCount:)`).
  public func writeRendered(_ bytes: UnsafeBufferPointer<UInt8>, rowCount rows: Int) throws {
    guard isOpen else { throw WriteError.closed(path: file.path) }
    if bytes.isEmpty { return }
    buffer.append(contentsOf: bytes)
    rowCount += rows
    if buffer.count >= CSVWriter.bufferCapacity { try flush() }
  }

  /// Writes what is buffered and renames the file into place. The writer is closed afterwards.
  public func finish() throws {
    guard isOpen else { throw WriteError.closed(path: file.path) }
    do {
      try flush()
      isOpen = false
      try file.commit()
    } catch {
      abandon()
      throw error
    }
  }

  /// Writes the buffered rows and starts flushing the file to disk on another thread (see
  /// `AtomicFile.beginFlush()`): for a table that is complete but finished later, so that the
  /// fsync in `finish()` finds little left to wait for. More rows may still follow.
  public func beginFlush() throws {
    guard isOpen else { throw WriteError.closed(path: file.path) }
    do {
      try flush()
    } catch {
      abandon()
      throw error
    }
    file.beginFlush()
  }

  /// Discards everything: removes the temporary file and leaves any older file at `path` as it
  /// was. Safe to call more than once, and after a failed `finish()`.
  public func abandon() {
    isOpen = false
    buffer = []
    file.abandon()
  }

  private func flush() throws {
    guard !buffer.isEmpty else { return }
    try buffer.withUnsafeBytes { try file.write($0) }
    buffer.removeAll(keepingCapacity: true)
  }
}
