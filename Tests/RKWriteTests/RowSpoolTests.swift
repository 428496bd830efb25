// The row spool gives back exactly the rows it was given, in order, for every cell kind.
import Foundation
import RKTable
import RKTestSupport
import XCTest

@testable import RKWrite

final class RowSpoolTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")

  override func setUpWithError() throws { folder = try makeScratchFolder() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  private func readAll(_ spool: RowSpool) throws -> [[Cell]] {
    let reader = try spool.makeReader()
    var rows: [[Cell]] = []
    while let row = try reader.next() { rows.append(row) }
    return rows
  }

  func testRowSpool_EveryCellKind_RoundTrips() throws {
    let spool = try RowSpool(directory: folder.path)
    let rows: [[Cell]] = [
      [
        .empty, .text(""), .text("ünï\n,\"😀"), .number(text: "1e-07", value: 1e-7),
        .number(text: "-0", value: -0.0), .integer(0), .integer(Int64.min), .integer(Int64.max),
        .integer(-1), .bool(true), .bool(false),
        .instant(millisecondsSince1970: -62_135_596_800_000),
        .instant(millisecondsSince1970: 1_463_427_265_846), .seconds(2.5), .seconds(-1e300),
        .seconds(.infinity),
      ],
      [],
      [.text(String(repeating: "x", count: 200_000))],
    ]
    for row in rows { try spool.append(row) }
    XCTAssertEqual(spool.rowCount, 3)
    XCTAssertEqual(try readAll(spool), rows)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder.path), [],
      "the spool file is unlinked at once")
  }

  func testRowSpool_NaNSeconds_BitPatternKept() throws {
    let spool = try RowSpool(directory: folder.path)
    try spool.append([.seconds(.nan)])
    guard case .seconds(let value)? = try readAll(spool).first?.first else {
      return XCTFail("expected a seconds cell")
    }
    XCTAssertEqual(value.bitPattern, Double.nan.bitPattern)
  }

  func testRowSpool_ManyRowsAcrossBuffers_SameOrder() throws {
    let spool = try RowSpool(directory: folder.path)
    for index in 0..<50_000 {
      try spool.append([.integer(Int64(index)), .text("row \(index)"), .seconds(Double(index) / 8)])
    }
    XCTAssertGreaterThan(spool.byteCount, 64 * 1024)
    var expected = 0
    let reader = try spool.makeReader()
    while let row = try reader.next() {
      XCTAssertEqual(
        row, [.integer(Int64(expected)), .text("row \(expected)"), .seconds(Double(expected) / 8)])
      expected += 1
    }
    XCTAssertEqual(expected, 50_000)
  }

  /// Rows longer than the reader's 64 KiB buffer (a wide table of thousands of columns, or
  /// long free text) between short ones: each read whole, by both ways of reading.
  func testRowSpool_RowsLongerThanTheReadBuffer_ReadWhole() throws {
    let spool = try RowSpool(directory: folder.path)
    var rows: [[Cell]] = []
    for index in 0..<40 {
      let width = index % 5 == 0 ? 9_000 + index * 700 : 3
      let row: [Cell] =
        [.text("t\(index)")] + (0..<width).map { .text(String(repeating: "x", count: 1 + $0 % 13)) }
      rows.append(row)
      try spool.append(row)
    }
    XCTAssertGreaterThan(spool.byteCount, 8 * Int64(RowSpool.capacity))
    let reader = try spool.makeReader()
    var decoded: [[Cell]] = []
    while let row = try reader.next() { decoded.append(row) }
    XCTAssertEqual(decoded, rows)
    let inPlace = try spool.makeReader()
    var lent: [[Cell]] = []
    while try inPlace.next({ row in lent.append((0..<row.count).compactMap { row.cell(at: $0) }) })
    {}
    XCTAssertEqual(lent, rows)
  }

  /// `next(where:)` hands over the rows whose first text it marks, in order, with the mark, and
  /// passes over the others (also rows whose first cell is not text, judged with nil) undecoded.
  func testRowSpool_ReaderWhere_OnlyAcceptedRowsInOrder() throws {
    let spool = try RowSpool(directory: folder.path)
    for index in 0..<30_000 {
      try spool.append([.text(index % 3 == 0 ? "keep" : "skip"), .integer(Int64(index))])
    }
    try spool.append([.integer(7), .text("keep")])
    try spool.append([])
    let reader = try spool.makeReader()
    var judged: [String?] = []
    var kept: [Int64] = []
    while try reader.next(
      where: { text -> Int? in
        let name = text.map { String(decoding: $0, as: UTF8.self) }
        if judged.count < 3 || name == nil { judged.append(name) }
        return name == "keep" ? name?.count : nil
      },
      { mark, row in
        XCTAssertEqual(mark, 4)
        kept.append(row.integer(at: 1) ?? -1)
      })
    {}
    XCTAssertEqual(kept, (0..<30_000).filter { $0 % 3 == 0 }.map(Int64.init))
    XCTAssertEqual(judged, ["keep", "skip", "skip", nil, nil], "the first three, the textless")
  }

  func testRowSpool_ReaderThenMoreAppends_ReaderSeesSnapshot() throws {
    let spool = try RowSpool(directory: folder.path)
    try spool.append([.integer(1)])
    let early = try spool.makeReader()
    try spool.append([.integer(2)])
    XCTAssertEqual(try early.next(), [.integer(1)])
    XCTAssertNil(try early.next())
    XCTAssertEqual(try readAll(spool), [[.integer(1)], [.integer(2)]])
  }

  func testRowSpool_Empty_ReaderEndsAtOnce() throws {
    let spool = try RowSpool(directory: folder.path)
    XCTAssertNil(try spool.makeReader().next())
  }

  func testRowSpool_ClosedSpool_AppendThrows() throws {
    let spool = try RowSpool(directory: folder.path)
    spool.close()
    XCTAssertThrowsError(try spool.append([.empty]))
  }

  /// Closed in the background, the spool's file is closed soon after (its pages are freed on
  /// that thread), and the spool refuses rows as when closed at once.
  func testRowSpool_ClosedInBackground_FileClosedAndAppendsThrow() throws {
    func openSpoolFiles() -> Int {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return entries.filter { entry in
        let target = try? FileManager.default.destinationOfSymbolicLink(
          atPath: "/proc/self/fd/" + entry)
        return target?.hasPrefix(folder.path) == true
      }.count
    }
    let spool = try RowSpool(directory: folder.path)
    try spool.append([.text("a")])
    XCTAssertEqual(openSpoolFiles(), 1)
    spool.close(inBackground: true)
    var waited = 0
    while openSpoolFiles() > 0 && waited < 500 {
      usleep(10_000)
      waited += 1
    }
    XCTAssertEqual(openSpoolFiles(), 0, "closed on the background thread")
    XCTAssertThrowsError(try spool.append([.text("b")]))
  }

  func testRowSpool_MissingDirectory_WriteError() {
    XCTAssertThrowsError(try RowSpool(directory: folder.appendingPathComponent("none").path)) {
      XCTAssertEqual(($0 as? WriteError)?.operation, .create)
    }
  }

  func testRowSpool_RowWrittenInPlace_ReadsBackBetweenArrayRows() throws {
    let spool = try RowSpool(directory: folder.path)
    try spool.append([.integer(7)])
    try spool.appendRow(cellCount: 4) { row in
      row.append(.text("survey"))
      row.append(.integer(42))
      row.append(.bool(true))
      row.append(.integer(Int64.min))
    }
    try spool.append([.empty])
    XCTAssertEqual(spool.rowCount, 3)
    XCTAssertEqual(
      try readAll(spool),
      [[.integer(7)], [.text("survey"), .integer(42), .bool(true), .integer(Int64.min)], [.empty]])
  }

  func testRowSpool_RowWrittenInPlaceEveryCellKindPastItsRoom_ReadsBackTheSameCells() throws {
    // A row starts with 266 bytes of room: the long text (over 1,000 bytes) makes it grow, and
    // the cells after it are written past the first room.
    let longText = String(repeating: "ünï,\"😀", count: 100)
    let cells: [Cell] = [
      .text(longText), .empty, .text(""), .text("short"), .number(text: "1e-07", value: 1e-7),
      .integer(Int64.min), .integer(Int64.max), .integer(0), .bool(true), .bool(false),
      .instant(millisecondsSince1970: -1_463_427_265_846), .seconds(-2.5),
    ]
    let spool = try RowSpool(directory: folder.path)
    try spool.appendRow(cellCount: cells.count) { row in
      for cell in cells { row.append(cell) }
    }
    // The same cells through the array convenience (`RowSpool.append(_:)`).
    try spool.append(cells)
    // Enough rows to pass the 64 KiB buffer and be flushed between rows.
    for index in 0..<100 {
      try spool.appendRow(cellCount: 2) { row in
        row.append(.text(longText))
        row.append(.integer(Int64(index)))
      }
    }
    let rows = try readAll(spool)
    XCTAssertEqual(rows.count, 102)
    XCTAssertEqual(Array(rows.prefix(2)), [cells, cells])
    XCTAssertEqual(rows.last, [.text(longText), .integer(99)])
  }

  func testRowSpool_RowWrittenInPlaceWrongCellCount_ThrowsAndWritesNothing() throws {
    let spool = try RowSpool(directory: folder.path)
    try spool.append([.text("before")])
    XCTAssertThrowsError(try spool.appendRow(cellCount: 2) { $0.append(.integer(1)) })
    XCTAssertThrowsError(
      try spool.appendRow(cellCount: 1) { row in
        row.append(.integer(1))
        row.append(.integer(2))
      })
    try spool.append([.text("after")])
    XCTAssertEqual(spool.rowCount, 2)
    XCTAssertEqual(try readAll(spool), [[.text("before")], [.text("after")]])
  }

  func testRowSpool_ClosedSpool_RowWrittenInPlaceThrows() throws {
    let spool = try RowSpool(directory: folder.path)
    spool.close()
    XCTAssertThrowsError(try spool.appendRow(cellCount: 1) { $0.append(.empty) })
  }

  // MARK: - Rows read in place

  func testSpooledRow_EveryCellKind_SameCellsAsDecodedRow() throws {
    let spool = try RowSpool(directory: folder.path)
    let row: [Cell] = [
      .empty, .text("ünï\n,\"😀"), .number(text: "1e-07", value: 1e-7), .integer(Int64.min),
      .bool(true), .bool(false), .instant(millisecondsSince1970: 1_463_427_265_846),
      .seconds(2.5),
    ]
    try spool.append(row)
    try spool.appendRow(cellCount: 2) { row in
      row.append(.text("task"))
      row.append(.integer(42))
    }
    let reader = try spool.makeReader()
    var seen: [[Cell]] = []
    while try reader.next({ spooled in
      seen.append((0..<spooled.count).compactMap { spooled.cell(at: $0) })
      XCTAssertNil(spooled.cell(at: spooled.count))
    }) {}
    XCTAssertEqual(seen, [row, [.text("task"), .integer(42)]])
    XCTAssertFalse(try reader.next { _ in XCTFail("no row after the last") })
  }

  /// Fields copied from a rendered row come out as the builder wrote them: quoted ones whole
  /// (commas, doubled quotes, a line break inside), empty ones empty, a column past the row's
  /// end empty. Such a row is for the CSV writer only: it does not decode into cells.
  func testSpooledRow_CSVFieldsCopiedFromARenderedRow_WrittenAsRendered() throws {
    var rendered = CSVRowBuilder(excelSafe: true)
    let texts = ["=a,\"b\"", "", "plain", "x\ny", "\"", "last,"]
    for text in texts { rendered.appendText(text) }
    rendered.endRow()
    var expected = CSVRowBuilder(excelSafe: true)
    expected.appendText("tail")
    for column in [0, 1, 3, 4, 5] { expected.appendText(texts[column]) }
    expected.appendEmpty()
    expected.endRow()

    let spool = try RowSpool(directory: folder.path)
    let bytes = rendered.bytes
    try spool.appendRow(cellCount: 7) { row in
      row.append(.text("tail"))
      bytes.withUnsafeBufferPointer { row.appendCSVFields(of: $0, columns: [0, 1, 3, 4, 5, 9]) }
    }
    let reader = try spool.makeReader()
    var written = CSVRowBuilder(excelSafe: true)
    XCTAssertTrue(
      try reader.next { row in
        XCTAssertNil(row.cell(at: 1), "a copied field is no cell")
        written.appendRow((0..<7).map(CellSource.cell), from: row, firstCell: 0)
      })
    XCTAssertEqual(
      String(decoding: written.bytes, as: UTF8.self),
      String(decoding: expected.bytes, as: UTF8.self))
    let again = try spool.makeReader()
    XCTAssertThrowsError(try again.next(), "rows of copied fields do not decode into cells")
  }

  /// The field ends the scanner finds in rows the encoder wrote, however the fields were quoted.
  func testCSVFieldScanner_RowsTheEncoderWrote_FieldsFoundWhole() {
    var random = SystemRandomNumberGenerator()
    let pieces = ["a", ",", "\"", "\n", "\r", "é", "=", " ", "\"\"", ""]
    for _ in 0..<500 {
      let texts = (0..<Int.random(in: 1...6, using: &random)).map { _ in
        (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)!
        }
        .joined()
      }
      var row = CSVRowBuilder()
      var single: [[UInt8]] = []
      for text in texts {
        row.appendText(text)
        var one = CSVRowBuilder()
        one.appendText(text)
        single.append(one.bytes)
      }
      row.endRow()
      row.bytes.withUnsafeBufferPointer { bytes in
        var start = 0
        for field in single {
          let end = CSVFieldScanner.end(ofFieldAt: start, in: bytes)
          XCTAssertEqual(Array(bytes[start..<end]), field, "\(texts)")
          start = end + 1
        }
        XCTAssertEqual(start, bytes.count, "the row's end after the last field")
      }
    }
  }

  func testSpooledRow_TypedReads_NilForOtherKinds() throws {
    let spool = try RowSpool(directory: folder.path)
    try spool.append([.text("a"), .integer(-7), .empty])
    let reader = try spool.makeReader()
    XCTAssertTrue(
      try reader.next { row in
        XCTAssertEqual(row.text(at: 0), "a")
        XCTAssertNil(row.text(at: 1))
        XCTAssertEqual(row.integer(at: 1), -7)
        XCTAssertNil(row.integer(at: 0))
        XCTAssertNil(row.integer(at: 2))
        XCTAssertNil(row.integer(at: -1))
        XCTAssertNil(row.text(at: 3))
      })
  }
}

final class RowCodecTests: XCTestCase {
  /// `row` framed as the spool writes it; false when the writer refused it.
  private func encode(_ row: [Cell], to encoded: inout [UInt8]) -> Bool {
    let outcome = SpoolRowWriter.appendRow(cellCount: row.count, to: &encoded) { writer in
      for cell in row { writer.append(cell) }
    }
    return outcome == .appended
  }

  func testRowCodec_TruncatedOrGarbageBytes_NilNeverTrap() {
    var encoded: [UInt8] = []
    let row: [Cell] = [
      .text("abc"), .number(text: "1.5", value: 1.5), .integer(-3), .seconds(1), .bool(true),
    ]
    XCTAssertTrue(encode(row, to: &encoded))
    let body = Array(encoded.dropFirst(4))
    XCTAssertEqual(body.withUnsafeBufferPointer(RowCodec.decodeRow), row)
    for length in 0..<body.count {
      let prefix = Array(body.prefix(length))
      XCTAssertNil(prefix.withUnsafeBufferPointer(RowCodec.decodeRow), "prefix \(length)")
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let garbage = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      _ = garbage.withUnsafeBufferPointer(RowCodec.decodeRow)
    }
  }

  func testRowCodec_LeadingText_FirstTextCellOrNilNeverTrap() {
    func leading(_ row: [Cell]) -> String? {
      var encoded: [UInt8] = []
      XCTAssertTrue(encode(row, to: &encoded))
      let body = Array(encoded.dropFirst(4))
      return body.withUnsafeBufferPointer { bytes in
        RowCodec.leadingText(bytes).map { String(decoding: $0, as: UTF8.self) }
      }
    }
    XCTAssertEqual(leading([.text("fever"), .integer(3)]), "fever")
    XCTAssertEqual(leading([.text("")]), "")
    XCTAssertNil(leading([.integer(3), .text("fever")]))
    XCTAssertNil(leading([]))
    var encoded: [UInt8] = []
    _ = encode([.text("symptom"), .integer(1)], to: &encoded)
    let body = Array(encoded.dropFirst(4))
    // Cut inside the text: nil; cut after it: the text, the rest unread.
    for cut in 0..<body.count {
      let prefix = Array(body.prefix(cut))
      let text = prefix.withUnsafeBufferPointer { RowCodec.leadingText($0) }
      XCTAssertEqual(text == nil, cut < 10, "cut at \(cut)")
    }
  }

  func testRowCodec_ScanRow_RejectsWhatDecodeRowRejects() {
    var encoded: [UInt8] = []
    _ = encode([.text("abc"), .number(text: "1", value: 1), .seconds(1)], to: &encoded)
    let body = Array(encoded.dropFirst(4))
    var starts: [Int] = []
    for cut in 0..<body.count {
      let prefix = Array(body.prefix(cut))
      let scanned = prefix.withUnsafeBufferPointer { RowCodec.scanRow($0, into: &starts) }
      let decoded = prefix.withUnsafeBufferPointer { RowCodec.decodeRow($0) }
      XCTAssertEqual(scanned, decoded?.count, "cut at \(cut)")
    }
    XCTAssertEqual(body.withUnsafeBufferPointer { RowCodec.scanRow($0, into: &starts) }, 3)
    XCTAssertEqual(starts.prefix(3), [1, 6, 17])
    let badTag = [1, 99] as [UInt8]
    XCTAssertNil(badTag.withUnsafeBufferPointer { RowCodec.scanRow($0, into: &starts) })
  }

  /// Rows of random cells of every kind (texts longer than a one-byte length, integers of
  /// every varint length), as written or with one byte changed, cut short or one byte longer:
  /// the scan accepts exactly the rows that decode, with as many cells, and the starts it gives
  /// are where the decoded cells begin.
  func testRowCodec_ScanRowOnRandomRows_AgreesWithDecodeRow() {
    var random = SplitMix(seed: 29)
    var starts: [Int] = []
    var accepted = 0
    for round in 0..<6_000 {
      let cells = (0..<Int.random(in: 0...12, using: &random)).map { _ -> Cell in
        switch Int.random(in: 0..<8, using: &random) {
        case 0: .empty
        case 1: .text(String(repeating: "é", count: Int.random(in: 0...90, using: &random)))
        case 2: .number(text: "1.5", value: 1.5)
        case 3:
          .integer(
            Int64.random(in: Int64.min...Int64.max, using: &random)
              >> Int64.random(in: 0...63, using: &random))
        case 4: .bool(Bool.random(using: &random))
        case 5:
          .instant(millisecondsSince1970: Int64.random(in: -1 << 45...1 << 45, using: &random))
        default: .seconds(Double.random(in: -1e6...1e6, using: &random))
        }
      }
      var encoded: [UInt8] = []
      XCTAssertTrue(encode(cells, to: &encoded))
      var bytes = Array(encoded.dropFirst(4))
      switch round % 4 {
      case 1 where !bytes.isEmpty:
        bytes[Int.random(in: bytes.indices, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      case 2 where !bytes.isEmpty: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
      case 3: bytes.append(UInt8.random(in: 0...255, using: &random))
      default: break
      }
      let scanned = bytes.withUnsafeBufferPointer { RowCodec.scanRow($0, into: &starts) }
      let decoded = bytes.withUnsafeBufferPointer { RowCodec.decodeRow($0) }
      XCTAssertEqual(scanned, decoded?.count, "\(bytes)")
      if round % 4 == 0 { XCTAssertEqual(decoded, cells, "as written") }
      guard let scanned, let decoded else { continue }
      accepted += 1
      for (index, cell) in decoded.enumerated() {
        let fromStart = bytes.withUnsafeBufferPointer { all -> Cell? in
          var cursor = RowCodec.Cursor(bytes: all, position: starts[index])
          guard let tag = cursor.byte().flatMap(RowCodec.Tag.init(rawValue:)) else { return nil }
          return RowCodec.decodeCell(tag, &cursor)
        }
        XCTAssertEqual(fromStart, cell, "cell \(index) of \(scanned) in \(bytes)")
      }
    }
    XCTAssertGreaterThan(accepted, 1_500, "enough rows decode to compare the starts")
  }
}
