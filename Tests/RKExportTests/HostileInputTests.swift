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

  /// A task with more questions than a sheet has columns (found by fuzzing: with --xlsx the
  /// whole export failed, no CSV either): its wide table is in its CSV only, the workbook has
  /// every other sheet, and a warning says so.
  func testExport_WideTableWiderThanASheet_CSVOnlyAndWarned() throws {
    let dir = try Workdir()
    let results = (0..<16_400).map { index in
      #"{"_class":"ORKScaleQuestionResult","identifier":"q\#(index)","scaleAnswer":\#(index % 7)}"#
    }
    let document =
      #"{"_class":"ORKTaskResult","identifier":"wide","results":[{"_class":"ORKStepResult","#
      + #""identifier":"s","results":[\#(results.joined(separator: ","))]}]}"#
    try dir.write("in/run.json", bytes: Array(document.utf8))
    let result = try dir.run(["in", "--out", "out", "--xlsx"], timeout: 120)
    XCTAssertEqual(result.status, 0, result.command + "\n" + result.stderr)
    XCTAssertTrue(
      result.stderr.contains(
        "results.xlsx: the wide table of task wide has 16405 columns, more than a sheet's "
          + "16384: it is in wide/wide.csv only"), result.stderr)
    let wide = try dir.readCSV("out/wide/wide.csv")
    XCTAssertEqual(wide.first?.count, 16_405)
    XCTAssertEqual(wide.count, 2)
    XCTAssertEqual(try dir.readCSV("out/answers.csv").count, 16_401)
    // The workbook's sheets, read by Python's zipfile (an independent reader).
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = [
      "python3", "-c",
      "import re, sys, zipfile; print(' '.join(re.findall(r'<sheet name=\"([^\"]+)\"', "
        + "zipfile.ZipFile(sys.argv[1]).read('xl/workbook.xml').decode())))",
      dir.root.appendingPathComponent("out/results.xlsx").path,
    ]
    let pipe = Pipe()
    python.standardOutput = pipe
    try python.run()
    let sheets = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    python.waitUntilExit()
    XCTAssertEqual(
      sheets.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) },
      ["summary", "choices", "answers", "steps", "task_runs", "inputs", "codebook"])
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
