// The committed samples are laid out as an iPhone writes keyed archives: each string stored
// once, however many objects use it (scripts/samplegen's ScalarUniquing;
// docs/performance-history.md, session 17).
import Foundation
import XCTest

@testable import RKImport

final class SampleLayoutTests: XCTestCase {
  func testSamples_BinaryArchives_StoreEachStringOnce() throws {
    let study = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("samples/study")
    let files = try XCTUnwrap(FileManager.default.enumerator(atPath: study.path))
      .compactMap { $0 as? String }.sorted()
    var archivesChecked = 0
    for file in files where file.hasSuffix(".archive") || file.hasSuffix(".plist") {
      let bytes = Array(try Data(contentsOf: study.appendingPathComponent(file)))
      guard bytes.starts(with: Array("bplist00".utf8)) else { continue }
      let document = try BPlistDocument(bytes: bytes)
      var strings: [[UInt8]: Int] = [:]
      var classKeys = 0
      for ref in 0..<document.objectCount {
        let header = try document.header(ref)
        guard header.type == .string else { continue }
        let length = header.isUTF16 ? 2 * header.count : header.count
        let text =
          [header.isUTF16 ? 1 : 0]
          + document.bytes[
            header.payloadOffset..<(header.payloadOffset + length)]
        strings[text, default: 0] += 1
        if text == [0] + Array("$class".utf8) { classKeys += 1 }
      }
      let repeated = strings.filter { $0.value > 1 }.map {
        String(decoding: $0.key.dropFirst(), as: UTF8.self)
      }
      XCTAssertEqual(repeated, [], "\(file): strings stored more than once")
      XCTAssertEqual(classKeys, 1, "\(file): `$class` stored \(classKeys) times")
      archivesChecked += 1
    }
    XCTAssertGreaterThan(archivesChecked, 50)
  }
}
