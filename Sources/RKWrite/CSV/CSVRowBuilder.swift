// Fields → CSV bytes as they come: the flattener writes rows here without building cells.
import RKTable

/// Formats rows field by field into `bytes`, exactly as `CSVWriter.write(_:)` formats the same
/// cells (rules on `CSVFieldEncoder`), ready for `CSVWriter.writeRendered(_:rowCount:)`.
///
/// ```swift
/// var builder = CSVRowBuilder(timeZone: zone, excelSafe: false)
/// flattener.appendStepRows(run, to: &builder)
/// try stepsCSV.writeRendered(builder.bytes, rowCount: builder.rowCount)
/// ```
public struct CSVRowBuilder: RowBuilder, ~Copyable {
  var buffer: ByteWriter
  public let timeZone: TimeZoneRule
  public let excelSafe: Bool
  /// Rows ended so far.
  public private(set) var rowCount = 0
  private var atRowStart = true
  private var instants = ISO8601Writer()
  /// The output zone's span of the last instant: the next instant asks the zone only when it
  /// falls outside.
  private var zoneSpan = OffsetSpan.none
  /// The last run key appended, and where its fields were rendered in `buffer`.
  private var runKey: (participantID: String, taskIdentifier: String, runUUID: String?)?
  private var runKeyRange = 0..<0
  /// The last run source appended, and where it was rendered in `buffer`.
  private var runSource: String?
  private var runSourceRange = 0..<0

  public init(timeZone: TimeZoneRule = .utc, excelSafe: Bool = false, capacity: Int = 0) {
    self.timeZone = timeZone
    self.excelSafe = excelSafe
    buffer = ByteWriter(capacity: capacity)
  }

  /// A copy of the rows formatted so far.
  public var bytes: [UInt8] { buffer.bytes }

  /// The number of bytes formatted so far (without copying them).
  public var byteCount: Int { buffer.count }

  public mutating func appendEmpty() {
    separate()
  }

  public mutating func appendText(_ text: String) {
    separate()
    appendTextField(text)
  }

  /// Plain text is its own CSV field: no quotes, and no formula guard (it starts with a
  /// letter).
  public mutating func appendPlainText(_ text: StaticString) {
    separate()
    text.withUTF8Buffer { buffer.append($0) }
  }

  /// A text field's bytes, after its separator.
  private mutating func appendTextField(_ text: String) {
    if excelSafe && CSVWriter.needsFormulaGuard(text) {
      CSVFieldEncoder.appendText("'" + text, to: &buffer)
    } else {
      CSVFieldEncoder.appendText(text, to: &buffer)
    }
  }

  public mutating func appendNumber(text: String, value: Double) {
    separate()
    CSVFieldEncoder.appendText(text, to: &buffer)
  }

  public mutating func appendInteger(_ value: Int64) {
    separate()
    CSVFieldEncoder.appendInteger(value, to: &buffer)
  }

  public mutating func appendBool(_ value: Bool) {
    separate()
    CSVFieldEncoder.appendASCII(value ? "true" : "false", to: &buffer)
  }

  public mutating func appendInstant(millisecondsSince1970 ms: Int64) {
    separate()
    if !timeZone.isUTC && !zoneSpan.contains(ms) { findZoneSpan(ms) }
    let offset = timeZone.isUTC ? 0 : zoneSpan.offsetSeconds
    instants.append(millisecondsSince1970: ms, offsetSeconds: offset, to: &buffer)
  }

  /// Out of line: the rare call, inlined, cost the row loops that format instants a register.
  @inline(never)
  private mutating func findZoneSpan(_ ms: Int64) {
    zoneSpan = timeZone.span(containing: ms)
  }

  public mutating func appendSeconds(_ seconds: Double) {
    separate()
    CSVFieldEncoder.appendSeconds(seconds, to: &buffer)
  }

  /// Renders the key once and copies those bytes into the run's later rows. The fields are
  /// compared first; for the same Strings that is a comparison of their storage.
  public mutating func appendRunKey(
    participantID: String, taskIdentifier: String, runUUID: String?
  ) {
    if let runKey, runKey.participantID == participantID,
      runKey.taskIdentifier == taskIdentifier, runKey.runUUID == runUUID
    {
      separate()
      buffer.appendCopy(of: runKeyRange)
      return
    }
    // The range starts after the comma that separates the key from a field before it.
    let start = atRowStart ? buffer.count : buffer.count + 1
    appendText(participantID)
    appendText(taskIdentifier)
    appendText(runUUID)
    runKey = (participantID, taskIdentifier, runUUID)
    runKeyRange = start..<buffer.count
  }

  /// Renders the source once and copies those bytes into the run's later rows, as
  /// `appendRunKey` does for the key.
  public mutating func appendRunSource(_ source: String) {
    if let runSource, runSource == source {
      separate()
      buffer.appendCopy(of: runSourceRange)
      return
    }
    separate()
    let start = buffer.count
    appendTextField(source)
    runSource = source
    runSourceRange = start..<buffer.count
  }

  public mutating func endRow() {
    buffer.append(0x0A)
    atRowStart = true
    rowCount += 1
  }

  /// Hands the rows formatted so far to `writer` (made with the same zone and `excelSafe`
  /// setting) and starts over empty, keeping the memory: one builder can feed many writers.
  public mutating func flush(into writer: CSVWriter) throws {
    try flush { bytes, rows in try writer.writeRendered(bytes, rowCount: rows) }
  }

  /// Hands the rows formatted so far and their count to `body` (for a sink that is not a
  /// `CSVWriter`), then forgets them, as `flush(into:)` does.
  public mutating func flush(
    _ body: (UnsafeBufferPointer<UInt8>, _ rowCount: Int) throws -> Void
  ) throws {
    let rows = rowCount
    try buffer.withUnsafeBytes { try body($0, rows) }
    buffer.removeAll()
    runKey = nil
    runSource = nil
    rowCount = 0
  }

  /// The comma before every field but a row's first.
  @inline(__always)
  mutating func separate() {
    if atRowStart {
      atRowStart = false
    } else {
      buffer.append(0x2C)
    }
  }
}
