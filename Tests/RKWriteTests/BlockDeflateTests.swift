// The deflate shim (CZipLevel) driven through minizip directly, with entry sizes libxlsxwriter
// cannot be made to write: empty, one byte, exactly one and two blocks, incompressible bytes.
// ZIPFoundation (zlib's inflate, CRC-32 checked) reads every entry back.
import CZipChecksum
import CZipLevel
import Foundation
import XCTest
import ZIPFoundation

@testable import RKImport

final class BlockDeflateTests: XCTestCase {
  private static let block = 128 * 1024

  /// Entry name → content: the edges of the block size, text-like and incompressible bytes.
  private let contents: [(name: String, bytes: [UInt8])] = [
    ("empty.txt", []),
    ("one-byte.txt", [0x41]),
    ("one-block.txt", BlockDeflateTests.text(count: block)),
    ("two-blocks.txt", BlockDeflateTests.text(count: 2 * block)),
    ("block-and-one.txt", BlockDeflateTests.text(count: block + 1)),
    ("noise.bin", BlockDeflateTests.noise(count: 3 * block + 12_345)),
    ("long.txt", BlockDeflateTests.text(count: 9 * block + 777)),
  ]

  private var scratch: String!

  override func setUpWithError() throws {
    scratch = NSTemporaryDirectory() + "rkexport-blockdeflate-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: scratch)
  }

  func testBlocks_EveryEdgeSize_InflatesToTheBytesWritten() throws {
    for level in [Int32(1), RK_ZIP_LEVEL_LIBRARY_DEFAULT] {
      let path = try writeZip(named: "level\(level).zip", level: level, threads: 2)
      XCTAssertEqual(path.inBlocks, contents.count, "every deflated entry went through blocks")
      let parts = try ZipContents.inflate(path.path)
      XCTAssertEqual(parts.map(\.name), contents.map(\.name) + ["stored.txt"])
      for (part, expected) in zip(parts, contents) {
        // Compared whole, reported short (a failure would print megabytes).
        XCTAssertTrue(
          part.bytes.elementsEqual(expected.bytes),
          "level \(level): \(part.name) inflated to \(part.bytes.count) other bytes")
      }
      XCTAssertEqual(parts.last.map { [UInt8]($0.bytes) }, Array("kept as is".utf8))
    }
  }

  func testBlocks_ThreadCount_DoesNotChangeTheFile() throws {
    let one = try writeZip(named: "one.zip", level: 1, threads: 1)
    let files = try [2, 3, 8].map { threads in
      try Data(
        contentsOf: URL(
          fileURLWithPath: writeZip(named: "\(threads).zip", level: 1, threads: threads).path))
    }
    let reference = try Data(contentsOf: URL(fileURLWithPath: one.path))
    for file in files { XCTAssertTrue(file == reference, "the same zip, byte for byte") }
  }

  func testBlocks_DirectoryRecords_SizeAndCRCOfTheBytesWritten() throws {
    let path = try writeZip(named: "records.zip", level: 1, threads: 2).path
    let entries = try ZipDirectory.entries(of: path)
    for (entry, expected) in zip(entries, contents) {
      XCTAssertEqual(entry.name, expected.name)
      XCTAssertEqual(entry.method, 8, entry.name)
      XCTAssertEqual(entry.uncompressedSize, Int64(expected.bytes.count), entry.name)
      XCTAssertEqual(entry.crc32, Self.crc32(expected.bytes), entry.name)
      XCTAssertEqual(entry.flags & 0b110, 0b110, "\(entry.name): flagged super fast")
    }
    let noise = try XCTUnwrap(entries.first { $0.name == "noise.bin" })
    XCTAssertGreaterThan(noise.compressedSize, noise.uncompressedSize, "incompressible: grows")
  }

  func testBlocks_NoThreadsAsked_MinizipDeflatesAsBefore() throws {
    let path = try writeZip(named: "plain.zip", level: 1, threads: 0)
    XCTAssertEqual(path.inBlocks, 0)
    let parts = try ZipContents.inflate(path.path)
    for (part, expected) in zip(parts, contents) {
      XCTAssertTrue(part.bytes.elementsEqual(expected.bytes), part.name)
    }
  }

  func testBlocks_DiskFull_ReportedByAWriteOrTheClose() throws {
    // /dev/full takes no byte: minizip's stores of the deflated blocks fail, and the entry's
    // writes or its close must say so (libxlsxwriter then fails the workbook), with the
    // workers stopped, not waiting forever.
    let minizip = try Minizip()
    let file = try XCTUnwrap(minizip.open("/dev/full", 0))
    rk_zip_set_deflate_level(1)
    rk_zip_set_deflate_threads(2)
    defer {
      rk_zip_set_deflate_threads(0)
      rk_zip_set_deflate_level(RK_ZIP_LEVEL_LIBRARY_DEFAULT)
    }
    let bytes = Self.noise(count: 8 * Self.block)
    XCTAssertEqual(minizip.entry(file, name: "sheet.xml", method: 8), 0)
    var failures = 0
    var offset = 0
    while offset < bytes.count {
      let count = min(16_384, bytes.count - offset)
      let result = bytes.withUnsafeBufferPointer {
        minizip.write(file, $0.baseAddress! + offset, UInt32(count))
      }
      if result != 0 { failures += 1 }
      offset += count
    }
    if minizip.closeEntry(file) != 0 { failures += 1 }
    XCTAssertGreaterThan(failures, 0, "the full disk was reported")
    _ = minizip.close(file, nil)
  }

  /// Writes `contents` as deflated entries and one stored entry, in odd-sized pieces, through
  /// minizip on this thread with the shim set to `level` and `threads`.
  private func writeZip(named name: String, level: Int32, threads: Int32) throws
    -> (path: String, inBlocks: Int)
  {
    let path = scratch + "/" + name
    let minizip = try Minizip()
    let file = try XCTUnwrap(minizip.open(path, 0))
    rk_zip_set_deflate_level(level)
    rk_zip_set_deflate_threads(threads)
    defer {
      rk_zip_set_deflate_threads(0)
      rk_zip_set_deflate_level(RK_ZIP_LEVEL_LIBRARY_DEFAULT)
    }
    for (entryName, bytes) in contents {
      try minizip.add(file, name: entryName, bytes: bytes, method: 8)
    }
    try minizip.add(file, name: "stored.txt", bytes: Array("kept as is".utf8), method: 0)
    let inBlocks = Int(rk_zip_entries_in_blocks())
    XCTAssertEqual(minizip.close(file, nil), 0)
    return (path, inBlocks)
  }

  /// Repetitive text like a sheet's XML rows.
  private static func text(count: Int) -> [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(count + 64)
    var row = 0
    while bytes.count < count {
      bytes += Array("<row r=\"\(row)\"><c t=\"s\"><v>\(row % 97)</v></c></row>".utf8)
      row += 1
    }
    return Array(bytes.prefix(count))
  }

  /// xorshift bytes: nothing for deflate to find.
  private static func noise(count: Int) -> [UInt8] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return UInt8(truncatingIfNeeded: state >> 24)
    }
  }

  /// zlib's CRC-32 of `bytes`, as the importer's zip reader computes it (CZipChecksum).
  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer {
      UInt32(CZipChecksum.crc32(0, $0.baseAddress, UInt32($0.count)))
    }
  }
}

/// minizip's functions, found at run time: the test binary links libminizip through
/// libxlsxwriter, and the shim's own definitions (in this binary) come first, as they do for
/// the library.
private struct Minizip {
  typealias Open = @convention(c) (UnsafePointer<CChar>, Int32) -> OpaquePointer?
  typealias OpenEntry =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>, UnsafeRawPointer?, UnsafeRawPointer?, UInt32,
      UnsafeRawPointer?, UInt32, UnsafePointer<CChar>?, Int32, Int32, Int32, Int32, Int32, Int32,
      UnsafePointer<CChar>?, UInt, UInt, UInt, Int32
    ) -> Int32
  typealias Write = @convention(c) (OpaquePointer?, UnsafeRawPointer?, UInt32) -> Int32
  typealias CloseEntry = @convention(c) (OpaquePointer?) -> Int32
  typealias Close = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32

  let open: Open
  let openEntry: OpenEntry
  let write: Write
  let closeEntry: CloseEntry
  let close: Close

  struct Missing: Error { let name: String }

  init() throws {
    func find<T>(_ name: String, as type: T.Type) throws -> T {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
        throw Missing(name: name)
      }
      return unsafeBitCast(symbol, to: type)
    }
    open = try find("zipOpen", as: Open.self)
    openEntry = try find("zipOpenNewFileInZip4_64", as: OpenEntry.self)
    write = try find("zipWriteInFileInZip", as: Write.self)
    closeEntry = try find("zipCloseFileInZip", as: CloseEntry.self)
    close = try find("zipClose", as: Close.self)
  }

  /// Opens an entry as libxlsxwriter does: the library's default level and arguments.
  func entry(_ file: OpaquePointer, name: String, method: Int32) -> Int32 {
    // zip_fileinfo, zeroed: tmz_date (six unsigned ints), then dosDate, internal_fa and
    // external_fa (unsigned longs).
    let infoBytes = [UInt8](repeating: 0, count: 6 * 4 + 3 * 8)
    return infoBytes.withUnsafeBytes { raw in
      openEntry(
        file, name, raw.baseAddress, nil, 0, nil, 0, nil, method, -1, 0, -15, 8, 0, nil, 0, 0,
        0, 0)
    }
  }

  /// One entry, written in pieces of 7,777 bytes.
  func add(_ file: OpaquePointer, name: String, bytes: [UInt8], method: Int32) throws {
    var result = entry(file, name: name, method: method)
    XCTAssertEqual(result, 0, "open \(name)")
    var offset = 0
    while offset < bytes.count {
      let count = min(7_777, bytes.count - offset)
      result = bytes.withUnsafeBufferPointer {
        write(file, $0.baseAddress! + offset, UInt32(count))
      }
      XCTAssertEqual(result, 0, "write \(name)")
      offset += count
    }
    XCTAssertEqual(closeEntry(file), 0, "close \(name)")
  }
}
