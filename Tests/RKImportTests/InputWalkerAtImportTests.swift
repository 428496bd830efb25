// The walk that opens no file (`opensFilesAtImport`): plain files are listed unopened, and a
// zip among them lists, when read, exactly what the walk that opens every file lists for it.
import Foundation
import XCTest

@testable import RKImport

final class InputWalkerAtImportTests: XCTestCase {
  private var root = ""

  override func setUpWithError() throws {
    root = NSTemporaryDirectory() + "rkexport-atimport-\(UUID().uuidString)"
    let manager = FileManager.default
    try manager.createDirectory(atPath: root + "/P1/day", withIntermediateDirectories: true)
    let zips = try manager.contentsOfDirectory(atPath: fixturesPath).filter { $0.hasSuffix(".zip") }
    for name in zips {
      try manager.copyItem(atPath: fixturesPath + "/" + name, toPath: root + "/P1/" + name)
    }
    // A zip without a zip's name, one folder down, and plain files.
    try manager.copyItem(
      atPath: fixturesPath + "/zip-nested.zip", toPath: root + "/P1/day/nested.bin")
    try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/P1/day/a.json"))
    try Data("PK".utf8).write(to: URL(fileURLWithPath: root + "/P1/short.json"))
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: root)
  }

  func testFilesUnopened_EachZipListsWhatTheOpeningWalkLists() throws {
    let opening = InputWalker(roots: [root]).itemList()
    var walker = InputWalker(roots: [root])
    walker.opensFilesAtImport = true
    let (unopened, problems) = walker.itemList()
    // No file was opened, so no zip was listed: its problems come with its contents.
    XCTAssertTrue(problems.isEmpty, "\(problems.map(\.error))")
    XCTAssertFalse(opening.problems.isEmpty)
    let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter {
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory)
      return !isDirectory.boolValue
    }
    XCTAssertEqual(unopened.map(\.displayPath), files.sorted())
    XCTAssertTrue(unopened.allSatisfy { $0.mayBeZip && $0.size == 0 })

    // Expanding every zip in place gives the opening walk's items and problems, in order.
    var expanded: [InputItem] = []
    var placed: [(before: Int, error: ImportError)] = []
    var zipsListed = 0
    for item in unopened {
      guard let (items, itemProblems) = walker.zipContents(of: item) else {
        var plain = item
        plain.mayBeZip = false
        plain.size = opening.items.first { $0.displayPath == item.displayPath }?.size ?? -1
        expanded.append(plain)
        continue
      }
      zipsListed += 1
      placed += itemProblems.map { (expanded.count + $0.before, $0.error) }
      expanded += items
    }
    XCTAssertGreaterThan(zipsListed, 10)
    XCTAssertEqual(expanded, Array(opening.items))
    XCTAssertEqual(placed.map(\.error), opening.problems.map(\.error))
    XCTAssertEqual(placed.map(\.before), opening.problems.map(\.before))
  }

  func testReadFileUnlessZip_ZipsToldByTheirHeadLargeOnesNotRead() throws {
    let zip = try Array(Data(contentsOf: URL(fileURLWithPath: fixturesPath + "/zip-mixed.zip")))
    let text = Array(repeating: UInt8(ascii: "a"), count: 100)
    func write(_ bytes: [UInt8], _ name: String) throws -> String {
      let path = root + "/" + name
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return path
    }
    func read(_ path: String, limit: Int64 = 1 << 20, peekAbove: Int64 = 1 << 20) throws
      -> String
    {
      switch try readFileUnlessZip(path, limit: limit, peekAbove: peekAbove) {
      case .bytes(let bytes): "bytes \(bytes.count)"
      case .zip(let size, let bytes): "zip \(size)" + (bytes == nil ? "" : " read")
      case .larger(let size): "larger \(size)"
      }
    }
    let zipPath = try write(zip, "z.bin")
    let textPath = try write(text, "t.txt")
    // Read whole and told by its bytes (which are kept for listing it), or peeked at first
    // (above `peekAbove`).
    XCTAssertEqual(try read(zipPath), "zip \(zip.count) read")
    XCTAssertEqual(try read(zipPath, peekAbove: 10), "zip \(zip.count)")
    // A zip over the limit is still a zip (listed where it lies, never read whole).
    XCTAssertEqual(try read(zipPath, limit: 10), "zip \(zip.count)")
    XCTAssertEqual(try read(textPath), "bytes 100")
    XCTAssertEqual(try read(textPath, peekAbove: 10), "bytes 100")
    XCTAssertEqual(try read(textPath, limit: 99), "larger 100")
    XCTAssertEqual(try read(try write([0x50, 0x4B], "short")), "bytes 2")
  }

  func testZipContents_FromTheBytesReadToTellIt_SameItemsImportedWithoutReadingItAgain() throws {
    // A Bridge upload zip (one item) and zips of files: listed from the bytes `readUnopened`
    // read, as the walk lists them from the file; the importer keeps the reader, so each item
    // imports as it does from the file even once the file is gone.
    for name in [
      "zip-bridge-upload.zip", "zip-bridge-onedown.zip", "zip-mixed.zip", "zip-nested.zip",
    ] {
      let folder = root + "/once-" + name
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: fixturesPath + "/" + name, toPath: folder + "/z")
      var walker = InputWalker(roots: [folder])
      walker.opensFilesAtImport = true
      let unopened = try XCTUnwrap(walker.items().items.first)
      guard case .zip(let size, let bytes) = InputImporter().readUnopened(unopened) else {
        return XCTFail("\(name): not told as a zip")
      }
      let importer = InputImporter()
      let fromBytes = try XCTUnwrap(
        importer.zipContents(of: unopened, size: size, bytes: bytes, walker: walker))
      let fromFile = try XCTUnwrap(walker.zipContents(of: unopened))
      XCTAssertEqual(Array(fromBytes.items), Array(fromFile.items), name)
      XCTAssertEqual(fromBytes.problems.map(\.error), fromFile.problems.map(\.error), name)
      XCTAssertFalse(fromFile.items.isEmpty, name)
      let expected = fromFile.items.map { summary(InputImporter().importItem($0)) }
      XCTAssertFalse(expected.contains { $0.hasPrefix("failed") }, "\(name): \(expected)")
      try FileManager.default.removeItem(atPath: folder + "/z")
      XCTAssertEqual(fromBytes.items.map { summary(importer.importItem($0)) }, expected, name)
    }
  }

  private func summary(_ outcome: ImportOutcome) -> String {
    switch outcome {
    case .imported(let input): "imported \(input.format) \(input.runs.count) runs"
    case .failed(let format, let error): "failed \(format) \(error.reason)"
    case .skipped(let format, let reason): "skipped \(format) \(reason)"
    }
  }

  func testNamesSortingBeforeTheirEntries_OnlyNamesBeginningASiblingBeforeAByteUpToBang() {
    func names(_ list: [String]) -> [String] {
      let listing = FolderListing(names: list.map { ($0, 0) })
      return listing.namesSortingBeforeTheirEntries(Array(list.indices))
        .map { String(decoding: $0, as: UTF8.self) }.sorted()
    }
    // Written out by hand: `a.zip!/x` sorts after `a.zip 2` and `a.zip!` (`!/` > `! `), but
    // before `a.zip.bak` and `a.zipper`.
    XCTAssertEqual(names(["a.zip", "a.zip 2.archive"]), ["a.zip"])
    XCTAssertEqual(names(["a.zip", "a.zip!"]), ["a.zip"])
    XCTAssertEqual(names(["a.zip", "a.zip\t"]), ["a.zip"])
    XCTAssertEqual(names(["a.zip", "a.zip.bak", "a.zipper", "a.zip#1", "b.zip 2"]), [])
    XCTAssertEqual(names(["x", "x y z", "x y"]), ["x", "x y"])
    XCTAssertEqual(names(["é", "é 2"]), ["é"])
    XCTAssertEqual(names([" a", "a"]), [])
  }

  func testPlacedProblems_BeforeTheFirstItemSortingAfterThem() throws {
    let tree = root + "/placed"
    try FileManager.default.createDirectory(atPath: tree + "/b", withIntermediateDirectories: true)
    for name in ["a.json", "c.json"] {
      try Data("{}".utf8).write(to: URL(fileURLWithPath: tree + "/" + name))
    }
    try FileManager.default.copyItem(
      atPath: fixturesPath + "/zip-mixed.zip", toPath: tree + "/b/m.zip")
    guard mkfifo(tree + "/b/pipe", 0o600) == 0 else { throw XCTSkip("no named pipes here") }
    let (items, problems) = InputWalker(roots: [tree, root + "/missing", tree + "/c.json"])
      .itemList()
    let paths = items.map(\.displayPath)
    let label = InputWalker.rootLabel(tree)
    // By hand: the zip's entries `P001/submission.json`, `notes.txt`, `P001/photo.png` (its
    // `__MACOSX` and folder entries skipped, `../evil.json` and `/abs.json` escaping).
    XCTAssertEqual(
      paths,
      [
        label + "/a.json", label + "/b/m.zip!/P001/photo.png",
        label + "/b/m.zip!/P001/submission.json", label + "/b/m.zip!/notes.txt",
        label + "/c.json", label + "/c.json",
      ])
    XCTAssertEqual(
      problems.map(\.error.file),
      [
        label + "/b/m.zip!/../evil.json", label + "/b/m.zip!//abs.json", label + "/b/pipe",
        root + "/missing",
      ])
    // `../evil.json` and `/abs.json` sort before `P001/` (`.` and `/` before `P`), the pipe
    // after the zip's entries; the missing root where its items would be, before the third
    // root's.
    XCTAssertEqual(problems.map(\.before), [1, 1, 4, 5])
  }
}
