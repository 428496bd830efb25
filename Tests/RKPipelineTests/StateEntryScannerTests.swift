// The state entry scanner against the JSON parser it stands in for: where it reads an entry,
// the parser must read the same one; the entries rkexport writes must take the scanner's path.
import Foundation
import RKImport
import RKTestSupport
import XCTest

@testable import RKPipeline

final class StateEntryScannerTests: XCTestCase {
  /// What the scanner stands in for: the entry parsed as any JSON.
  private func parsed(_ bytes: [UInt8]) -> ExportState.Entry? {
    (try? JSONParser(maximumBytes: Int.max).parse(bytes)).flatMap(ExportState.Entry.init(json:))
  }

  private func scanned(_ bytes: [UInt8]) -> ExportState.Entry? {
    bytes.withUnsafeBufferPointer { StateEntryScanner.entry(in: $0) }
  }

  /// The entry's text as the state file holds it.
  private func written(_ entry: ExportState.Entry) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var writer = StateJSONWriter { bytes += $0 }
    try writer.appendEntry(entry)
    try writer.flush()
    return bytes
  }

  private func randomText(_ random: inout SplitMix, plain: Bool) -> String {
    let plainPool = Array("abcXYZ019 ./-_#!~%".unicodeScalars)
    let oddPool = Array("a\"\\/\n\t\u{1}é\u{EF41}😀".unicodeScalars)
    let length = Int.random(in: 0...24, using: &random)
    var text = String.UnicodeScalarView()
    for _ in 0..<length {
      let odd = !plain && Int.random(in: 0..<4, using: &random) == 0
      text.append((odd ? oddPool : plainPool).randomElement(using: &random)!)
    }
    return String(text)
  }

  private func randomEntry(_ random: inout SplitMix, plain: Bool) -> ExportState.Entry {
    let uuids = (0..<Int.random(in: 0...5, using: &random)).map { _ in
      Int.random(in: 0..<3, using: &random) == 0
        ? randomText(&random, plain: plain) : UUID().uuidString
    }
    let modified: Double =
      switch Int.random(in: 0..<4, using: &random) {
      case 0: Double(Int.random(in: 0...2_000_000_000, using: &random))
      case 1: -Double.random(in: 0...1e9, using: &random)
      default: Double.random(in: 0...2e9, using: &random)
      }
    return ExportState.Entry(
      size: Int64.random(in: -5...Int64.max, using: &random), modified: modified,
      hash: Bool.random(using: &random)
        ? "" : String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16),
      taskRunUUIDs: uuids, status: ["ok", "failed", "skipped"].randomElement(using: &random)!,
      path: Bool.random(using: &random) ? nil : randomText(&random, plain: plain))
  }

  /// `bytes` changed at random, `times` times: a byte removed, one of `pieces` inserted, or a
  /// byte replaced.
  private func mutate(
    _ bytes: inout [UInt8], times: ClosedRange<Int>, pieces: [[UInt8]], _ random: inout SplitMix
  ) {
    for _ in 0..<Int.random(in: times, using: &random) {
      let at = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: bytes.remove(at: at)
      case 1: bytes.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
      default: bytes[at] = UInt8.random(in: 0...255, using: &random)
      }
    }
  }

  /// Entries rkexport writes with plain strings are read by the scanner, and as the parser
  /// reads them; entries with escapes or other characters are left to the parser.
  func testWrittenEntries_ScannedAsParsed() throws {
    var random = SplitMix(seed: 2026_11_27)
    var scannedCount = 0
    for round in 0..<2_000 {
      let entry = randomEntry(&random, plain: round % 2 == 0)
      let bytes = try written(entry)
      let expected = try XCTUnwrap(parsed(bytes), "round \(round)")
      XCTAssertEqual(expected, entry, "round \(round)")
      if let entry = scanned(bytes) {
        scannedCount += 1
        XCTAssertEqual(entry, expected, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
      } else {
        XCTAssertNotEqual(round % 2, 0, "a plain entry was not scanned: round \(round)")
      }
    }
    XCTAssertGreaterThan(scannedCount, 1_000)
  }

  /// Entries changed at random (bytes replaced, inserted or removed; members repeated,
  /// reordered or unknown; numbers in other forms): whatever the scanner reads, the parser
  /// reads the same; what the parser refuses, the scanner never reads.
  func testMutatedEntries_ScannerNeverDisagreesWithTheParser() throws {
    var random = SplitMix(seed: 7_331)
    let pieces = Array(
      [
        "\"", "\\", ",", ":", "{", "}", "[", "]", " ", "\n", "null", "1e3", "-0", "01", "1.",
        ".5", "\"size\" : 1,", "\"hash\" : \"a\",", "\"extra\" : 2,", "\"path\" : null,",
        "\u{7F}", "é",
      ].map { Array($0.utf8) })
    var scannedCount = 0
    var refusedCount = 0
    for round in 0..<20_000 {
      var bytes = try written(randomEntry(&random, plain: true))
      mutate(&bytes, times: 1...3, pieces: pieces, &random)
      let expected = parsed(bytes)
      guard let entry = scanned(bytes) else { continue }
      scannedCount += 1
      if expected == nil { refusedCount += 1 }
      XCTAssertEqual(entry, expected, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
    }
    // The mutations must leave many entries the scanner still reads.
    XCTAssertGreaterThan(scannedCount, 1_000)
    XCTAssertEqual(refusedCount, 0)
  }

  /// Whole state documents as written, changed at random: loaded with the scanner reading
  /// the plain entries in place, the same state (or the same refusal) as with every entry
  /// parsed as any JSON. (The scanner's end offset decides where the parser goes on.)
  func testMutatedStateDocuments_SameAsParsedWhole() throws {
    var random = SplitMix(seed: 4_242)
    var state = ExportState(exportedAt: "2026-11-28T01:00:00Z", outputDirectory: "/srv/out")
    for number in 0..<12 {
      state.inputs["/srv/results/P\(number % 4)/a\(number).archive"] = randomEntry(
        &random, plain: number % 3 != 0)
    }
    let document = Array(try state.encoded())
    let pieces = Array(
      [
        "\"", "\\", ",", ":", "{", "}", "[", "]", " ", "null", "1e3", "-0", "\"size\" : 1,",
        "\"k\" : {},",
      ].map { Array($0.utf8) })
    var decodedCount = 0
    for round in 0..<3_000 {
      var bytes = document
      mutate(&bytes, times: 1...2, pieces: pieces, &random)
      let scanned = try? ExportState.decode(bytes)
      let parsed = try? ExportState.decode(bytes, scansPlainEntries: false)
      XCTAssertEqual(scanned, parsed, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
      if scanned != nil { decodedCount += 1 }
    }
    XCTAssertGreaterThan(decodedCount, 300)
  }

  /// Members in another order, or with other white space, are read alike, and the escapes
  /// the writer makes; a repeated member, an unknown one, an exponent or another escape sends
  /// the entry to the parser.
  func testForms() throws {
    let reordered = Array(
      #"{"taskRunUUIDs":["A","B"],"status":"ok","size":12,"modified":1.5,"hash":"ff","path":null}"#
        .utf8)
    XCTAssertEqual(
      scanned(reordered),
      ExportState.Entry(
        size: 12, modified: 1.5, hash: "ff", taskRunUUIDs: ["A", "B"], status: "ok", path: nil))
    XCTAssertEqual(scanned(reordered), parsed(reordered))
    // The escapes the writer makes of `/`, `\` and `"` are read.
    let escaped = Array(
      #"{"hash":"","modified":0,"path":"P1\/a \\ \"b\"","size":0,"status":"ok","taskRunUUIDs":["x\/y"]}"#
        .utf8)
    XCTAssertEqual(scanned(escaped)?.path, #"P1/a \ "b""#)
    XCTAssertEqual(scanned(escaped)?.taskRunUUIDs, ["x/y"])
    XCTAssertEqual(scanned(escaped), parsed(escaped))
    for text in [
      #"{"hash":"a","hash":"b","modified":1,"size":1,"status":"ok","taskRunUUIDs":[]}"#,
      #"{"hash":"a","modified":1,"size":1,"status":"ok","taskRunUUIDs":[],"x":1}"#,
      #"{"hash":"a","modified":1e3,"size":1,"status":"ok","taskRunUUIDs":[]}"#,
      #"{"hash":"a\nb","modified":1,"size":1,"status":"ok","taskRunUUIDs":[]}"#,
      #"{"hash":"a\u0041","modified":1,"size":1,"status":"ok","taskRunUUIDs":[]}"#,
    ] {
      XCTAssertNil(scanned(Array(text.utf8)), text)
      XCTAssertNotNil(parsed(Array(text.utf8)), text)
    }
  }
}
