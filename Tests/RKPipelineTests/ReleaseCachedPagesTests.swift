// OutputCommit.releaseCachedPages: the previous outputs leave the page cache, nothing else
// does, and every file keeps its bytes.
import Foundation
import XCTest

@testable import RKPipeline

#if canImport(Glibc)
  import Glibc
#endif

final class ReleaseCachedPagesTests: XCTestCase {
  private var folder = ""
  private var outside = ""

  override func setUpWithError() throws {
    folder = try Self.diskFolder("release-out")
    outside = try Self.diskFolder("release-outside")
    try FileManager.default.createDirectory(
      atPath: folder + "/wide", withIntermediateDirectories: true)
    // In a memory file system (a tmpfs) the cached pages are the files: nothing drops them.
    let probe = folder + "/probe"
    try writeSynced(probe, byte: 0)
    let descriptor = open(probe, O_RDONLY | O_CLOEXEC)
    _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    close(descriptor)
    let kept = try residentPages(probe)
    unlink(probe)
    try XCTSkipIf(kept > 0, "\(folder) keeps its pages (a memory file system): nothing to test")
  }

  /// A new folder below the package's `.build`, on the disk the package is built on (the
  /// temporary folder is a tmpfs on some systems, Debian's among them).
  private static func diskFolder(_ name: String) throws -> String {
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let folder = package.appendingPathComponent(".build/test-scratch/\(name)-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.removeItem(atPath: outside)
  }

  /// Writes 1 MiB of `byte` and waits for the disk: clean pages, which the cache keeps.
  private func writeSynced(_ path: String, byte: UInt8) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(descriptor) }
    let bytes = [UInt8](repeating: byte, count: 1 << 20)
    XCTAssertEqual(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }, 1 << 20)
    XCTAssertEqual(fsync(descriptor), 0)
  }

  /// How many of the file's pages are in the page cache (`mincore` of a mapping).
  private func residentPages(_ path: String) throws -> Int {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
    defer { close(descriptor) }
    let length = 1 << 20
    guard let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0),
      mapping != MAP_FAILED
    else { throw CocoaError(.fileReadUnknown) }
    defer { munmap(mapping, length) }
    let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    var pages = [UInt8](repeating: 0, count: (length + pageSize - 1) / pageSize)
    XCTAssertEqual(mincore(mapping, length, &pages), 0)
    return pages.filter { $0 & 1 != 0 }.count
  }

  func testRelease_DropsNamedAndWideFilesOnly_KeepsBytes_FollowsNoLink() throws {
    let answers = folder + "/answers.csv"
    let wide = folder + "/wide/survey.csv"
    let notes = folder + "/notes.csv"  // not an output name: left alone
    let target = outside + "/steps.csv"  // reached only through a link named like an output
    try writeSynced(answers, byte: 0x61)
    try writeSynced(wide, byte: 0x62)
    try writeSynced(notes, byte: 0x63)
    try writeSynced(target, byte: 0x64)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/steps.csv", withDestinationPath: target)
    for path in [answers, wide, notes, target] {
      // Read once, so every page is cached whatever the file system did after the fsync.
      _ = try Data(contentsOf: URL(fileURLWithPath: path))
      XCTAssertGreaterThan(try residentPages(path), 0, path)
    }

    OutputCommit.releaseCachedPages(
      of: ["answers.csv", "steps.csv", "missing.csv"], in: folder)

    XCTAssertEqual(try residentPages(answers), 0)
    XCTAssertEqual(try residentPages(wide), 0)
    XCTAssertGreaterThan(try residentPages(notes), 0)
    XCTAssertGreaterThan(try residentPages(target), 0)
    for (path, byte) in [(answers, 0x61), (wide, 0x62), (notes, 0x63), (target, 0x64)] {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      XCTAssertEqual(bytes.count, 1 << 20, path)
      XCTAssertEqual(Set(bytes), [UInt8(byte)], path)
    }
  }
}
