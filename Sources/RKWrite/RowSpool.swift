// A temporary binary file of rows: written once in order, read back in order, memory stays flat.
import RKTable

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Rows of `Cell`s kept on disk while a table's final shape is still unknown (the wide tables:
/// columns are known only after the last run). Appends are buffered (64 KiB) and reads stream
/// through a 64 KiB buffer, so memory does not grow with the number of rows.
///
/// The file is created in `directory` without a name (`ScratchFile.openUnnamed`): the system
/// frees it when the spool is closed or the process ends, even after a crash.
///
/// ```swift
/// let spool = try RowSpool(directory: outputFolder)
/// try spool.append(partialRow)
/// let reader = try spool.makeReader()
/// while let row = try reader.next() { … }
/// ```
/// Encoding per row: its byte length, a varint cell count, then per cell one tag byte and its
/// payload (varint lengths and zigzag integers, text as UTF-8, doubles as their 8 IEEE bytes);
/// see `RowCodec`. No `Codable`.
public final class RowSpool {
  // Unchecked exclusivity (here and below): the writing thread appends a row per run, and a
  // runtime check costs ~60 instructions an access.
  /// Rows appended so far.
  @exclusivity(unchecked) public private(set) var rowCount = 0
  /// Bytes appended so far (the file size once flushed).
  @exclusivity(unchecked) public private(set) var byteCount: Int64 = 0
  private let label: String
  @exclusivity(unchecked) private var descriptor: Int32
  @exclusivity(unchecked) private var buffer: [UInt8] = []
  static let capacity = 64 * 1024

  /// Creates the anonymous spool file in `directory` (use the output folder: same disk as the
  /// outputs, and not a small tmpfs).
  public init(directory: String) throws {
    let folder = directory.isEmpty ? "." : directory
    label = folder + "/.rkexport-spool."
    descriptor = ScratchFile.openUnnamed(in: folder, prefix: ".rkexport-spool.")
    guard descriptor >= 0 else {
      throw WriteError.system(path: label, operation: .create, errorNumber: errno)
    }
    buffer.reserveCapacity(RowSpool.capacity + 1024)
  }

  deinit { close() }

  /// Appends one row (any width; rows need not have the same width).
  public func append(_ row: [Cell]) throws {
    try appendRow(cellCount: row.count) { writer in
      for cell in row { writer.append(cell) }
    }
  }

  /// Appends one row of `cellCount` cells that `body` writes straight into the spool's buffer:
  /// a row made where its cells are known, with no array or buffer of its own (the wide
  /// tables' rows; their column keys are known only on the writing thread). Throws, appending
  /// nothing, when `body` writes another number of cells or the row is 4 GiB or more.
  public func appendRow(cellCount: Int, _ body: (inout SpoolRowWriter) -> Void) throws {
    guard descriptor >= 0 else { throw WriteError.closed(path: label) }
    // The buffer is lent to the writer and taken back: appends to a class property pay an
    // exclusivity check each.
    var bytes: [UInt8] = []
    swap(&bytes, &buffer)
    let outcome = SpoolRowWriter.appendRow(cellCount: cellCount, to: &bytes, body)
    swap(&bytes, &buffer)
    switch outcome {
    case .appended: break
    case .wrongCellCount(let written):
      throw WriteError(
        path: label, operation: .write, errorNumber: nil,
        reason: "row of \(cellCount) cells was given \(written)")
    case .tooLarge:
      throw WriteError(
        path: label, operation: .write, errorNumber: nil, reason: "row of 4 GiB or more")
    }
    rowCount += 1
    if buffer.count >= RowSpool.capacity { try flush() }
  }

  /// Flushes pending rows and returns a reader over every row appended so far, first to last.
  /// Appending may continue; the reader does not see later rows.
  public func makeReader() throws -> Reader {
    try flush()
    return Reader(descriptor: descriptor, end: byteCount, label: label)
  }

  /// Releases the file. Readers must not be used afterwards. `inBackground`: closed on another
  /// thread (`ScratchFile.closeInBackground`), where the system frees the file's pages.
  public func close(inBackground: Bool = false) {
    if inBackground {
      ScratchFile.closeInBackground(descriptor)
    } else if descriptor >= 0 {
      _ = systemClose(descriptor)
    }
    descriptor = -1
    buffer = []
  }

  private func flush() throws {
    guard !buffer.isEmpty else { return }
    guard descriptor >= 0 else { throw WriteError.closed(path: label) }
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return systemWrite(descriptor, base + offset, raw.count - offset)
      }
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        throw WriteError.system(path: label, operation: .write, errorNumber: code)
      }
      offset += written
    }
    byteCount += Int64(buffer.count)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Reads a spool's rows in order with `pread(2)`, independent of other readers.
  public final class Reader {
    private let descriptor: Int32
    private let end: Int64
    private let label: String
    // Unchecked: a reader belongs to one thread, and the rows' loop reaches these several
    // times a row (a runtime exclusivity check each, ~60 instructions).
    @exclusivity(unchecked) private var fileOffset: Int64 = 0
    /// The bytes read and not yet consumed are `buffer[position..<filled]`. Allocated here,
    /// not an array: lending an array's bytes retained and released it twice a row.
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity = RowSpool.capacity
    @exclusivity(unchecked) private var filled = 0
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var rowsRead = 0
    /// Cell positions of the row lent by `next(_:)`, reused from row to row.
    @exclusivity(unchecked) private var cellStarts: [Int] = []

    init(descriptor: Int32, end: Int64, label: String) {
      self.descriptor = descriptor
      self.end = end
      self.label = label
      buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// The next row, or nil after the last one. Throws if the file cannot be read or is damaged.
    public func next() throws -> [Cell]? {
      guard let row = try nextRowBytes() else { return nil }
      guard let cells = RowCodec.decodeRow(row) else {
        throw damaged("row \(rowsRead) does not decode")
      }
      return cells
    }

    /// Lends the next row, in place, to `body`; false after the last row. Costs no allocation
    /// per row: for writers that format cells straight from the bytes. Throws if the file
    /// cannot be read or is damaged.
    public func next(_ body: (SpooledRow) throws -> Void) throws -> Bool {
      guard let row = try nextRowBytes() else { return false }
      try scanned(row, body)
      return true
    }

    /// `next(_:)` for the rows `wanted` gives a number for (such as their table), judged by
    /// their first cell's text alone (`RowCodec.leadingText`; nil when it is not text): the
    /// others are passed over without decoding their cells. `body` gets the number with the
    /// row. Returns false at the end of the spool. (An `Int`, not a generic mark: across the
    /// module boundary a generic one cost a metadata lookup per row.)
    public func next(
      where wanted: (UnsafeBufferPointer<UInt8>?) -> Int?,
      _ body: (Int, SpooledRow) throws -> Void
    ) throws -> Bool {
      while let row = try nextRowBytes() {
        guard let mark = wanted(RowCodec.leadingText(row)) else { continue }
        try scanned(row) { try body(mark, $0) }
        return true
      }
      return false
    }

    /// Lends `row` to `body`, its cells located first; throws for a row that does not decode.
    private func scanned(
      _ row: UnsafeBufferPointer<UInt8>, _ body: (SpooledRow) throws -> Void
    ) throws {
      var starts: [Int] = []
      swap(&starts, &cellStarts)
      defer { swap(&starts, &cellStarts) }
      guard let count = RowCodec.scanRow(row, into: &starts) else {
        throw damaged("row \(rowsRead) does not decode")
      }
      try starts.withUnsafeBufferPointer { starts in
        try body(SpooledRow(bytes: row, starts: UnsafeBufferPointer(rebasing: starts[..<count])))
      }
    }

    /// The next row's cells (the bytes after its length), valid until the next read; nil after
    /// the last row.
    private func nextRowBytes() throws -> UnsafeBufferPointer<UInt8>? {
      guard try ensure(4) else { return nil }
      var length = 0
      for index in 0..<4 { length |= Int(buffer[position + index]) << (8 * index) }
      position += 4
      guard try ensure(length) else { throw damaged("row runs past the end of the file") }
      let row = UnsafeBufferPointer(start: buffer + position, count: length)
      position += length
      rowsRead += 1
      return row
    }

    /// Makes `count` unread bytes available; false only when the file ended before any of them.
    private func ensure(_ count: Int) throws -> Bool {
      if count == 0 { return true }
      let buffered = filled - position
      if buffered >= count { return true }
      let available = Int64(buffered) + (end - fileOffset)
      if available == 0 { return false }
      guard Int64(count) <= available else { throw damaged("row runs past the end of the file") }
      // The unread bytes move to the front; a row longer than the buffer gets a larger one.
      if count > capacity {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        larger.update(from: buffer + position, count: buffered)
        buffer.deallocate()
        buffer = larger
        capacity = count
      } else if position > 0 {
        buffer.update(from: buffer + position, count: buffered)
      }
      position = 0
      filled = buffered
      while filled < count { try refill() }
      return true
    }

    private func damaged(_ reason: String) -> WriteError {
      WriteError(
        path: label, operation: .read, errorNumber: nil, reason: "damaged spool: \(reason)")
    }

    /// Reads the next part of the file into the buffer's free room (at most 64 KiB at a time).
    private func refill() throws {
      guard fileOffset < end else { throw damaged("row runs past the end of the file") }
      let want = Int(min(Int64(min(capacity - filled, RowSpool.capacity)), end - fileOffset))
      var got = 0
      while got < want {
        let read = pread(
          descriptor, buffer + filled + got, want - got, off_t(fileOffset) + off_t(got))
        if read < 0 {
          let code = errno
          if code == EINTR { continue }
          throw WriteError.system(path: label, operation: .read, errorNumber: code)
        }
        if read == 0 { throw damaged("file ended early") }
        got += read
      }
      filled += want
      fileOffset += Int64(want)
    }
  }
}

/// Writes the cells of one `RowSpool.appendRow(cellCount:_:)` row in place.
public struct SpoolRowWriter {
  /// The bytes being written, lent by the caller. Past `used` are zeroed bytes of room, which
  /// the next cells are written into through a pointer (appending each part cost over a
  /// hundred instructions in checks) and which are dropped after the row.
  fileprivate var bytes: [UInt8]
  fileprivate var used = 0
  fileprivate private(set) var cellsWritten = 0

  fileprivate init(bytes: [UInt8]) { self.bytes = bytes }

  enum Outcome: Equatable {
    case appended
    /// Another number of cells than announced: nothing appended.
    case wrongCellCount(written: Int)
    /// A row of 4 GiB or more: nothing appended.
    case tooLarge
  }

  /// Appends one row in the spool's layout (`RowCodec`: its byte length, its cell count, then
  /// the `cellCount` cells `body` writes) to `bytes`. The one place rows are framed: the spool
  /// appends through it, and tests encode rows with it.
  static func appendRow(
    cellCount: Int, to bytes: inout [UInt8], _ body: (inout SpoolRowWriter) -> Void
  ) -> Outcome {
    var writer = SpoolRowWriter(bytes: [])
    swap(&writer.bytes, &bytes)
    let start = writer.bytes.count
    writer.used = start + 4
    writer.write(maximumSize: RowCodec.maximumVarintSize) {
      RowCodec.write(varint: UInt64(cellCount), at: $0)
    }
    body(&writer)
    writer.bytes.removeLast(writer.bytes.count - writer.used)
    let outcome: Outcome
    if writer.cellsWritten != cellCount {
      writer.bytes.removeSubrange(start...)
      outcome = .wrongCellCount(written: writer.cellsWritten)
    } else {
      outcome = RowCodec.endRow(startingAt: start, in: &writer.bytes) ? .appended : .tooLarge
    }
    swap(&writer.bytes, &bytes)
    return outcome
  }

  // Always inlined: left to the optimizer, the cell's encoding was called apart from here as a
  // closure after the second framing went (c00110a), +1.2 M instructions on the bench slice.
  @inline(__always)
  public mutating func append(_ cell: Cell) {
    write(maximumSize: RowCodec.maximumSize(of: cell)) { RowCodec.write(cell, at: $0) }
    cellsWritten += 1
  }

  /// Appends the fields `columns` (ascending, counted from 0) of `row`, a row in CSV form as
  /// `CSVRowBuilder` renders it, as cells the CSV writer copies (`RowCodec.Tag.csvField`): the
  /// fields need not be formatted again, for a table of the same zone and `excelSafe`. A column
  /// the row does not have gives an empty field. Rows made so do not decode into `Cell`s.
  public mutating func appendCSVFields(of row: UnsafeBufferPointer<UInt8>, columns: [Int]) {
    withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: columns.count) { fields in
      // Each field's end is found once: `end` is the current field's, `column` its number.
      var column = 0
      var start = 0
      var end = CSVFieldScanner.end(ofFieldAt: 0, in: row)
      var length = 0
      for (index, wanted) in columns.enumerated() {
        while column < wanted && end < row.count {
          start = end + 1
          column += 1
          end = CSVFieldScanner.end(ofFieldAt: start, in: row)
        }
        let field = column == wanted ? start..<end : 0..<0
        fields.initializeElement(at: index, to: field)
        length += field.count
      }
      write(maximumSize: columns.count * (1 + RowCodec.maximumVarintSize) + length) { target in
        var written = 0
        for field in fields {
          target[written] = RowCodec.Tag.csvField.rawValue
          written += 1
          written += RowCodec.write(
            utf8: UnsafeBufferPointer(rebasing: row[field]), at: target + written)
        }
        return written
      }
      fields.deinitialize()
    }
    cellsWritten += columns.count
  }

  /// Runs `body` at the first unwritten byte, with `maximumSize` zeroed bytes of room made
  /// first; `body` returns how many it wrote.
  @inline(__always)
  fileprivate mutating func write(
    maximumSize: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int
  ) {
    if bytes.count - used < maximumSize {
      // Room for this cell and typical cells after it, so a row grows the buffer about once.
      bytes.append(contentsOf: repeatElement(0, count: maximumSize + 256))
    }
    let start = used
    used += bytes.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
  }
}
