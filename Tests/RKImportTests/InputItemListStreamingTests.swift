// The walk's list streamed to disk as it is listed (InputItemList.init(streamDirectory:)): the
// same items, in the same order, with the same problems in the same places, as the list built
// in memory, whether the streaming holds to the end or ends halfway.
import Foundation
import XCTest
import ZIPFoundation

@testable import RKImport

final class InputItemListStreamingTests: XCTestCase {
  private var root = ""
  private var spool = ""

  override func setUpWithError() throws {
    root = NSTemporaryDirectory() + "rkexport-stream-\(UUID().uuidString)"
    spool = root + "-spool"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: root)
    try? FileManager.default.removeItem(atPath: spool)
  }

  func testUnnamedFile_NoEntryInTheFolder_ReadsBackWhatWasWritten() throws {
    // The list's scratch file never shows in the folder (made unnamed, or named and unlinked
    // at once) and holds what is written to it.
    let descriptor = try XCTUnwrap(ItemsOnDisk.unnamedFile(in: spool))
    defer { close(descriptor) }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spool), [])
    let bytes: [UInt8] = Array(0..<200).map { UInt8($0) }
    XCTAssertEqual(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 100) }, 200)
    var back = [UInt8](repeating: 0, count: 200)
    XCTAssertEqual(
      back.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 100) }, 200)
    XCTAssertEqual(back, bytes)
    #if os(Linux)
      // The descriptor's file has no name left: its link says so.
      let link = try FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/\(descriptor)")
      XCTAssertTrue(link.hasSuffix("(deleted)"), link)
      XCTAssertTrue(link.hasPrefix(spool), link)
    #endif
    XCTAssertNil(ItemsOnDisk.unnamedFile(in: spool + "/missing"))
  }

  private func write(_ paths: [String], under base: String? = nil) throws {
    let base = base ?? root
    for path in paths {
      let full = base + "/" + path
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(repeating: 7, count: path.utf8.count).write(to: URL(fileURLWithPath: full))
    }
  }

  /// The walk of `roots` in memory and streamed, each list compared item by item (before and
  /// after `moveToDisk`) with the problems and their places; whether the streaming held.
  private func compareWalks(
    _ roots: [String], opensFilesAtImport: Bool = true, file: StaticString = #filePath,
    line: UInt = #line
  ) -> Bool {
    var memoryWalker = InputWalker(roots: roots)
    memoryWalker.opensFilesAtImport = opensFilesAtImport
    var streamWalker = memoryWalker
    streamWalker.streamDirectory = spool
    var (memory, memoryProblems) = memoryWalker.itemList()
    var (streamed, streamedProblems) = streamWalker.itemList()
    XCTAssertFalse(memory.isStreaming, file: file, line: line)
    let held = streamed.isStreaming
    XCTAssertEqual(streamed.count, memory.count, file: file, line: line)
    XCTAssertEqual(Array(streamed), Array(memory), file: file, line: line)
    XCTAssertEqual(
      streamedProblems.map(\.error), memoryProblems.map(\.error), file: file, line: line)
    XCTAssertEqual(
      streamedProblems.map(\.before), memoryProblems.map(\.before), file: file, line: line)
    memory.moveToDisk(directory: spool)
    streamed.moveToDisk(directory: spool)
    XCTAssertFalse(streamed.isStreaming, file: file, line: line)
    XCTAssertEqual(Array(streamed), Array(memory), file: file, line: line)
    return held
  }

  func testSortedLayout_StreamsToTheEnd_SameItemsAcrossSeveralChunks() throws {
    // 2,600 files (three chunks of 1,024) in the usual layout: participant folders of fixed
    // width, files of fixed width, a file beside the folders.
    var paths = ["README.txt"]
    for participant in 1...26 {
      for batch in 0..<100 {
        paths.append(String(format: "P%04d/batch-%06d.archive", participant, batch))
      }
    }
    try write(paths)
    XCTAssertTrue(compareWalks([root]))
    let (items, _) = InputWalker(roots: [root]).items()
    XCTAssertEqual(items.count, 2_601)
    XCTAssertEqual(items.first?.displayPath, "P0001/batch-000000.archive")
    XCTAssertEqual(items.last?.displayPath, "README.txt")
  }

  func testFolderNameThatSortsAfterItsSiblingsEntries_StreamingEnds_SameOrder() throws {
    // The walk visits folder `a` before file `a-c`, but `a-c` sorts before `a/…` ("-" < "/"):
    // the items listed so far come back into memory and the root is sorted as before.
    var paths = (0..<1_500).map { String(format: "a/%05d.json", $0) }
    paths += ["a-c", "b/x.json"]
    try write(paths)
    XCTAssertFalse(compareWalks([root]))
    let (items, _) = InputWalker(roots: [root]).items()
    XCTAssertEqual(items.prefix(2).map(\.displayPath), ["a-c", "a/00000.json"])
  }

  func testNonASCIIName_StreamingEnds_SameOrder() throws {
    // Precomposed and decomposed é: compared as Strings, never by bytes.
    try write(["c/z.txt", "c/\u{E9}.txt", "c/e\u{301}x.txt", "d/a.txt"])
    XCTAssertFalse(compareWalks([root]))
  }

  func testSeveralRoots_EachSortedOnItsOwn() throws {
    // The second root's first path sorts before the first root's last: each root is sorted on
    // its own, so the streaming holds.
    try write(["z/1.json", "z/2.json"], under: root + "/one")
    try write(["a/1.json", "b/2.json"], under: root + "/two")
    XCTAssertTrue(compareWalks([root + "/one", root + "/two"]))
    // A later root that breaks the order brings back the earlier roots' items too.
    try write(["a/1.json", "a-b"], under: root + "/three")
    XCTAssertFalse(compareWalks([root + "/one", root + "/three", root + "/two"]))
  }

  func testZipWithAnEscapingEntry_StreamingHolds_ProblemPlacedAmongStreamedItems() throws {
    // With zips opened during the walk (a `--state` run), a zip's entries are items in its
    // place, and an entry that escapes the zip is a problem, placed by searching the streamed
    // items; a root that does not exist is a problem placed after every item.
    try write((0..<30).map { String(format: "p/%03d.json", $0) })
    let archive = try Archive(
      url: URL(fileURLWithPath: root + "/p/020.zip"), accessMode: .create)
    for name in ["../evil.json", "a.json", "b.json"] {
      let data = Data(name.utf8)
      try archive.addEntry(
        with: name, type: .file, uncompressedSize: Int64(data.count),
        provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
    }
    XCTAssertTrue(compareWalks([root], opensFilesAtImport: false))
    XCTAssertTrue(compareWalks([root, root + "/missing"], opensFilesAtImport: false))
    var walker = InputWalker(roots: [root])
    walker.opensFilesAtImport = false
    walker.streamDirectory = spool
    let (items, problems) = walker.itemList()
    XCTAssertTrue(items.isStreaming)
    XCTAssertEqual(problems.map(\.error.file), ["p/020.zip!/../evil.json"])
    // After p/000.json … p/020.json, before the zip's first entry.
    XCTAssertEqual(problems.map(\.before), [21])
    XCTAssertEqual(items[21].displayPath, "p/020.zip!/a.json")
  }

  func testZipEntriesListedByTheWalk_SameItemsAndProblems() throws {
    // A zip's entries in its own order (not sorted) and one that escapes the zip (a problem).
    try write((0..<30).map { String(format: "p/%03d.json", $0) })
    try FileManager.default.copyItem(
      atPath: fixturesPath + "/zip-mixed.zip", toPath: root + "/p/015.zip")
    _ = compareWalks([root], opensFilesAtImport: false)
    _ = compareWalks([root, root + "/missing"], opensFilesAtImport: false)
  }

  func testUnusableDirectory_BuiltInMemory() {
    var list = InputItemList(streamDirectory: root + "/no/such/folder")
    XCTAssertFalse(list.isStreaming)
    list.beginRoot(path: root, label: root, isDirectory: true, labelsRoots: false)
    list.appendFile(below: "b", size: 1)
    list.appendFile(below: "a", size: 2)
    list.sortItems(from: 0)
    XCTAssertEqual(list.map(\.displayPath), ["a", "b"])
  }
}
