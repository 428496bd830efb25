// Hostile bytes never crash the readers: seeded mutations of the zip and JSON fixtures.
import Foundation
import RKTestSupport
import XCTest
import ZIPFoundation

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

  /// What a reader made of `bytes` lists and reads: the entries, and each entry's bytes (or
  /// why not) and first four bytes; or why the zip cannot be opened.
  private func readAll(_ bytes: [UInt8], directly: Bool) -> (text: String, direct: Bool) {
    let reader: ZipReader
    do {
      reader = try ZipReader(bytes: bytes, limits: ZipLimits(), readsDirectly: directly)
    } catch {
      return ("cannot open: \(error)", false)
    }
    var lines: [String] = []
    for entry in reader.entries {
      lines.append(
        "\(entry.path) file \(entry.isFile) link \(entry.isSymlink) "
          + "\(entry.uncompressedSize)/\(entry.compressedSize) peek \(reader.peek(entry.path, count: 4))"
      )
      do {
        lines.append("  read \(try reader.read(entry.path))")
      } catch {
        lines.append("  fails \(error)")
      }
    }
    return (lines.joined(separator: "\n"), reader.readsDirectly)
  }

  func testDirectRead_FixturesAndMutations_SameAsZIPFoundation() throws {
    // Every zip fixture and seeded mutations of four: the zips read straight from their
    // bytes list and read (or refuse) exactly what ZIPFoundation lists and reads.
    let folder = fixturesPath
    let fixtures = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasSuffix(".zip") }.sorted()
      .map { try readFile(folder + "/" + $0, limit: 1 << 20) }
    var random = SplitMix(seed: 20_261_127)
    let bases = try [
      "zip-bridge-upload.zip", "zip-mixed.zip", "zip-nested.zip", "zip-bridge-descriptors.zip",
    ].map {
      try readFile(fixturesPath + "/" + $0, limit: 1 << 20)
    }
    var direct = 0
    var directWithFailures = 0
    for (index, bytes) in (fixtures + (0..<800).map { mutate(bases[$0 % 4], &random) })
      .enumerated()
    {
      let (expected, _) = readAll(bytes, directly: false)
      let (found, wasDirect) = readAll(bytes, directly: true)
      XCTAssertEqual(found, expected, "zip \(index)")
      if wasDirect {
        direct += 1
        if found.contains("  fails") { directWithFailures += 1 }
      }
    }
    // A streamed zip (sizes and checksums in data descriptors) is of the plain kind too.
    let streamed = try readFile(folder + "/zip-bridge-descriptors.zip", limit: 1 << 20)
    XCTAssertTrue(readAll(streamed, directly: true).direct)
    // The plain fixtures, and many mutations, some of them damaged entries, went the direct way.
    XCTAssertGreaterThan(direct, 100)
    XCTAssertGreaterThan(directWithFailures, 10)
  }

  func testDirectRead_ZipFilesUpToAMebibyte_ReadFromMemoryAsZIPFoundationReadsThem() throws {
    // Zip files over `inMemoryZipSize` (256 KiB) but within `directReadSize` are read whole
    // and straight from memory; larger ones through ZIPFoundation's file access. Both list and
    // read what ZIPFoundation does.
    var random = SplitMix(seed: 7)
    let folder = NSTemporaryDirectory() + "rkexport-directzip-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (name, entrySize, expectDirect) in [("small", 100_000, true), ("large", 400_000, false)] {
      let path = folder + "/" + name + ".zip"
      let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
      for index in 0..<3 {
        // Random bytes do not compress: the zip is about three entries large.
        let data = Data((0..<entrySize).map { _ in UInt8.random(in: 0...255, using: &random) })
        try archive.addEntry(
          with: "e\(index).bin", type: .file, uncompressedSize: Int64(data.count),
          compressionMethod: .deflate,
          provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
      }
      let bytes = try readFile(path, limit: 8 << 20)
      XCTAssertGreaterThan(Int64(bytes.count), ZipLimits().inMemoryZipSize, name)
      let reader = try ZipReader(path: path, limits: ZipLimits())
      XCTAssertEqual(reader.readsDirectly, expectDirect, name)
      XCTAssertEqual(reader.entries.map(\.path), ["e0.bin", "e1.bin", "e2.bin"], name)
      let (expected, _) = readAll(bytes, directly: false)
      var lines: [String] = []
      for entry in reader.entries {
        lines.append(
          "\(entry.path) file \(entry.isFile) link \(entry.isSymlink) "
            + "\(entry.uncompressedSize)/\(entry.compressedSize) "
            + "peek \(reader.peek(entry.path, count: 4))")
        lines.append("  read \(try reader.read(entry.path))")
      }
      XCTAssertEqual(lines.joined(separator: "\n"), expected, name)
    }
  }

  func testRead_EntriesReadAgainInAnyOrder_EachItsOwnBytes() throws {
    // Reads in any order give each entry's bytes as a fresh reader reads them (the reader
    // keeps only a parsed JSON value, see the test below; no bytes of an earlier read).
    let bytes = try readFile(fixturesPath + "/zip-bridge-upload.zip", limit: 1 << 20)
    let reader = try ZipReader(bytes: bytes, limits: ZipLimits())
    let files = reader.entries.filter(\.isFile).map(\.path)
    XCTAssertGreaterThan(files.count, 2)
    let expected = try files.map { try ZipReader(bytes: bytes, limits: ZipLimits()).read($0) }
    XCTAssertEqual(Set(expected).count, files.count)
    let order = files.indices + files.indices.reversed() + [0, 0, 1, 0, 1, 1]
    for index in order {
      XCTAssertEqual(try reader.read(files[index]), expected[index], files[index])
    }
  }

  func testReadJSON_KeptValueOnlyForTheSameEntryAndNoStricterLimits() throws {
    // The reader keeps the small entry it parsed last (a Bridge upload's info.json, parsed by
    // the walk and again by the import): handed back for that entry to a parser whose limits
    // are no stricter; another entry, or a stricter parser, is parsed anew.
    let bytes = try readFile(fixturesPath + "/zip-bridge-upload.zip", limit: 1 << 20)
    let reader = try ZipReader(bytes: bytes, limits: ZipLimits())
    let fresh = { (path: String) in
      try JSONParser().parse(try ZipReader(bytes: bytes, limits: ZipLimits()).read(path))
    }
    let info = try reader.readJSON("info.json", parser: JSONParser(maximumBytes: 1 << 20)).value
    XCTAssertEqual(info, try fresh("info.json"))
    XCTAssertEqual(try reader.readJSON("info.json", parser: JSONParser()).value, info)
    XCTAssertEqual(try reader.readJSON("mood", parser: JSONParser()).value, try fresh("mood"))
    XCTAssertEqual(try reader.readJSON("info.json", parser: JSONParser()).value, info)
    let size = try reader.read("info.json").count
    XCTAssertThrowsError(
      try reader.readJSON("info.json", parser: JSONParser(maximumBytes: size - 1)))
    XCTAssertThrowsError(try reader.readJSON("info.json", parser: JSONParser(maximumDepth: 1)))
    XCTAssertEqual(try reader.readJSON("info.json", parser: JSONParser()).value, info)
  }

  func testFuzz_MutatedJSON_NeverCrash() throws {
    var random = SplitMix(seed: 42)
    let original = try readFile(fixturesPath + "/surveynative/lifestyle.json", limit: 1 << 20)
    for _ in 0..<300 {
      let bytes = mutate(original, &random)
      if case .json(_, let document) = FormatSniffer.detect(bytes) {
        _ = try? SurveyDefinitionReader.read(bytes, fileName: "f.json")
        _ = document.root.value.keyedValue
      }
    }
  }
}
