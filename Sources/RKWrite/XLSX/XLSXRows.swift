// Rows turned into ready-made Excel cells on any thread, so the workbook thread only calls
// libxlsxwriter.
import RKTable

/// Table rows encoded for a workbook sheet: every cell already decided (number, date serial,
/// boolean or string), text escaped, cut to Excel's limit and NUL-terminated in one byte buffer.
///
/// Deciding and copying the cells needs no workbook, so it can run on the threads that parse
/// inputs; `XLSXTableSheet.write(_:)` then makes only one library call per cell on the thread
/// that owns the workbook.
/// The zone given here must be the workbook's (`XLSXWorkbook.Options.timeZone`).
///
/// ```swift
/// var rows = XLSXRows(timeZone: .utc)
/// rows.append([.text("P001"), .integer(3)])
/// try sheet.write(rows)
/// ```
public struct XLSXRows: Sendable {
  /// How a cell is written, with which number format.
  enum Kind: UInt8 {
    case text, number, integer, date, seconds, boolean
  }

  /// One non-empty cell.
  struct Entry {
    /// A number's value, or where a string starts in `text`.
    var value: Double
    var column: Int32
    var kind: Kind
    /// Characters the cell needs on screen, at most `XLSXTableSheet.maxWidth`.
    var width: UInt8
    /// True for text cut at Excel's limit (its original length is in `truncations`).
    var truncated: Bool
  }

  let timeZone: TimeZoneRule
  /// The zone's span of the last instant encoded (`CSVRowBuilder` keeps one too).
  private var zoneSpan = OffsetSpan.none
  private(set) var entries: [Entry] = []
  /// NUL-terminated UTF-8 strings, one per text entry.
  private(set) var text: [UInt8] = []
  /// Per row: where its entries end, and how many cells it had.
  private(set) var rowEnds: [Int] = []
  private(set) var rowWidths: [Int] = []
  /// Original lengths (UTF-16 units) of cut texts, in entry order.
  private(set) var truncations: [Int] = []

  /// Rows held.
  public var count: Int { rowEnds.count }
  /// The memory the rows hold (their arrays' capacities), to bound a backlog of them.
  public var byteCount: Int {
    entries.capacity * MemoryLayout<Entry>.stride + text.capacity
      + (rowEnds.capacity + rowWidths.capacity + truncations.capacity) * MemoryLayout<Int>.stride
  }
  public var isEmpty: Bool { rowEnds.isEmpty }

  public init(timeZone: TimeZoneRule) {
    self.timeZone = timeZone
  }

  /// Encodes `rows` in the workbook's zone.
  public init(encoding rows: [[Cell]], timeZone: TimeZoneRule) {
    self.timeZone = timeZone
    let cells = rows.count * (rows.first?.count ?? 0)
    entries.reserveCapacity(cells)
    text.reserveCapacity(cells * 16)
    rowEnds.reserveCapacity(rows.count)
    rowWidths.reserveCapacity(rows.count)
    for row in rows { append(row) }
  }

  /// How many cut texts come before entry `index`.
  func truncationsBefore(entry index: Int) -> Int {
    guard !truncations.isEmpty else { return 0 }
    return entries[..<index].reduce(0) { $0 + ($1.truncated ? 1 : 0) }
  }

  /// Drops every row, keeping the storage for the next ones.
  public mutating func removeAll() {
    entries.removeAll(keepingCapacity: true)
    text.removeAll(keepingCapacity: true)
    rowEnds.removeAll(keepingCapacity: true)
    rowWidths.removeAll(keepingCapacity: true)
    truncations.removeAll(keepingCapacity: true)
  }

  /// Encodes one row, as `XLSXTableSheet` writes it: strings stay strings (never numbers or
  /// formulas), numbers and integers as numbers, instants as date serials in the zone,
  /// durations to the millisecond, and text for values Excel cannot hold as numbers.
  public mutating func append(_ row: [Cell]) {
    for (column, cell) in row.enumerated() {
      append(cell, column: Int32(truncatingIfNeeded: column))
    }
    rowEnds.append(entries.count)
    rowWidths.append(row.count)
  }

  private mutating func append(_ cell: Cell, column: Int32) {
    switch cell {
    case .empty:
      return
    case .text(let value):
      appendText(value, column: column, width: nil)
    case .number(let value, let number):
      let width = Self.clamped(value.utf8.count)
      // NaN and infinities have no Excel form; their text keeps them visible.
      guard number.isFinite else { return appendText(value, column: column, width: width) }
      appendNumber(number, .number, column: column, width: width)
    case .integer(let value):
      let width = Self.clamped(Self.decimalLength(value))
      // Excel keeps 15 significant digits; longer integers are written as text.
      guard value.magnitude <= XLSXRows.maxExactInteger else {
        return appendText(String(value), column: column, width: width)
      }
      appendNumber(Double(value), .integer, column: column, width: width)
    case .bool(let value):
      appendNumber(value ? 1 : 0, .boolean, column: column, width: 5)
    case .instant(let milliseconds):
      let width = Self.clamped(23)
      guard let serial = excelSerial(milliseconds) else {
        let fallback = XLSXDates.fallbackText(milliseconds, zone: timeZone)
        return appendText(fallback, column: column, width: width)
      }
      appendNumber(serial, .date, column: column, width: width)
    case .seconds(let value):
      let width = Self.clamped(
        value.magnitude < 1e15 ? Self.decimalLength(Int64(value)) + 4 : 12)
      guard value.isFinite else { return appendText(String(value), column: column, width: width) }
      // The CSV writes durations to the millisecond; the cell holds that same value.
      let milliseconds = (value * 1000).rounded()
      let rounded = milliseconds.magnitude < 9e15 ? milliseconds / 1000 : value
      appendNumber(rounded, .seconds, column: column, width: width)
    }
  }

  private mutating func appendNumber(_ value: Double, _ kind: Kind, column: Int32, width: UInt8) {
    entries.append(Entry(value: value, column: column, kind: kind, width: width, truncated: false))
  }

  /// Appends a string cell; `width` nil means the text's own display width.
  private mutating func appendText(_ value: String, column: Int32, width: UInt8?) {
    guard !value.isEmpty else { return }
    let start = text.count
    var plain = PlainScan()
    if !value.utf8.isEmpty, value.utf8.count <= XLSXText.maxCellCharacters {
      // Copy and check in one pass; most cells need no escape and no cut.
      var utf8 = value
      utf8.withUTF8 { bytes in
        text.append(contentsOf: bytes)
        plain = PlainScan(bytes)
      }
    }
    var truncated = false
    if !plain.isPlain {
      text.removeSubrange(start...)
      let (prepared, originalLength) = XLSXText.prepare(value)
      text.append(contentsOf: prepared.utf8)
      if let originalLength {
        truncations.append(originalLength)
        truncated = true
      }
    }
    text.append(0)
    let shown = width ?? Self.textWidth(value, ascii: plain.isPlain && plain.isASCII)
    entries.append(
      Entry(
        value: Double(start), column: column, kind: .text, width: shown, truncated: truncated))
  }

  /// The display width of text: characters, or 200 for long text (then clamped).
  private static func textWidth(_ value: String, ascii: Bool) -> UInt8 {
    let bytes = value.utf8.count
    if bytes > 200 { return clamped(200) }
    // Plain ASCII without CR has one character per byte ("\r\n" is one character).
    return clamped(ascii ? bytes : value.count)
  }

  /// The instant's Excel serial in the zone, or nil outside Excel's dates.
  private mutating func excelSerial(_ milliseconds: Int64) -> Double? {
    guard XLSXDates.isNearExcelRange(milliseconds) else { return nil }
    if !zoneSpan.contains(milliseconds) { zoneSpan = timeZone.span(containing: milliseconds) }
    return XLSXDates.serial(localMilliseconds: milliseconds + Int64(zoneSpan.offsetSeconds) * 1000)
  }

  /// Integers beyond 15 digits are written as text: Excel keeps only 15 significant digits.
  static let maxExactInteger: UInt64 = 999_999_999_999_999

  /// Characters of `String(value)`, sign included.
  static func decimalLength(_ value: Int64) -> Int {
    var length = value < 0 ? 2 : 1
    var rest = value.magnitude
    while rest >= 10 {
      rest /= 10
      length += 1
    }
    return length
  }

  static func clamped(_ width: Int) -> UInt8 {
    UInt8(min(width, XLSXTableSheet.maxWidth))
  }
}

/// What one pass over a string's UTF-8 found: whether it can go to the library as it is.
private struct PlainScan {
  /// No NUL and no `_x`/`_X` that a reader would decode as an escape.
  var isPlain = false
  /// Only ASCII and no CR, so its characters are its bytes.
  var isASCII = false

  init() {}

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    // Eight bytes at a time: most text has no NUL, underscore, CR or non-ASCII byte at all.
    if let high = Self.highBitsIfOrdinary(bytes) {
      isPlain = true
      isASCII = high & 0x80 == 0
    } else {
      self = Self.bytewise(bytes)
    }
  }

  /// 0x80 when any byte is non-ASCII, else 0; nil when a NUL, underscore or CR occurs (or the buffer has no
  /// address): then the exact check must look.
  private static func highBitsIfOrdinary(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let underscores = ones &* UInt64(UInt8(ascii: "_"))
    let returns = ones &* UInt64(UInt8(ascii: "\r"))
    func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
    var index = 0
    var high: UInt64 = 0
    var special = false
    while index + 8 <= bytes.count {
      let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      high |= word
      special =
        special || hasZeroByte(word) || hasZeroByte(word ^ underscores)
        || hasZeroByte(word ^ returns)
      index += 8
    }
    while index < bytes.count {
      let byte = bytes[index]
      high |= UInt64(byte)
      special = special || byte == 0 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "\r")
      index += 1
    }
    guard !special else { return nil }
    return high & highs == 0 ? 0 : 0x80
  }

  /// The exact check, one byte at a time.
  private static func bytewise(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainScan {
    var scan = PlainScan()
    var previousUnderscore = false
    var highBits: UInt8 = 0
    var carriageReturn = false
    for byte in bytes {
      if byte == 0 { return scan }
      if previousUnderscore && (byte | 0x20) == UInt8(ascii: "x") { return scan }
      previousUnderscore = byte == UInt8(ascii: "_")
      highBits |= byte
      carriageReturn = carriageReturn || byte == UInt8(ascii: "\r")
    }
    scan.isPlain = true
    scan.isASCII = highBits < 0x80 && !carriageReturn
    return scan
  }
}
