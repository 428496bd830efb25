// --state, --append and the logs of nightly runs, checked against a full export of everything.
import Foundation
import XCTest

final class IncrementalRunTests: XCTestCase {
  private let longTables = ["task_runs.csv", "steps.csv", "answers.csv", "inputs.csv"]

  func testState_NewFilesAdded_DeltaHoldsOnlyThemAndUnionEqualsFullExport() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    XCTAssertEqual(try dir.run(["in", "--out", "out", "--state", "state.json"]).status, 0)
    try dir.makeCorpus(copies: 1..<2)
    let second = try dir.run(["in", "--out", "out", "--state", "state.json"])
    XCTAssertEqual(second.status, 0, second.stderr)
    let deltas = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/out")
      .filter { $0.hasPrefix("delta-") }
    XCTAssertEqual(deltas.count, 1, "\(deltas)")
    let delta = "out/" + deltas[0]
    // Only the new copy's files were read: every input row of the delta is below copy1/.
    let inputs = try dir.readCSV(delta + "/inputs.csv").dropFirst()
    XCTAssertFalse(inputs.isEmpty)
    XCTAssertTrue(inputs.allSatisfy { $0[0].hasPrefix("copy1/") }, "\(inputs.map { $0[0] })")
    XCTAssertEqual(try dir.run(["in", "--out", "full"]).status, 0)
    for table in longTables {
      XCTAssertEqual(
        union(try dir.rowMultiset("out/" + table), try dir.rowMultiset(delta + "/" + table)),
        try dir.rowMultiset("full/" + table), table)
    }
  }

  func testState_NothingNew_SaysSoWritesNothingExitsZero() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    XCTAssertEqual(try dir.run(["in", "--out", "out", "--state", "state.json"]).status, 0)
    let before = try dir.snapshot("out")
    let files = try dir.snapshot("in").count
    let again = try dir.run(["in", "--out", "out", "--state", "state.json"])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(again.stderr.contains("nothing new since "), again.stderr)
    XCTAssertTrue(again.stderr.contains(": \(files) files unchanged"), again.stderr)
    XCTAssertEqual(try dir.snapshot("out"), before)
  }

  /// A state file named by one character, relative to the working folder: Foundation's
  /// path code trapped on it while the outputs were committed (exit 132, SIGILL).
  func testState_OneCharacterName_WorksAndNextRunFindsNothingNew() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    let first = try dir.run(["in", "--out", "o", "--state", "s"])
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/s"))
    let again = try dir.run(["in", "--out", "o", "--state", "s"])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(again.stderr.contains("nothing new since "), again.stderr)
  }

  func testState_FileOverwritten_ReexportedWithWarning() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    XCTAssertEqual(try dir.run(["in", "--out", "out", "--state", "state.json"]).status, 0)
    let base = dir.root.appendingPathComponent("in/copy0/P001")
    let names = try FileManager.default.contentsOfDirectory(atPath: base.path).sorted()
    let target = base.appendingPathComponent(names[0])
    try FileManager.default.removeItem(at: target)
    try FileManager.default.copyItem(at: base.appendingPathComponent(names[1]), to: target)
    let result = try dir.run(["in", "--out", "out", "--state", "state.json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(
      result.stderr.contains("copy0/P001/\(names[0]): changed since the last export"),
      result.stderr)
  }

  func testState_PlainFileReplacedByAZip_ItsEntriesExportedNext() throws {
    // A nightly run does not open a file recorded under its own path and unchanged since, to
    // tell a zip: one that changed is opened, and a zip put in its place is listed.
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    XCTAssertEqual(try dir.run(["in", "--out", "out", "--state", "state.json"]).status, 0)
    let base = dir.root.appendingPathComponent("in/copy0/P001")
    let name = try FileManager.default.contentsOfDirectory(atPath: base.path).sorted()[0]
    let target = base.appendingPathComponent(name)
    try FileManager.default.removeItem(at: target)
    let zip = Workdir.packageRoot.appendingPathComponent(
      "Tests/RKImportTests/Fixtures/inputs/zip-mixed.zip")
    try FileManager.default.copyItem(at: zip, to: target)
    let result = try dir.run(["in", "--out", "out", "--state", "state.json"])
    XCTAssertEqual(result.status, 1, result.stderr)  // zip-mixed holds entries escaping it
    let deltas = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/out")
      .filter { $0.hasPrefix("delta-") }
    XCTAssertEqual(deltas.count, 1, "\(deltas)")
    let inputs = try dir.readCSV("out/" + deltas[0] + "/inputs.csv").dropFirst()
    // Only the zip was read: its entries, by hand from the fixture (three readable, two
    // escaping it), and nothing else.
    let zipPath = "copy0/P001/" + name
    XCTAssertEqual(
      inputs.map { $0[0] },
      [
        zipPath + "!/../evil.json", zipPath + "!//abs.json", zipPath + "!/P001/photo.png",
        zipPath + "!/P001/submission.json", zipPath + "!/notes.txt",
      ])
    XCTAssertEqual(inputs.map { $0[2] }, ["failed", "failed", "skipped", "ok", "skipped"])
  }

  func testState_FileTouchedSameBytes_NothingNewAndHashOfItsBytesKept() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    XCTAssertEqual(try dir.run(["in", "--out", "out", "--state", "state.json"]).status, 0)
    let before = try dir.snapshot("out")
    let folder = dir.root.appendingPathComponent("in/copy0/P001")
    let name = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()[0]
    let file = folder.appendingPathComponent(name)
    let bytes = try Data(contentsOf: file)
    try bytes.write(to: file)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file.path)

    let again = try dir.run(["in", "--out", "out", "--state", "state.json"])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(again.stderr.contains("nothing new since "), again.stderr)
    XCTAssertFalse(again.stderr.contains("changed since the last export"), again.stderr)
    XCTAssertEqual(try dir.snapshot("out"), before)

    // The state keeps the file's new timestamp and the FNV-1a 64 hash of its bytes (computed
    // here from the published constants, not with rkexport's own code).
    let stateFile = dir.root.appendingPathComponent("state.json")
    let state = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: stateFile)) as? [String: Any])
    let inputs = try XCTUnwrap(state["inputs"] as? [String: [String: Any]])
    let entry = try XCTUnwrap(
      inputs.first { $0.key.hasSuffix("copy0/P001/" + name) }?.value, "\(inputs.keys.sorted())")
    var hash: UInt64 = 14_695_981_039_346_656_037
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211
    }
    XCTAssertEqual(entry["hash"] as? String, String(format: "%016llx", hash))
    let modified = try XCTUnwrap(entry["modified"] as? Double)
    XCTAssertEqual(modified, Date(timeIntervalSinceNow: 60).timeIntervalSince1970, accuracy: 30)
  }

  func testAppend_NewAndChangedFiles_LongTablesEqualFullExport() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    XCTAssertEqual(try dir.run(["in", "--out", "out", "--state", "s.json", "--append"]).status, 0)
    try dir.makeCorpus(copies: 1..<2)
    let base = dir.root.appendingPathComponent("in/copy0/P002")
    let names = try FileManager.default.contentsOfDirectory(atPath: base.path).sorted()
    try FileManager.default.removeItem(at: base.appendingPathComponent(names[0]))
    try FileManager.default.copyItem(
      at: base.appendingPathComponent(names[1]), to: base.appendingPathComponent(names[0]))
    let second = try dir.run(["in", "--out", "out", "--state", "s.json", "--append"])
    XCTAssertEqual(second.status, 0, second.stderr)
    XCTAssertEqual(try dir.run(["in", "--out", "full"]).status, 0)
    for table in longTables {
      XCTAssertEqual(
        try dir.rowMultiset("out/" + table), try dir.rowMultiset("full/" + table), table)
    }
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path + "/full/wide") {
      XCTAssertEqual(
        try dir.rowMultiset("out/wide/" + name), try dir.rowMultiset("full/wide/" + name), name)
    }
    XCTAssertEqual(try dir.readCSV("out/summary.csv"), try dir.readCSV("full/summary.csv"))
  }

  func testLogFormatJSON_FailedInputAndSummary_EveryLineIsAnObject() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    try dir.write("in/copy0/P001/broken.archive", bytes: Array("bplist00".utf8) + [0, 1, 2])
    let result = try dir.run(["in", "--out", "out", "--log-format", "json"])
    XCTAssertEqual(result.status, 1, result.stderr)
    var events: [String] = []
    for line in result.stderr.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      XCTAssertNotNil(object, String(line))
      events.append(object?["event"] as? String ?? "")
      if object?["event"] as? String == "input_failed" {
        XCTAssertEqual(object?["path"] as? String, "copy0/P001/broken.archive")
      }
      if object?["event"] as? String == "summary" {
        XCTAssertEqual(object?["files_failed"] as? Int, 1)
      }
    }
    XCTAssertTrue(events.contains("input_failed"), "\(events)")
    XCTAssertEqual(events.last, "summary")
  }

  func testDuplicateRuns_ThreeCopies_First50InFileOrderAndEveryOneCounted() throws {
    // Each copy repeats the first's run UUIDs: the second and third copies' runs are all
    // duplicates of the first's, 2 × 80 of them.
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<3)
    let result = try dir.run(["in", "--out", "out", "--log-format", "json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    var shownPaths: [String] = []
    var omitted: Int?
    var summary: [String: Any] = [:]
    for line in result.stderr.split(separator: "\n") {
      let object = try XCTUnwrap(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      if object["kind"] as? String == "duplicate_task_run" {
        shownPaths.append(try XCTUnwrap(object["path"] as? String))
        XCTAssertTrue(
          (object["message"] as? String)?.contains("was already exported from copy0/") == true,
          "\(object)")
      }
      if object["event"] as? String == "duplicate_task_run" { omitted = object["omitted"] as? Int }
      if object["event"] as? String == "summary" { summary = object }
    }
    XCTAssertEqual(summary["task_runs"] as? Int, 240)
    XCTAssertEqual(shownPaths.count, 50)
    // The first 50 in file order: the second copy's, path by path.
    XCTAssertTrue(shownPaths.allSatisfy { $0.hasPrefix("copy1/") }, "\(shownPaths)")
    XCTAssertEqual(shownPaths, shownPaths.sorted())
    XCTAssertEqual(omitted, 110)
    XCTAssertEqual(summary["data_warnings"] as? Int, 160)
  }

  func testProgress_StderrNotATerminal_NoProgressBar() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    let result = try dir.run(["in", "--out", "out"])
    XCTAssertFalse(result.stderr.contains("\r"), result.stderr)
    XCTAssertFalse(result.stderr.contains(" left"), result.stderr)
  }

  func testProgress_UnderScript_DrawsTheBar() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
      throw XCTSkip("script(1) is not installed")
    }
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<2)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = [
      "-qc", "\(Workdir.binary.path) in --out out --jobs 1", dir.path + "/typescript",
    ]
    process.currentDirectoryURL = dir.root
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let text = try String(contentsOfFile: dir.path + "/typescript", encoding: .utf8)
    XCTAssertTrue(text.contains(" files "), text)
    XCTAssertTrue(text.contains(" left"), text)
  }

  func testSince_DateAfterAllRuns_ExportsNoTaskRuns() throws {
    let dir = try Workdir()
    try dir.makeCorpus(copies: 0..<1)
    let result = try dir.run(["in", "--out", "out", "--since", "2030-01-01"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try dir.readCSV("out/task_runs.csv").count, 1)
    let bad = try dir.run(["in", "--out", "out", "--since", "yesterday"])
    XCTAssertEqual(bad.status, 2, bad.stderr)
  }
}
