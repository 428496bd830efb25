// Zips as inputs: entries as items, Bridge uploads inside zips, one level of nesting, and the
// hostile cases (zip-slip, bombs, lying sizes, encryption, damage). Fixtures: make_zips.py.
import Foundation
import RKModel
import XCTest
import ZIPFoundation

@testable import RKImport

final class ZipInputTests: XCTestCase {
  private func walk(_ zip: String, limits: ZipLimits = ZipLimits()) -> ([InputItem], [ImportError])
  {
    let result = InputWalker(roots: [fixturesPath + "/" + zip], zipLimits: limits).items()
    return (result.items, result.problems)
  }

  private func importAll(
    _ zip: String, options: ImportOptions = ImportOptions()
  ) -> [(String, ImportOutcome)] {
    let (items, _) = walk(zip, limits: options.zipLimits)
    let importer = InputImporter(options: options)
    return items.map { ($0.displayPath, importer.importItem($0)) }
  }

  private func failure(_ outcome: ImportOutcome) -> String? {
    if case .failed(_, let error) = outcome { return error.description }
    return nil
  }

  private func skipReason(_ outcome: ImportOutcome) -> String? {
    if case .skipped(_, let reason) = outcome { return reason }
    return nil
  }

  private func runs(_ outcome: ImportOutcome) -> [TaskRun] {
    if case .imported(let input) = outcome { return input.runs }
    return []
  }

  func testWalk_BridgeZip_OneItem() throws {
    let (items, problems) = walk("zip-bridge-upload.zip")
    XCTAssertEqual(problems, [])
    XCTAssertEqual(items.map(\.displayPath), ["zip-bridge-upload.zip"])
    XCTAssertEqual(items.first?.folders, [])
    let outcome = InputImporter().importItem(try XCTUnwrap(items.first))
    let run = try XCTUnwrap(runs(outcome).first)
    XCTAssertEqual(run.taskIdentifier, "Daily Check-In")
    XCTAssertEqual(run.steps.map(\.identifier), ["mood", "sleep_hours", "used_inhaler"])
    XCTAssertEqual(run.source, "zip-bridge-upload.zip")
  }

  func testWalk_BridgeFolderOneDown_UploadPlusOtherEntries() {
    let (items, _) = walk("zip-bridge-onedown.zip")
    XCTAssertEqual(
      items.map(\.displayPath),
      ["zip-bridge-onedown.zip!/readme.txt", "zip-bridge-onedown.zip!/upload7"])
    let outcomes = importAll("zip-bridge-onedown.zip")
    XCTAssertEqual(skipReason(outcomes[0].1), "text file, not a result format")
    XCTAssertEqual(runs(outcomes[1].1).first?.taskIdentifier, "SleepSurvey")
    XCTAssertEqual(runs(outcomes[1].1).first?.steps.count, 4)
  }

  func testWalk_MixedZip_EntriesSniffedAndUnsafePathsRefused() {
    let (items, problems) = walk("zip-mixed.zip")
    XCTAssertEqual(
      items.map(\.displayPath),
      [
        "zip-mixed.zip!/P001/photo.png", "zip-mixed.zip!/P001/submission.json",
        "zip-mixed.zip!/notes.txt",
      ])
    XCTAssertEqual(items.map(\.folders), [["P001"], ["P001"], []])
    let reason = "zip entry path escapes the archive (absolute or '..'); not read"
    XCTAssertEqual(
      problems,
      [
        ImportError(file: "zip-mixed.zip!/../evil.json", reason: reason),
        ImportError(file: "zip-mixed.zip!//abs.json", reason: reason),
      ])
    let outcomes = importAll("zip-mixed.zip")
    XCTAssertEqual(skipReason(outcomes[0].1), "PNG image, not a result format")
    XCTAssertEqual(runs(outcomes[1].1).first?.steps.count, 10)
    XCTAssertEqual(runs(outcomes[1].1).first?.source, "zip-mixed.zip!/P001/submission.json")
    XCTAssertEqual(skipReason(outcomes[2].1), "text file, not a result format")
  }

  func testWalk_OddEntryPaths_ASCIIAndUnicodeRulesAgree() {
    // Paths are split at slash bytes; names are hidden as the folder walk judges them.
    // Items come in path order.
    let (items, problems) = walk("zip-odd-paths.zip")
    let zip = "zip-odd-paths.zip!/"
    XCTAssertEqual(
      items.map(\.displayPath),
      [
        // A dot with a combining mark is another Character: that entry is not hidden.
        "P1/.\u{301}x.txt", "P1//double.txt", "P1/a..b.txt", "P1/a.txt", "P1/inner.bin!/in/b.txt",
        "P1/tiny.bin",
        "P1/\u{301}/combining.txt", "P1\\win\\path.txt", "Z\u{FC}rich/\u{FC}.txt", "c:name.txt",
      ].map { zip + $0 })
    XCTAssertEqual(
      items.map(\.folders),
      [
        ["P1"], ["P1"], ["P1"], ["P1"], ["P1", "inner.bin", "in"], ["P1"],
        // Split at every slash byte, as the same tree on disk is: a combining mark joins the
        // slash before it into one Character, and a split by Characters made a folder
        // `P1/◌́` that is not there.
        ["P1", "\u{301}"], [], ["Z\u{FC}rich"], [],
      ])
    let reason = "zip entry path escapes the archive (absolute or '..'); not read"
    // In path order, as the items (`C` and `P` before `\\`; the two accented paths are
    // canonically equal up to `a` and `d`).
    XCTAssertEqual(
      problems,
      [
        "../up.txt", "/abs.txt", "C:/drive.txt", "P1/..", "\\back.txt", "\u{E9}:/accent.txt",
        // Two Characters, "e\u{301}" and ":", though three scalars: a drive letter.
        "e\u{301}:/decomposed.txt",
      ].map { ImportError(file: zip + $0, reason: reason) })
  }

  func testEveryFixture_InMemoryOrOnDisk_SameItemsProblemsAndOutcomes() throws {
    // Small zips are opened in memory, large ones where they lie: the same results either way.
    let zips = try FileManager.default.contentsOfDirectory(atPath: fixturesPath)
      .filter { $0.hasSuffix(".zip") }.sorted()
    XCTAssertGreaterThanOrEqual(zips.count, 10)
    for zip in zips {
      var onDisk = ImportOptions()
      onDisk.zipLimits.inMemoryZipSize = 0
      let inMemory = ImportOptions()
      // Small enough that the default limits really open it in memory.
      let size = try XCTUnwrap(
        FileManager.default.attributesOfItem(atPath: fixturesPath + "/" + zip)[.size] as? Int)
      XCTAssertLessThanOrEqual(Int64(size), inMemory.zipLimits.inMemoryZipSize, zip)
      XCTAssertEqual(
        walk(zip, limits: onDisk.zipLimits).0, walk(zip, limits: inMemory.zipLimits).0, zip)
      XCTAssertEqual(
        walk(zip, limits: onDisk.zipLimits).1, walk(zip, limits: inMemory.zipLimits).1, zip)
      let describe = { (outcomes: [(String, ImportOutcome)]) in
        outcomes.map { "\($0.0): \($0.1)" }
      }
      XCTAssertEqual(
        describe(importAll(zip, options: onDisk)), describe(importAll(zip, options: inMemory)), zip)
    }
  }

  func testWalk_ManyZipsSurveyedOnAllCores_SameAsOneByOne() throws {
    // Every fixture zip three times over, in folders: more zips than a survey window, and
    // every shape (Bridge uploads, nested and damaged zips, odd paths) in each window.
    let root = NSTemporaryDirectory() + "rkexport-zips-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let zips = try FileManager.default.contentsOfDirectory(atPath: fixturesPath)
      .filter { $0.hasSuffix(".zip") }.sorted()
    for copy in 0..<3 {
      try FileManager.default.createDirectory(
        atPath: root + "/site\(copy)", withIntermediateDirectories: true)
      for zip in zips {
        try FileManager.default.copyItem(
          atPath: fixturesPath + "/" + zip, toPath: root + "/site\(copy)/" + zip)
      }
    }
    var oneByOne = InputWalker(roots: [root])
    oneByOne.zipSurveyWindow = 0
    let expected = oneByOne.items()
    XCTAssertGreaterThan(expected.items.count, 3 * zips.count)
    XCTAssertGreaterThan(expected.problems.count, 0)
    for window in [1, 3, 8] {
      var walker = InputWalker(roots: [root])
      walker.zipSurveyWindow = window
      let found = walker.items()
      XCTAssertEqual(found.items, expected.items, "window \(window)")
      XCTAssertEqual(found.problems, expected.problems, "window \(window)")
    }
  }

  func testWalk_ZipInsideFolder_CountsAsFolder() throws {
    let root = NSTemporaryDirectory() + "rkexport-zip-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: root + "/site1", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.copyItem(
      atPath: fixturesPath + "/zip-mixed.zip", toPath: root + "/site1/export.zip")
    try FileManager.default.copyItem(
      atPath: fixturesPath + "/zip-bridge-upload.zip", toPath: root + "/site1/P011.zip")
    let items = InputWalker(roots: [root]).items().items
    XCTAssertEqual(
      items.map(\.displayPath),
      [
        "site1/P011.zip", "site1/export.zip!/P001/photo.png",
        "site1/export.zip!/P001/submission.json", "site1/export.zip!/notes.txt",
      ])
    XCTAssertEqual(items[0].folders, ["site1"])  // a Bridge zip: the folders above it
    XCTAssertEqual(items[2].folders, ["site1", "export.zip", "P001"])
  }

  func testWalk_NestedZips_OneLevelRead() {
    let (items, problems) = walk("zip-nested.zip")
    XCTAssertEqual(problems, [])
    XCTAssertEqual(
      items.map(\.displayPath),
      [
        "zip-nested.zip!/batch/answers.zip!/P005/s.json", "zip-nested.zip!/batch/upload1.zip",
        "zip-nested.zip!/deeper.zip!/deepest.zip",
      ])
    XCTAssertEqual(
      items.map(\.folders), [["batch", "answers.zip", "P005"], ["batch"], ["deeper.zip"]])
    let outcomes = importAll("zip-nested.zip")
    XCTAssertEqual(runs(outcomes[0].1).first?.steps.count, 10)
    XCTAssertEqual(runs(outcomes[1].1).first?.taskIdentifier, "Daily Check-In")
    XCTAssertEqual(
      skipReason(outcomes[2].1), "zip inside a zip inside a zip: only one level of nesting is read")
  }

  func testImport_ZipBomb_RefusedAndOverridable() throws {
    let outcomes = importAll("zip-bomb.zip")
    let message = try XCTUnwrap(failure(outcomes[0].1))
    XCTAssertTrue(message.hasPrefix("zip-bomb.zip!/bomb.json: entry compresses "), message)
    XCTAssertTrue(message.hasSuffix(":1, over the limit of 200:1 (possible zip bomb)"), message)
    let relaxed = importAll(
      "zip-bomb.zip", options: ImportOptions(zipLimits: ZipLimits(maximumCompressionRatio: 5000)))
    XCTAssertEqual(skipReason(relaxed[0].1), "not a result format")
    let small = importAll(
      "zip-bomb.zip", options: ImportOptions(zipLimits: ZipLimits(maximumEntrySize: 1 << 20)))
    XCTAssertEqual(
      failure(small[0].1),
      "zip-bomb.zip!/bomb.json: entry is 20971520 bytes uncompressed, over the limit of 1048576")
  }

  func testImport_LyingSize_StoppedWhileInflating() {
    XCTAssertEqual(
      failure(importAll("zip-lying-size.zip")[0].1),
      "zip-lying-size.zip!/lying.json: entry inflates beyond its declared size (possible zip bomb)")
  }

  func testImport_EncryptedZip_ClearFailure() {
    let outcomes = importAll("zip-encrypted.zip")
    XCTAssertEqual(outcomes.count, 1)
    XCTAssertEqual(
      failure(outcomes[0].1),
      "zip-encrypted.zip: encrypted zip (entry 1 of 1, \"secret.json\"): "
        + "encrypted zips are not supported")
  }

  func testImport_TruncatedZip_ClearFailure() {
    XCTAssertEqual(
      failure(importAll("zip-truncated.zip")[0].1),
      "zip-truncated.zip: damaged zip: no end of central directory record")
  }

  func testImport_BadChecksum_ClearFailure() {
    XCTAssertEqual(
      failure(importAll("zip-bad-crc.zip")[0].1),
      "zip-bad-crc.zip!/a.json: damaged zip entry: checksum mismatch")
  }

  func testImport_BadChecksumOfDeflatedEntry_ClearFailure() {
    // The entry inflates cleanly; only its checksum is wrong (Python's zipfile says so too).
    XCTAssertEqual(
      failure(importAll("zip-bad-crc-deflated.zip")[0].1),
      "zip-bad-crc-deflated.zip!/a.json: damaged zip entry: checksum mismatch")
  }

  func testReader_EntryPathsAndTypes_SameAsZIPFoundation() throws {
    // The reader takes printable ASCII names and types from its own directory scan; every
    // entry of every fixture must read as ZIPFoundation's `Entry.path` and `Entry.type` say.
    var compared = 0
    var kinds = Set<String>()
    for name in try FileManager.default.contentsOfDirectory(atPath: fixturesPath).sorted()
    where name.hasSuffix(".zip") {
      let path = fixturesPath + "/" + name
      guard let reader = try? ZipReader(path: path, limits: ZipLimits()) else { continue }
      let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
      let expected = archive.map { ($0.path, $0.type == .file, $0.type == .symlink) }
      XCTAssertEqual(reader.entries.count, expected.count, name)
      for (info, want) in zip(reader.entries, expected) {
        XCTAssertEqual(info.path, want.0, name)
        XCTAssertEqual(info.isFile, want.1, "\(name): \(info.path)")
        XCTAssertEqual(info.isSymlink, want.2, "\(name): \(info.path)")
        kinds.insert(want.2 ? "symlink" : want.1 ? "file" : "directory")
        if info.path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value > 0x7E }) {
          kinds.insert("not printable ASCII")
        }
        compared += 1
      }
    }
    XCTAssertGreaterThan(compared, 50)
    XCTAssertEqual(kinds, ["file", "directory", "symlink", "not printable ASCII"])
  }

  func testImport_ZipPointingPastItsEnd_EntriesReportedNoTrap() {
    // Found by the fuzzer: entry 4's data descriptor lies far past the end. Read from memory,
    // ZIPFoundation trapped on it (the whole export lost); now the zip is read from its file,
    // at top level and nested (a temporary copy), with the damaged entries reported.
    for (zip, prefix) in [
      ("zip-reads-past-end.zip", "zip-reads-past-end.zip!/"),
      ("zip-nested-past-end.zip", "zip-nested-past-end.zip!/inner.zip!/"),
    ] {
      let outcomes = importAll(zip)
      XCTAssertEqual(
        outcomes.map(\.0),
        ["info.json", "mood", "sleep_hours", "used_inhaler", "voice.m4a"].map { prefix + $0 }, zip)
      XCTAssertEqual(
        failure(outcomes[3].1), prefix + "used_inhaler: damaged zip entry: corruptedData", zip)
    }
  }

  func testInMemoryCheck_RefusesReadsPastTheEnd_AcceptsTheOtherFixtures() throws {
    func bytes(_ name: String) throws -> [UInt8] {
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixturesPath + "/" + name)))
    }
    XCTAssertFalse(ZipInMemoryCheck.readsStayWithin(try bytes("zip-reads-past-end.zip")))
    for name in [
      "zip-mixed.zip", "zip-nested.zip", "zip-bridge-upload.zip", "zip-odd-paths.zip",
      "zip-entry-types.zip", "zip-nested-past-end.zip", "zip-bad-crc.zip",
    ] {
      XCTAssertTrue(ZipInMemoryCheck.readsStayWithin(try bytes(name)), name)
    }
    // A local header offset, a data offset and a ZIP64 locator that ZIPFoundation would
    // follow out of the bytes.
    var zip = try bytes("zip-mixed.zip")
    let end = zip.count - 22
    let directory = Int(le32(zip, end + 16))
    var pastLocal = zip
    pastLocal.replaceSubrange(directory + 42..<directory + 46, with: [0xF0, 0xFF, 0xFF, 0x7F])
    XCTAssertFalse(ZipInMemoryCheck.readsStayWithin(pastLocal))
    var pastData = zip
    pastData.replaceSubrange(28..<30, with: [0xFF, 0xFF])  // the first local extra length
    XCTAssertFalse(ZipInMemoryCheck.readsStayWithin(pastData))
    zip.insert(contentsOf: [0x50, 0x4B, 0x06, 0x07] + [UInt8](repeating: 0, count: 16), at: end)
    XCTAssertFalse(ZipInMemoryCheck.readsStayWithin(zip))
  }

  func testChecksum_StandardCheckValues() {
    // CRC-32 (ISO-HDLC, as zip uses): the catalogue's check value for "123456789".
    XCTAssertEqual(ZipReader.checksum(Array("123456789".utf8)), 0xCBF4_3926)
    XCTAssertEqual(ZipReader.checksum([]), 0)
    XCTAssertEqual(ZipReader.checksum(Array("a".utf8)), 0xE8B7_BE43)
  }

  func testWalk_TooManyEntries_ZipFailsWithLimit() {
    let outcomes = importAll(
      "zip-mixed.zip", options: ImportOptions(zipLimits: ZipLimits(maximumEntries: 3)))
    XCTAssertEqual(
      outcomes.map { failure($0.1) }, ["zip-mixed.zip: zip lists 7 entries, over the limit of 3"])
  }
}
