// The walk opens no file: a zip is told and listed when it is read. With a --state that has
// entries for a zip, the walk lists it first (the plan judges its entries by the zip). Both
// must give the same outputs, byte for byte.
import Foundation
import XCTest

final class ZipsAtImportTests: XCTestCase {
  /// Every zip fixture (Bridge uploads top and one down, nested zips, escaping and odd entry
  /// paths, damaged, encrypted, a bomb), archives beside them, a zip named like a plain file,
  /// and a zip whose name begins its siblings' names (`a.zip 2.archive`, `a.zip!x.archive`,
  /// folder `a.zip!`), whose entries sort after those siblings.
  private func makeTree(_ dir: Workdir) throws {
    let manager = FileManager.default
    let fixtures = Workdir.packageRoot.appendingPathComponent("Tests/RKImportTests/Fixtures/inputs")
      .path
    let samples = Workdir.packageRoot.appendingPathComponent("samples").path
    try manager.createDirectory(atPath: dir.path + "/in/P1", withIntermediateDirectories: true)
    try manager.createDirectory(
      atPath: dir.path + "/in/P2/a.zip!", withIntermediateDirectories: true)
    let zips = try manager.contentsOfDirectory(atPath: fixtures).filter { $0.hasSuffix(".zip") }
    XCTAssertGreaterThan(zips.count, 10)
    for name in zips {
      try manager.copyItem(atPath: fixtures + "/" + name, toPath: dir.path + "/in/P1/" + name)
    }
    let archive = samples + "/study/P001/eligibility-20160517-1840.archive"
    try manager.copyItem(atPath: archive, toPath: dir.path + "/in/P1/eligibility.archive")
    try manager.copyItem(
      atPath: fixtures + "/zip-nested.zip", toPath: dir.path + "/in/P1/zip-nested.bin")
    try manager.copyItem(atPath: fixtures + "/zip-mixed.zip", toPath: dir.path + "/in/P2/a.zip")
    for name in ["a.zip 2.archive", "a.zip!x.archive", "a.zip!/b.archive"] {
      try manager.copyItem(atPath: archive, toPath: dir.path + "/in/P2/" + name)
    }
  }

  /// `text` with the summary line's ` in 4.2 s` removed.
  private func withoutElapsedTime(_ text: String) -> String {
    text.replacingOccurrences(
      of: #" in [0-9]+\.[0-9] s$"#, with: "", options: .regularExpression)
  }

  /// Every file below `folder`, by path, with its bytes.
  private func files(_ folder: String) throws -> [String: Data] {
    var found: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory)
      if !isDirectory.boolValue {
        found[path] = FileManager.default.contents(atPath: folder + "/" + path)
      }
    }
    return found
  }

  /// A state with an entry under each zip's own path (a zip that was a plain file when
  /// last read): the walk lists those zips; the other files wait for import. Its entries'
  /// sizes match nothing, and nothing else is recorded, so every input is read as new.
  private func writeStateListingZips(_ dir: Workdir, to name: String, output: String) throws {
    var entries: [String] = []
    for folder in ["P1", "P2"] {
      for file in try FileManager.default.contentsOfDirectory(atPath: dir.path + "/in/" + folder)
      where file.hasSuffix(".zip") || file.hasSuffix(".bin") {
        entries.append(
          #""in/\#(folder)/\#(file)" : {"hash" : "", "modified" : 0, "size" : 0, "#
            + #""status" : "ok", "taskRunUUIDs" : []}"#)
      }
    }
    XCTAssertGreaterThan(entries.count, 10)
    let text =
      #"{"exportedAt" : "2026-01-01T00:00:00Z", "inputs" : {"# + entries.joined(separator: ", ")
      + #"}, "outputDirectory" : "\#(output)", "version" : 1}"#
    try text.write(toFile: dir.path + "/" + name, atomically: true, encoding: .utf8)
  }

  func testZipsListedAtImport_SameOutputsAsListedByTheWalk() throws {
    let dir = try Workdir()
    try makeTree(dir)
    for jobs in ["1", "2"] {
      let atImport = try dir.run(["in", "--out", "import-\(jobs)", "--jobs", jobs, "--xlsx"])
      // A first --state run lists zips at import too.
      let firstState = try dir.run([
        "in", "--out", "state-\(jobs)", "--jobs", jobs, "--xlsx", "--state", "first-\(jobs).json",
      ])
      try writeStateListingZips(dir, to: "state-\(jobs).json", output: "walk-\(jobs)")
      let byWalk = try dir.run([
        "in", "--out", "walk-\(jobs)", "--jobs", jobs, "--xlsx", "--state", "state-\(jobs).json",
      ])
      // Some fixtures are damaged on purpose.
      XCTAssertEqual(atImport.status, 1, atImport.stderr)
      XCTAssertEqual(byWalk.status, 1, byWalk.stderr)
      // The same messages; the summary's elapsed time may differ (`in 0.0 s`, `in 0.1 s`).
      // The zips the walk cannot list are inputs under their own paths, which the state
      // recorded: read again, with a warning.
      let changed = ": changed since the last export; exported again"
      let walkLines = withoutElapsedTime(byWalk.stderr).split(
        separator: "\n", omittingEmptySubsequences: false)
      XCTAssertEqual(
        walkLines.filter { $0.hasSuffix(changed) },
        ["zip-encrypted.zip", "zip-truncated.zip"].map { "rkexport: warning: P1/\($0)" + changed })
      XCTAssertEqual(
        withoutElapsedTime(atImport.stderr),
        walkLines.filter { !$0.hasSuffix(changed) }.joined(separator: "\n"))
      XCTAssertTrue(atImport.stderr.contains("answers in "), atImport.stderr)
      XCTAssertFalse(withoutElapsedTime(atImport.stderr).contains("answers in "))
      XCTAssertEqual(firstState.status, 1, firstState.stderr)
      XCTAssertEqual(withoutElapsedTime(atImport.stderr), withoutElapsedTime(firstState.stderr))
      // The run with a state writes a delta folder; it holds every output.
      let deltas = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/walk-\(jobs)")
        .filter { $0.hasPrefix("delta-") }
      XCTAssertEqual(deltas.count, 1, "\(deltas)")
      let imported = try files(dir.path + "/import-\(jobs)")
      for (other, folder) in [
        ("state", "state-\(jobs)"), ("walk", "walk-\(jobs)/" + (deltas.first ?? "")),
      ] {
        let read = try files(dir.path + "/" + folder)
        XCTAssertEqual(imported.keys.sorted(), read.keys.sorted(), other)
        for (path, bytes) in imported where path != "results.xlsx" {
          XCTAssertEqual(bytes, read[path], "\(path) differs (\(other), jobs \(jobs))")
        }
      }
    }
    // Nothing lost: the 18 entries of zip-odd-paths (more than are read together on one
    // thread) each have a row, its escaping ones among them in path order.
    let inputs = try dir.readCSV("import-2/inputs.csv").map { $0[0] }
    let odd = inputs.filter { $0.hasPrefix("P1/zip-odd-paths.zip!/") }
    XCTAssertGreaterThanOrEqual(odd.count, 12, "\(odd)")
    XCTAssertEqual(odd, odd.sorted())
    XCTAssertTrue(odd.contains("P1/zip-odd-paths.zip!/../up.txt"), "\(odd)")
    // The zip named like a plain file is listed, and its nested zips too.
    XCTAssertTrue(inputs.contains { $0.hasPrefix("P1/zip-nested.bin!/batch/answers.zip!/") })
    // Its siblings sort between the zip and its entries, as the walk sorts them.
    let second = try XCTUnwrap(inputs.firstIndex(of: "P2/a.zip 2.archive"))
    let entry = try XCTUnwrap(inputs.firstIndex(of: "P2/a.zip!/P001/submission.json"))
    XCTAssertLessThan(second, entry)
    // Every row of inputs.csv is in path order, problems too.
    let paths = Array(inputs.dropFirst())
    XCTAssertEqual(paths, paths.sorted(), "inputs.csv not in path order")
  }
}
