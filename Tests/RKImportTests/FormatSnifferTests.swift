// Content decides the format, never the name; files that are no result are skipped with a reason.
import XCTest

@testable import RKImport

final class FormatSnifferTests: XCTestCase {
  func testOccurs_AsFoundationsContains() {
    let texts = [
      "<?xml version=\"1.0\"?><!DOCTYPE plist><plist version=\"1.0\">", "{\"a\": 1}", "", "<plis",
      "x<plist", "plist", "\u{FEFF}<plist>", "caf\u{E9} <plist", String(repeating: "a", count: 600),
    ]
    var inputs = texts.map { Array($0.utf8) }
    inputs.append([0xFF, 0xFE, 0x3C, 0x70, 0x6C, 0x69, 0x73, 0x74])  // bad bytes, then <plist
    inputs.append(Array(repeating: 0x20, count: 508) + Array("<plist".utf8))  // cut at 512
    for bytes in inputs {
      let head = bytes.prefix(512)
      let text = String(decoding: head, as: UTF8.self)
      XCTAssertEqual(ByteSearch.occurs("<plist", in: head), text.contains("<plist"), text)
      XCTAssertEqual(ByteSearch.occurs("plist", in: head), text.contains("plist"), text)
    }
  }

  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  private func reason(_ detection: FormatSniffer.Detection) -> String? {
    if case .notResults(let reason) = detection { return reason }
    return nil
  }

  func testSniff_MagicBytes_Formats() {
    XCTAssertEqual(FormatSniffer.sniff(bytes("bplist00\u{0}")), .keyedArchiveBinary)
    XCTAssertEqual(
      FormatSniffer.sniff(bytes("<?xml version=\"1.0\"?>\n<!DOCTYPE plist>\n<plist>")),
      .keyedArchiveXML)
    XCTAssertEqual(FormatSniffer.sniff([0x50, 0x4B, 0x03, 0x04, 0x14]), .zip)
    XCTAssertEqual(FormatSniffer.sniff([0x50, 0x4B, 0x05, 0x06]), .zip)
  }

  func testSniff_JSONShapes_Formats() {
    XCTAssertEqual(FormatSniffer.sniff(bytes(#"{"_class":"ORKTaskResult"}"#)), .researchKitJSON)
    XCTAssertEqual(FormatSniffer.sniff(bytes(#"[{"_class":"ORKTaskResult"}]"#)), .researchKitJSON)
    XCTAssertEqual(FormatSniffer.sniff(bytes(#" {"answers": {"q": "Yes"}}"#)), .surveyNative)
  }

  func testDetect_NonResults_SkippedWithReason() {
    let cases: [([UInt8], String)] = [
      ([], "empty file"),
      ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], "PNG image, not a result format"),
      ([0xFF, 0xD8, 0xFF, 0xE0], "JPEG image, not a result format"),
      ([0, 0, 0, 0x18] + bytes("ftypM4A "), "MPEG-4 audio or video, not a result format"),
      (bytes("Participant 3 dropped out.\n"), "text file, not a result format"),
      ([0x00, 0x01, 0xFE], "not a result format"),
      (bytes(#"{"name": "study config"}"#), "JSON that is not a result format"),
      (
        bytes(#"{"questions":[{"id":"q","question_type":"single_select"}],"submit":{}}"#),
        "SurveyNative survey definition, not answers (pass it with --survey-definition)"
      ),
      (
        bytes(#"{"files":[],"item":"Tapping"}"#),
        "Bridge info.json outside an upload folder or zip"
      ),
      (bytes("{not json"), "not a result format (invalid JSON at byte 1)"),
    ]
    for (input, expected) in cases {
      XCTAssertEqual(reason(FormatSniffer.detect(input)), expected, expected)
    }
  }

  func testDetect_DamagedResultJSON_Failure() {
    guard
      case .damagedJSON(let format, let error) = FormatSniffer.detect(
        bytes(#"{"answers": {"q": }"#))
    else { return XCTFail("expected damaged JSON") }
    XCTAssertEqual(format, .surveyNative)
    XCTAssertEqual(error.message, "byte 18: unexpected character '}': expected a value")
  }

  func testImport_Dispatch_PerFormat() throws {
    let folder = NSTemporaryDirectory() + "rkexport-sniff-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let files: [(String, String)] = [
      ("a.json", #"{"_class":"ORKTaskResult","identifier":"t"}"#),
      ("b.archive", "bplist00"),
      ("c.txt", #"{"answers":{"q":"Yes"}}"#),  // the name says text, the content says answers
    ]
    for (name, text) in files {
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
    }
    let items = InputWalker(roots: [folder]).items().items
    let importer = InputImporter()
    let outcomes = items.map { importer.importItem($0) }
    guard case .imported(let rkInput) = outcomes[0] else { return XCTFail() }
    XCTAssertEqual(rkInput.format, .researchKitJSON)
    XCTAssertEqual(rkInput.runs.map(\.taskIdentifier), ["t"])
    XCTAssertEqual(rkInput.runs.first?.source, "a.json")
    guard case .failed(.keyedArchiveBinary, _) = outcomes[1] else { return XCTFail() }
    guard case .imported(let input) = outcomes[2] else { return XCTFail() }
    XCTAssertEqual(input.format, .surveyNative)
    XCTAssertEqual(input.runs.first?.source, "c.txt")
  }
}
