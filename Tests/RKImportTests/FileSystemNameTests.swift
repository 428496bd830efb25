// File names that are not valid UTF-8: carried in Strings without loss, walked, opened and read.
import Foundation
import RKTestSupport
import XCTest
import ZIPFoundation

@testable import RKImport

final class FileSystemNameTests: XCTestCase {
  func testString_ValidNames_Unchanged() {
    for name in ["P001/a.archive", "Zürich/é.json", "日本語.plist", "🙂 x.json", "a\u{E000}b"] {
      XCTAssertEqual(FileSystemName.string(Array(name.utf8)), name)
      XCTAssertEqual(FileSystemName.bytes(name), Array(name.utf8))
    }
  }

  func testString_InvalidBytes_EachAPrivateUseCharacter() {
    // Latin-1 "café": E9 starts a three-byte sequence that never comes.
    XCTAssertEqual(FileSystemName.string([0x63, 0x61, 0x66, 0xE9]), "caf\u{EFE9}")
    // A stray continuation byte, an overlong "/", a surrogate, a truncated euro sign, a code
    // point past U+10FFFF, FF: every byte of each maps on its own.
    XCTAssertEqual(FileSystemName.string([0x80]), "\u{EF80}")
    XCTAssertEqual(FileSystemName.string([0xC0, 0xAF]), "\u{EFC0}\u{EFAF}")
    XCTAssertEqual(FileSystemName.string([0xED, 0xA0, 0x80]), "\u{EFED}\u{EFA0}\u{EF80}")
    XCTAssertEqual(FileSystemName.string([0xE2, 0x82, 0x41]), "\u{EFE2}\u{EF82}A")
    XCTAssertEqual(
      FileSystemName.string([0xF4, 0x90, 0x80, 0x80]), "\u{EFF4}\u{EF90}\u{EF80}\u{EF80}")
    XCTAssertEqual(FileSystemName.string([0xFF, 0x2E]), "\u{EFFF}.")
    // Valid characters beside invalid bytes stay characters.
    XCTAssertEqual(FileSystemName.string([0xC3, 0xA9, 0xE9]), "é\u{EFE9}")
  }

  func testString_CharacterOfTheMappedRange_WrittenAsItsMappedBytes() {
    // U+EF80 is EE BE 80: written as three mapped bytes, so that it cannot be taken for the
    // byte 80 of a name that is not UTF-8.
    XCTAssertEqual(FileSystemName.string(Array("a\u{EF80}".utf8)), "a\u{EFEE}\u{EFBE}\u{EF80}")
    XCTAssertNotEqual(FileSystemName.string(Array("\u{EF80}".utf8)), FileSystemName.string([0x80]))
    // Just outside the range: unchanged.
    XCTAssertEqual(FileSystemName.string(Array("\u{EF7F}\u{F000}".utf8)), "\u{EF7F}\u{F000}")
  }

  func testBytes_ManyByteStrings_RoundTripExactly() {
    // Byte strings mixing ASCII, valid sequences, their fragments and the mapped range's
    // encodings: each String turns back into its bytes, so no two names merge.
    var generator = SplitMix(seed: 0x5EED)
    let pieces: [[UInt8]] = [
      [0x61], [0x2F], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x99, 0x82],
      [0xEE, 0xBE, 0x80],
      [0xEE, 0xBF, 0xBF], [0xEE], [0xBE], [0xE9], [0xFF], [0xC0], [0xED, 0xA0, 0x80], [0xF4, 0x90],
    ]
    var seen: [String: [UInt8]] = [:]
    for _ in 0..<5_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int(generator.next() % 6) {
        bytes += pieces[Int(generator.next() % UInt64(pieces.count))]
      }
      let text = FileSystemName.string(bytes)
      XCTAssertEqual(FileSystemName.bytes(text), bytes, "\(bytes)")
      if let earlier = seen.updateValue(bytes, forKey: text) {
        XCTAssertEqual(earlier, bytes, "two byte strings made the same String")
      }
    }
  }

  func testWalkAndRead_NamesNotUTF8_EachFileFoundAndRead() throws {
    let root = NSTemporaryDirectory() + "rkexport-names-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    // Two Latin-1 names that a repairing decoder would make the same, in a folder whose own
    // name is Latin-1, and a Bridge upload folder so named.
    let folder: [UInt8] = Array((root + "/P").utf8) + [0xE9]
    try makeFolder(Array(root.utf8))
    try makeFolder(folder)
    try writeFile(folder + Array("/caf".utf8) + [0xE9] + Array(".json".utf8), contents: "one")
    try writeFile(folder + Array("/caf".utf8) + [0xE8] + Array(".json".utf8), contents: "two")

    for unopened in [false, true] {
      var walker = InputWalker(roots: [root])
      walker.opensFilesAtImport = unopened
      let (items, problems) = walker.items()
      XCTAssertEqual(problems, [])
      XCTAssertEqual(
        items.map(\.displayPath), ["P\u{EFE9}/caf\u{EFE8}.json", "P\u{EFE9}/caf\u{EFE9}.json"])
      XCTAssertEqual(items.map(\.folders), [["P\u{EFE9}"], ["P\u{EFE9}"]])
      let contents = try items.map { item -> String in
        guard case .file(let path) = item.location else {
          XCTFail("\(item.displayPath) is not a file item")
          return ""
        }
        return String(decoding: try readFile(path, limit: 100), as: UTF8.self)
      }
      XCTAssertEqual(contents, ["two", "one"])
    }
    // Given as a root by its bytes' String, the folder is found too.
    let (items, problems) = InputWalker(roots: [FileSystemName.string(folder)]).items()
    XCTAssertEqual(problems, [])
    XCTAssertEqual(items.count, 2)
  }

  func testZipReader_LargeZipNamedNotUTF8_OpenedThroughItsDescriptor() throws {
    // Over `ZipReader.directReadSize`, a zip is read where it lies by ZIPFoundation, which opens
    // it by a path String of its own: for a Latin-1 name, by its open descriptor's name.
    let folder = NSTemporaryDirectory() + "rkexport-bigzip-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let plain = folder + "/made.zip"
    let archive = try Archive(url: URL(fileURLWithPath: plain), accessMode: .create)
    var random = SplitMix(seed: 11)
    let data = Data((0..<1_300_000).map { _ in UInt8.random(in: 0...255, using: &random) })
    try archive.addEntry(
      with: "big.bin", type: .file, uncompressedSize: Int64(data.count),
      compressionMethod: .none,
      provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
    let latin1 = Array(folder.utf8) + Array("/gro".utf8) + [0xDF] + Array(".zip".utf8)
    let renamed = (latin1 + [0]).withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { rename(plain, $0.baseAddress!) }
    }
    XCTAssertEqual(renamed, 0)
    let reader = try ZipReader(path: FileSystemName.string(latin1), limits: ZipLimits())
    XCTAssertFalse(reader.readsDirectly)
    XCTAssertEqual(reader.entries.map(\.path), ["big.bin"])
    XCTAssertEqual(try reader.read("big.bin"), Array(data))
  }

  private func makeFolder(_ path: [UInt8]) throws {
    let made = (path + [0]).withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
    }
    guard made == 0 || errno == EEXIST else { throw CocoaError(.fileWriteUnknown) }
  }

  private func writeFile(_ path: [UInt8], contents: String) throws {
    let descriptor = (path + [0]).withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) {
        open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      }
    }
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(descriptor) }
    let bytes = Array(contents.utf8)
    XCTAssertEqual(write(descriptor, bytes, bytes.count), bytes.count)
  }
}
