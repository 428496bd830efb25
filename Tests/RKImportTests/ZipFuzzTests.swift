// Hostile bytes never crash the readers: seeded mutations of the zip and JSON fixtures.
import Foundation
import RKTestSupport
import XCTest

@testable import RKImport

final class ZipFuzzTests: XCTestCase {
  private func mutate(_ bytes: [UInt8], _ random: inout SplitMix) -> [UInt8] {
    var copy = bytes
    for _ in 0..<Int.random(in: 1...8, using: &random) where !copy.isEmpty {
      let index = Int.random(in: 0..<copy.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: copy[index] = UInt8.random(in: 0...255, using: &random)
      case 1: copy[index] = [0x00, 0xFF, 0x7F, 0x80][Int.random(in: 0..<4, using: &random)]
      default: copy.removeSubrange(index..<min(copy.count, index + 16))
      }
    }
    return copy
  }

  func testFuzz_MutatedZips_NeverCrash() throws {
    var random = SplitMix(seed: 20_170_301)
    let names = ["zip-bridge-upload.zip", "zip-mixed.zip", "zip-nested.zip"]
    let originals = try names.map { try readFile(fixturesPath + "/" + $0, limit: 1 << 20) }
    var opened = 0
    for round in 0..<300 {
      let bytes = mutate(originals[round % originals.count], &random)
      guard let reader = try? ZipReader(bytes: bytes, limits: ZipLimits()) else { continue }
      opened += 1
      for entry in reader.entries { _ = try? reader.read(entry.path) }
    }
    XCTAssertGreaterThan(opened, 0)  // some mutations leave a readable directory
  }

  func testFuzz_MutatedJSON_NeverCrash() throws {
    var random = SplitMix(seed: 42)
    let original = try readFile(fixturesPath + "/surveynative/lifestyle.json", limit: 1 << 20)
    for _ in 0..<300 {
      let bytes = mutate(original, &random)
      if case .json(_, let value) = FormatSniffer.detect(bytes) {
        _ = try? SurveyDefinitionReader.read(bytes, fileName: "f.json")
        _ = value.keyedValue
      }
    }
  }
}
