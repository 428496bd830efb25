// Rows formatted field by field: quoting decided eight bytes at a time, instants from a day cache.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class CSVRowBuilderTests: XCTestCase {
  private func line(_ cells: [Cell], zone: TimeZoneRule = .utc, excelSafe: Bool = false)
    -> String
  {
    var builder = CSVRowBuilder(timeZone: zone, excelSafe: excelSafe)
    for cell in cells { builder.append(cell) }
    builder.endRow()
    return String(decoding: builder.bytes, as: UTF8.self)
  }

  func testBuilder_SpecialByteAtEveryPosition_QuotedElsePlain() {
    for length in 0...20 {
      let plain =
        String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
      XCTAssertEqual(line([.text(plain)]), plain + "\n", "length \(length)")
      for position in 0..<length {
        for special in [",", "\"", "\n", "\r"] {
          var characters = Array(String(repeating: "a", count: length))
          characters[position] = Character(special)
          let text = String(characters)
          let escaped = text.replacingOccurrences(of: "\"", with: "\"\"")
          XCTAssertEqual(line([.text(text)]), "\"\(escaped)\"\n", "\(special) at \(position)")
        }
      }
    }
  }

  func testBuilder_AllCellKinds_SameTextAsContract() {
    XCTAssertEqual(
      line([
        .empty, .text("a,b"), .number(text: "72.5", value: 72.5), .integer(-12), .bool(true),
        .instant(millisecondsSince1970: t0ms), .seconds(19.846), .text("=1+1"),
      ]),
      ",\"a,b\",72.5,-12,true,2016-05-16T19:34:25.846Z,19.846,=1+1\n")
    XCTAssertEqual(line([.text("=1+1"), .text("-5")], excelSafe: true), "'=1+1,-5\n")
  }

  func testISO8601Writer_ManyInstantsAndOffsets_SameAsISO8601Append() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var instants: [Int64] = [
      0, -1, 86_399_999, 86_400_000, -86_400_001, t0ms, 253_402_300_799_999, 253_402_300_800_000,
      -62_135_596_800_001, 8_999_999_999_999_999, -8_999_999_999_999_999, .min, .max,
    ]
    for _ in 0..<2000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      // Mostly close together (the cache's case), sometimes anywhere.
      let step = Int64(bitPattern: state >> 1) % (state & 7 == 0 ? 400_000_000_000_000 : 90_000_000)
      instants.append((instants.last ?? 0) &+ step)
    }
    for offset in [0, 3600, -16_200, 50_400, 999_999, -999_999, 1_000_000] {
      var writer = ISO8601Writer()
      for ms in instants {
        var expected: [UInt8] = []
        ISO8601.append(millisecondsSince1970: ms, offsetSeconds: offset, to: &expected)
        var bytes = ByteWriter(capacity: 4)
        writer.append(millisecondsSince1970: ms, offsetSeconds: offset, to: &bytes)
        XCTAssertEqual(bytes.bytes, expected, "\(ms) at \(offset)")
      }
    }
  }

  func testLocalDate_IsTheDatePartOfISO8601Append() {
    // The ten-byte path (years 0...9999) and the general one (before year 0, after 9999), at
    // day boundaries, a leap day, and offsets that move the date either way.
    let leapDay: Int64 = 951_782_400_000  // 2000-02-29T00:00:00Z
    let instants: [Int64] = [
      0, -1, 86_399_999, t0ms, leapDay, leapDay - 1, leapDay + 86_399_999, 253_402_300_799_999,
      253_402_300_800_000, -62_167_219_200_000, -62_167_219_200_001, -8_999_999_999_999_999,
    ]
    for offset in [0, 3600, -3600, 50_400, -43_200, 999_999, 1_000_000] {
      for ms in instants {
        var full: [UInt8] = []
        ISO8601.append(millisecondsSince1970: ms, offsetSeconds: offset, to: &full)
        let expected = String(decoding: full.prefix { $0 != UInt8(ascii: "T") }, as: UTF8.self)
        XCTAssertEqual(
          ISO8601.localDate(millisecondsSince1970: ms, offsetSeconds: offset), expected,
          "\(ms) at \(offset)")
      }
    }
    XCTAssertEqual(
      ISO8601.localDate(millisecondsSince1970: leapDay, offsetSeconds: 0), "2000-02-29")
    XCTAssertEqual(
      ISO8601.localDate(millisecondsSince1970: leapDay, offsetSeconds: -1), "2000-02-28")
  }

  func testISO8601Writer_EveryMinuteSecondAndMillisecondOfADay_SameAsISO8601Append() {
    // Every hour, minute and second once, every millisecond value once, on one cached day.
    var instants: [Int64] = []
    for second in 0..<86_400 {
      instants.append(t0ms / 86_400_000 * 86_400_000 + Int64(second) * 1000)
    }
    for millisecond in 0..<1000 { instants.append(t0ms / 1000 * 1000 + Int64(millisecond)) }
    var writer = ISO8601Writer()
    for ms in instants {
      var expected: [UInt8] = []
      ISO8601.append(millisecondsSince1970: ms, offsetSeconds: 0, to: &expected)
      var bytes = ByteWriter(capacity: 4)
      writer.append(millisecondsSince1970: ms, offsetSeconds: 0, to: &bytes)
      if bytes.bytes != expected { return XCTFail("\(ms)") }
    }
  }

  func testNeedsQuotes_EveryByteAtEveryPlace_SameAsByteByByte() {
    // Background bytes on both sides of the `-` threshold, then each byte value in each place.
    for background in [UInt8(ascii: "a"), UInt8(ascii: " "), UInt8(ascii: "-"), 0xC3] {
      for length in 1...19 {
        for place in 0..<length {
          for value in UInt8.min...UInt8.max {
            var field = [UInt8](repeating: background, count: length)
            field[place] = value
            let expected = field.contains { [0x2C, 0x22, 0x0A, 0x0D].contains($0) }
            let actual = field.withUnsafeBufferPointer { CSVFieldEncoder.needsQuotes($0) }
            if actual != expected { return XCTFail("\(field)") }
          }
        }
      }
    }
  }

  func testByteWriter_GrowsKeepingEveryByte() {
    var writer = ByteWriter(capacity: 1)
    var expected: [UInt8] = []
    for length in 0..<300 {
      let chunk = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) }
      chunk.withUnsafeBufferPointer { writer.append($0) }
      writer.append(UInt8(length % 256))
      expected += chunk + [UInt8(length % 256)]
    }
    XCTAssertEqual(writer.count, expected.count)
    XCTAssertEqual(writer.bytes, expected)
  }

  // MARK: - Rows from spooled cells

  func testBuilder_SpooledCells_SameFieldsAsDecodedCells() throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let spool = try RowSpool(directory: folder.path)
    let cells: [Cell] = [
      .empty, .text("a,b"), .text("=1+1"), .text("-5"), .text("-x\"y"), .text("@"), .text(""),
      .text("ünï"), .number(text: "-72.5", value: -72.5), .integer(-12), .integer(0), .bool(true),
      .bool(false), .instant(millisecondsSince1970: t0ms), .seconds(19.846), .seconds(.nan),
    ]
    try spool.append(cells)
    // Every cell once, a blank, a zero and a source past the row's end.
    let sources = cells.indices.map { CellSource.cell($0) } + [.empty, .zero, .cell(99)]
    let expectedCells = cells + [.empty, .integer(0), .empty]
    for excelSafe in [false, true] {
      let reader = try spool.makeReader()
      var builder = CSVRowBuilder(excelSafe: excelSafe)
      XCTAssertTrue(
        try reader.next { row in
          builder.appendRow(sources, from: row, firstCell: 0)
          builder.appendRow([.cell(0), .cell(1)], from: row, firstCell: 1)
        })
      XCTAssertEqual(
        String(decoding: builder.bytes, as: UTF8.self),
        line(expectedCells, excelSafe: excelSafe) + line(Array(cells[1...2]), excelSafe: excelSafe),
        "excelSafe \(excelSafe)")
      XCTAssertEqual(builder.rowCount, 2)
    }
  }

  func testBuilder_FlushIntoWriters_RowsFollowAndBufferEmpties() throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let schema = TableSchema(name: "t", columns: [Column("a", .string, "")])
    let first = try CSVWriter(path: folder.path + "/first.csv", schema: schema)
    let second = try CSVWriter(path: folder.path + "/second.csv", schema: schema)
    var builder = CSVRowBuilder()
    builder.appendText("1")
    builder.endRow()
    try builder.flush(into: first)
    builder.appendText("2")
    builder.endRow()
    builder.appendText("3")
    builder.endRow()
    try builder.flush(into: second)
    XCTAssertEqual(builder.rowCount, 0)
    XCTAssertEqual(builder.bytes, [])
    try first.finish()
    try second.finish()
    XCTAssertEqual([first.rowCount, second.rowCount], [1, 2])
    XCTAssertEqual(
      try String(contentsOfFile: folder.path + "/first.csv", encoding: .utf8), "a\n1\n")
    XCTAssertEqual(
      try String(contentsOfFile: folder.path + "/second.csv", encoding: .utf8), "a\n2\n3\n")
  }

  /// Builds `count` rows twice, with and without excelSafe: each row's fields by `fields` in
  /// one builder and by `asText` in another, odd rows after a leading number (so the fields
  /// come first in a row and after another field); asserts that both give the same bytes.
  private func assertSameRows(
    count: Int, file: StaticString = #filePath, line: UInt = #line,
    _ fields: (inout CSVRowBuilder, Int) -> Void,
    asText: (inout CSVRowBuilder, Int) -> Void
  ) {
    for excelSafe in [false, true] {
      var viaFields = CSVRowBuilder(excelSafe: excelSafe, capacity: 0)
      var viaText = CSVRowBuilder(excelSafe: excelSafe, capacity: 0)
      for number in 0..<count {
        if number % 2 == 1 {
          viaFields.appendInteger(Int64(number))
          viaText.appendInteger(Int64(number))
        }
        fields(&viaFields, number)
        asText(&viaText, number)
        viaFields.endRow()
        viaText.endRow()
      }
      XCTAssertEqual(
        String(decoding: viaFields.bytes, as: UTF8.self),
        String(decoding: viaText.bytes, as: UTF8.self), "excelSafe \(excelSafe)", file: file,
        line: line)
    }
  }

  func testBuilder_RunKeyRenderedOnce_SameBytesAsThreeTextFields() {
    // Keys that need quotes, a formula guard, a missing run UUID; rendered and repeated at a
    // row's start and after another field (odd rows start with a number), changed, repeated.
    let keys: [(String, String, String?)] = [
      ("P1", "survey", "A-1"), ("P1", "survey", "A-1"), ("=P2", "a,b", nil), ("=P2", "a,b", nil),
      ("P1", "survey", "A-1"), ("P1", "survey", "A-2"), ("P1", "survey", "A-2"),
      ("P1", "survey", "A-2"), ("P1", "survey \"q\"", "A-2"),
    ]
    assertSameRows(count: keys.count) { builder, number in
      let key = keys[number]
      builder.appendRunKey(participantID: key.0, taskIdentifier: key.1, runUUID: key.2)
      builder.appendText("tail")
    } asText: { builder, number in
      let key = keys[number]
      builder.appendText(key.0)
      builder.appendText(key.1)
      builder.appendText(key.2)
      builder.appendText("tail")
    }
    // Checked by hand once: quoting, guard and the empty UUID field.
    var builder = CSVRowBuilder(excelSafe: true)
    for _ in 0..<2 {
      builder.appendRunKey(participantID: "=P2", taskIdentifier: "a,b", runUUID: nil)
      builder.endRow()
    }
    XCTAssertEqual(String(decoding: builder.bytes, as: UTF8.self), "'=P2,\"a,b\",\n'=P2,\"a,b\",\n")
  }

  func testBuilder_RunSourceRenderedOnce_SameBytesAsATextField() {
    // Sources that need quotes or a formula guard, repeated, changed, first in a row and after
    // another field, and again after a flush-free change back.
    let sources = [
      "P1/a.archive#1", "P1/a.archive#1", "-x,y.archive", "-x,y.archive", "P1/a.archive#1",
      "P1/\"q\".archive", "P1/\"q\".archive", "",
    ]
    assertSameRows(count: sources.count) { builder, number in
      builder.appendRunSource(sources[number])
      builder.appendPlainText("dont_know")
    } asText: { builder, number in
      builder.appendText(sources[number])
      builder.appendText("dont_know")
    }
    // Checked by hand once: the guard, the quotes, and the copies.
    var builder = CSVRowBuilder(excelSafe: true)
    for _ in 0..<2 {
      builder.appendPlainText("numeric")
      builder.appendRunSource("-x,y.archive")
      builder.endRow()
    }
    XCTAssertEqual(
      String(decoding: builder.bytes, as: UTF8.self),
      "numeric,\"'-x,y.archive\"\nnumeric,\"'-x,y.archive\"\n")
  }

  func testBuilder_RunKeyAfterFlush_RenderedAgain() throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let schema = TableSchema(
      name: "t",
      columns: [Column("p", .string, ""), Column("t", .string, ""), Column("r", .string, "")])
    let writer = try CSVWriter(path: folder.path + "/t.csv", schema: schema)
    var builder = CSVRowBuilder()
    builder.appendRunKey(participantID: "P1", taskIdentifier: "t", runUUID: "U")
    builder.endRow()
    try builder.flush(into: writer)
    // The key's bytes went with the flushed buffer: the same key is rendered in full again.
    builder.appendRunKey(participantID: "P1", taskIdentifier: "t", runUUID: "U")
    builder.endRow()
    try builder.flush(into: writer)
    try writer.finish()
    XCTAssertEqual(
      try String(contentsOfFile: folder.path + "/t.csv", encoding: .utf8), "p,t,r\nP1,t,U\nP1,t,U\n"
    )
  }
}

private let t0ms: Int64 = 1_463_427_265_846
