// CSV bytes: header, RFC 4180 quoting, cell formatting, errors, atomic finish.
import Foundation
import RKTable
import RKTestSupport
import XCTest

@testable import RKWrite

/// A fresh folder under the system temporary directory, removed by `tearDown`.
func makeScratchFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("rkwrite-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

final class CSVWriterTests: XCTestCase {
  private var folder = URL(fileURLWithPath: "/nonexistent")

  override func setUpWithError() throws { folder = try makeScratchFolder() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  private func schema(_ names: [String]) -> TableSchema {
    TableSchema(name: "t", columns: names.map { Column($0, .string, "test column") })
  }

  private func written(
    _ names: [String], _ rows: [[Cell]], zone: TimeZoneRule = .utc, bom: Bool = false
  ) throws -> String {
    let path = folder.appendingPathComponent("t.csv").path
    let writer = try CSVWriter(
      path: path, schema: schema(names), timeZone: zone, byteOrderMark: bom)
    for row in rows { try writer.write(row) }
    try writer.finish()
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  func testCSV_TextQuoting_OnlyWhenNeeded() throws {
    let text = try written(
      ["plain", "comma", "quote", "lf", "cr", "spaces"],
      [
        [
          .text("abc"), .text("a,b"), .text("say \"hi\""), .text("l1\nl2"), .text("x\ry"),
          .text("  padded "),
        ]
      ])
    XCTAssertEqual(
      text,
      "plain,comma,quote,lf,cr,spaces\nabc,\"a,b\",\"say \"\"hi\"\"\",\"l1\nl2\",\"x\ry\",  padded \n"
    )
  }

  func testCSV_HeaderNeedingQuotes_Quoted() throws {
    XCTAssertEqual(try written(["a,b", "c"], []), "\"a,b\",c\n")
  }

  func testCSV_ScalarCells_ContractText() throws {
    let text = try written(
      ["e", "n", "i", "min", "t", "f"],
      [
        [
          .empty, .number(text: "1e-07", value: 1e-7), .integer(-42), .integer(Int64.min),
          .bool(true), .bool(false),
        ]
      ])
    XCTAssertEqual(text, "e,n,i,min,t,f\n,1e-07,-42,-9223372036854775808,true,false\n")
  }

  func testCSV_Instants_UTCAndNamedZone() throws {
    let may = Cell.instant(millisecondsSince1970: 1_463_427_265_846)
    let january = Cell.instant(millisecondsSince1970: 1_451_606_400_005)
    XCTAssertEqual(
      try written(["a", "b"], [[may, january]]),
      "a,b\n2016-05-16T19:34:25.846Z,2016-01-01T00:00:00.005Z\n")
    let zurich = try XCTUnwrap(TimeZoneRule(identifier: "Europe/Zurich"))
    XCTAssertEqual(
      try written(["a", "b"], [[may, january]], zone: zurich),
      "a,b\n2016-05-16T21:34:25.846+02:00,2016-01-01T01:00:00.005+01:00\n")
    let newYork = try XCTUnwrap(TimeZoneRule(identifier: "America/New_York"))
    XCTAssertEqual(
      try written(["a"], [[may]], zone: newYork), "a\n2016-05-16T15:34:25.846-04:00\n")
  }

  func testCSV_Seconds_RoundedToMillisecondsShortest() throws {
    let values: [Double] = [2.5, 19.846000000000004, 3, -0.25, 0.0004, 1.2345, 0.1 + 0.2, 60.01]
    let text = try written(
      values.indices.map { "c\($0)" } + ["nan"], [values.map { .seconds($0) } + [.seconds(.nan)]])
    // 1.2345 × 1000 = 1234.5 in binary arithmetic, rounded half away from zero: 1235 ms.
    XCTAssertEqual(text.split(separator: "\n").last, "2.5,19.846,3,-0.25,0,1.235,0.3,60.01,")
    // Zeros inside the fraction and the whole part kept; only trailing ones dropped.
    let more: [Double] = [0.05, 1000.001, -12.34, 4_000_000_000.25, -0.0004, 10, 0.5]
    let moreText = try written(
      more.indices.map { "d\($0)" }, [more.map { .seconds($0) }])
    XCTAssertEqual(
      moreText.split(separator: "\n").last, "0.05,1000.001,-12.34,4000000000.25,0,10,0.5")
  }

  func testCSV_Seconds_ManyValues_SameTextAsIntegerFormatting() throws {
    // Whole milliseconds of every size up to 12 digits of seconds, both signs: the text is
    // the seconds, a point and the milliseconds without trailing zeros, made here from the
    // integer alone.
    var generator = SplitMix(seed: 1000)
    var milliseconds: [Int64] = [0, 1, -1, 10, 999, 1000, -1000, 1001, 999_999_999_999_999]
    for _ in 0..<400 {
      let digits = Int64(generator.next() % 16)
      var value = Int64(generator.next() % UInt64(pow(10, Double(digits)))) + 1
      if generator.next() % 2 == 0 { value = -value }
      milliseconds.append(value)
    }
    func reference(_ ms: Int64) -> String {
      let whole = String(ms.magnitude / 1000)
      var fraction = String(ms.magnitude % 1000)
      fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
      while fraction.hasSuffix("0") { fraction.removeLast() }
      let sign = ms < 0 ? "-" : ""
      return sign + whole + (fraction.isEmpty ? "" : "." + fraction)
    }
    let cells: [Cell] = milliseconds.map { .seconds(Double($0) / 1000) }
    let text = try written(cells.indices.map { "s\($0)" }, [cells])
    XCTAssertEqual(
      text.split(separator: "\n").last?.split(separator: ",", omittingEmptySubsequences: false)
        .map(String.init),
      milliseconds.map(reference))
  }

  func testCSV_ExtremeInstants_WrittenWithoutTrap() throws {
    let text = try written(
      ["max", "min", "epoch", "before"],
      [
        [
          .instant(millisecondsSince1970: Int64.max), .instant(millisecondsSince1970: Int64.min),
          .instant(millisecondsSince1970: 0), .instant(millisecondsSince1970: -1),
        ]
      ])
    let fields = text.split(separator: "\n").last?.split(separator: ",") ?? []
    XCTAssertEqual(fields.count, 4)
    // java.time: Instant.ofEpochMilli(Long.MAX_VALUE) and (Long.MIN_VALUE), proleptic Gregorian.
    XCTAssertEqual(fields.first, "292278994-08-17T07:12:55.807Z")
    XCTAssertEqual(fields[1], "-292275055-05-16T16:47:04.192Z")
    XCTAssertEqual(fields[2], "1970-01-01T00:00:00.000Z")
    XCTAssertEqual(fields[3], "1969-12-31T23:59:59.999Z")
  }

  func testCSV_ByteOrderMark_FirstThreeBytes() throws {
    let path = folder.appendingPathComponent("bom.csv").path
    let writer = try CSVWriter(path: path, schema: schema(["a"]), byteOrderMark: true)
    try writer.write([.text("é")])
    try writer.finish()
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    XCTAssertEqual(bytes, [0xEF, 0xBB, 0xBF, 0x61, 0x0A, 0xC3, 0xA9, 0x0A])
  }

  func testCSV_WrongRowWidth_ThrowsWriteError() throws {
    let path = folder.appendingPathComponent("w.csv").path
    let writer = try CSVWriter(path: path, schema: schema(["a", "b"]))
    XCTAssertThrowsError(try writer.write([.empty])) { error in
      XCTAssertEqual(
        (error as? WriteError)?.description,
        "\(path): cannot write: row has 1 cells, the table has 2 columns")
    }
    writer.abandon()
  }

  func testCSV_ManyRows_BufferFlushesKeepEveryLine() throws {
    let path = folder.appendingPathComponent("big.csv").path
    let writer = try CSVWriter(path: path, schema: schema(["i", "text"]))
    for index in 0..<20_000 { try writer.write([.integer(Int64(index)), .text("row,\(index)")]) }
    XCTAssertEqual(writer.rowCount, 20_000)
    try writer.finish()
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, 20_001)
    XCTAssertEqual(lines[12_346], "12345,\"row,12345\"")
    XCTAssertEqual(lines.last, "19999,\"row,19999\"")
  }

  func testCSV_BeginFlushThenMoreRows_FileHasEveryRowInOrder() throws {
    // beginFlush writes the buffered rows before the flush starts: rows buffered before it
    // and written after it all end up in the file, once, in order.
    let path = folder.appendingPathComponent("t.csv").path
    let writer = try CSVWriter(path: path, schema: schema(["a"]))
    try writer.write([.text("x")])
    try writer.beginFlush()
    try writer.write([.text("y")])
    try writer.beginFlush()
    try writer.beginFlush()
    try writer.finish()
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "a\nx\ny\n")
    XCTAssertThrowsError(try writer.beginFlush(), "closed after finish")
  }

  func testCSV_FinishAndAbandon_NoTemporaryFilesLeft() throws {
    let kept = try CSVWriter(
      path: folder.appendingPathComponent("kept.csv").path, schema: schema(["a"]))
    let dropped = try CSVWriter(
      path: folder.appendingPathComponent("dropped.csv").path, schema: schema(["a"]))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 2)
    try kept.finish()
    dropped.abandon()
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["kept.csv"])
    XCTAssertThrowsError(try kept.write([.empty]))
  }

  func testCSV_MissingFolder_WriteErrorNamesPathAndReason() {
    let path = folder.appendingPathComponent("no/such/dir/a.csv").path
    XCTAssertThrowsError(try CSVWriter(path: path, schema: schema(["a"]))) { error in
      XCTAssertEqual(
        (error as? WriteError)?.description, "\(path): cannot create: No such file or directory")
    }
  }
}
