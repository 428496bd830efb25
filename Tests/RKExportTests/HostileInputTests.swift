// A folder of good archives mixed with broken and hostile files (Fixtures/hostile/README.md).
import Foundation
import XCTest

final class HostileInputTests: XCTestCase {
  static let hostile = Workdir.packageRoot.appendingPathComponent(
    "Tests/RKExportTests/Fixtures/hostile")

  /// Expected status per file, from the fixture README (several where the README allows several).
  static let expected: [String: Set<String>] = [
    "README.md": ["skipped"],
    "good-rk1-eligibility.archive": ["ok"],
    "good-rk3-fever.archive": ["ok"],
    "truncated-binary.archive": ["failed"],
    "truncated-xml.plist": ["failed"],
    "wrong-magic-bplist99.archive": ["failed", "skipped"],
    "garbage-random-bytes.bin": ["skipped"],
    "empty.archive": ["skipped", "failed"],
    "photo.png": ["skipped"],
    "voice.m4a": ["skipped"],
    "cyclic-uid.archive": ["failed"],
    "deep-uid-chain.archive": ["failed", "ok"],
    "deep-plist-nesting.archive": ["failed"],
    "huge-array-count.archive": ["failed"],
    "uid-out-of-range.archive": ["failed"],
    "huge-object-count.archive": ["failed"],
    "offset-table-out-of-range.archive": ["failed"],
    "not-a-task-result.archive": ["failed"],
  ]

  func testExport_HostileFolder_ExportsGoodListsBadExitsOne() throws {
    let dir = try Workdir()
    let result = try dir.run(
      [HostileInputTests.hostile.path, "--out", "out", "--jobs", "2"], timeout: 60)
    XCTAssertEqual(result.status, 1, result.command + "\n" + result.stderr)

    let inputs = try dir.readCSV("out/inputs.csv")
    XCTAssertEqual(inputs.first, ["path", "format", "status", "task_runs", "answers", "error"])
    var seen: [String: [String]] = [:]
    for row in inputs.dropFirst() { seen[row[0]] = row }
    XCTAssertEqual(
      Set(seen.keys), Set(HostileInputTests.expected.keys), "every file is listed once")
    for (file, allowed) in HostileInputTests.expected {
      guard let row = seen[file] else { continue }
      XCTAssertTrue(allowed.contains(row[2]), "\(file): status \(row[2]), expected \(allowed)")
      if row[2] == "failed" {
        XCTAssertFalse(row[5].isEmpty, "\(file): a failure must say why")
        XCTAssertTrue(result.stderr.contains(file), "\(file): stderr must name the file")
      }
    }
    XCTAssertEqual(seen["good-rk1-eligibility.archive"]?[3], "1")
    XCTAssertEqual(seen["good-rk3-fever.archive"]?[3], "1")

    // The good archives are exported in full: both runs appear in task_runs.csv.
    let runs = try dir.readCSV("out/task_runs.csv")
    let sources = Set(runs.dropFirst().map { $0[7] })
    XCTAssertTrue(
      sources.isSuperset(of: ["good-rk1-eligibility.archive", "good-rk3-fever.archive"]))
  }

  func testExport_HostileFolder_ReasonsNameTheProblem() throws {
    let dir = try Workdir()
    try dir.run([HostileInputTests.hostile.path, "--out", "out"], timeout: 60)
    var errors: [String: String] = [:]
    for row in try dir.readCSV("out/inputs.csv").dropFirst() {
      errors[row[0]] = row[5].lowercased()
    }
    XCTAssertTrue(
      errors["cyclic-uid.archive"]?.contains("cycle") ?? false, errors["cyclic-uid.archive"] ?? "")
    XCTAssertTrue(
      errors["uid-out-of-range.archive"]?.contains("out of range") ?? false,
      errors["uid-out-of-range.archive"] ?? "")
    XCTAssertTrue(
      errors["deep-plist-nesting.archive"]?.contains("deep") ?? false,
      errors["deep-plist-nesting.archive"] ?? "")
  }

  func testExport_SameInputs_IdenticalOutputsWhateverTheJobs() throws {
    let samples = Workdir.packageRoot.appendingPathComponent("samples").path
    let dir = try Workdir()
    let one = try dir.run([samples, "--out", "one", "--jobs", "1"])
    let two = try dir.run([samples, "--out", "two", "--jobs", "2"])
    XCTAssertEqual(one.status, two.status)
    let names = [
      "answers.csv", "steps.csv", "task_runs.csv", "inputs.csv", "summary.csv", "choices.csv",
      "codebook.csv",
    ]
    // The wide tables too: with two jobs two threads write them, each its share of the tasks.
    let wide = try FileManager.default.contentsOfDirectory(
      atPath: dir.root.appendingPathComponent("one/wide").path
    ).sorted()
    XCTAssertGreaterThanOrEqual(wide.count, 2)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(
        atPath: dir.root.appendingPathComponent("two/wide").path
      ).sorted(), wide)
    for name in names + wide.map({ "wide/" + $0 }) {
      let a = try Data(contentsOf: dir.root.appendingPathComponent("one/\(name)"))
      let b = try Data(contentsOf: dir.root.appendingPathComponent("two/\(name)"))
      XCTAssertEqual(a, b, "\(name) differs between --jobs 1 and --jobs 2")
    }
  }
}
