// Sharing flags end to end: pseudonymous ids, dropped free text, Excel-safe CSV (issue 5).
import Foundation
import XCTest

final class PrivacyFlagsTests: XCTestCase {
  static let study = Workdir.packageRoot.appendingPathComponent("samples/study").path

  func testPseudonymize_KeyFile_IdsAreKeyedHMACEverywhere() throws {
    let dir = try Workdir()
    let key = Array("0123456789abcdef-study-key".utf8)
    try dir.write("study.key", bytes: key)
    let result = try dir.run([Self.study, "--out", "out", "--pseudonymize-key-file", "study.key"])
    XCTAssertEqual(result.status, 0, result.stderr)
    // Expected pseudonym computed independently with Python's hmac module.
    let expected = try python(
      "import hmac,hashlib;print('p'+hmac.new(b'0123456789abcdef-study-key',b'P001',"
        + "hashlib.sha256).hexdigest()[:16])")
    let runs = try dir.readCSV("out/task_runs.csv")
    XCTAssertTrue(runs.dropFirst().contains { $0[0] == expected }, "no row for \(expected)")
    XCTAssertFalse(runs.dropFirst().contains { $0[0].hasPrefix("P0") }, "a real id is left")
    for name in ["task_runs.csv", "steps.csv", "answers.csv", "inputs.csv"] {
      let text = try String(
        contentsOf: dir.root.appendingPathComponent("out/" + name), encoding: .utf8)
      XCTAssertFalse(text.contains("P001"), "\(name) still shows P001")
    }
  }

  func testPseudonymize_ShortKey_UsageErrorNamesFile() throws {
    let dir = try Workdir()
    try dir.write("short.key", bytes: Array("short\n".utf8))
    let result = try dir.run([Self.study, "--out", "out", "--pseudonymize-key-file", "short.key"])
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.stderr.contains("short.key"), result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/out/answers.csv"))
  }

  func testDropFreeText_TextAnswersBlankRowsKept() throws {
    let dir = try Workdir()
    let plain = try dir.run([Self.study, "--out", "plain"])
    let dropped = try dir.run([Self.study, "--out", "dropped", "--drop-free-text"])
    XCTAssertEqual(plain.status, 0)
    XCTAssertEqual(dropped.status, 0)
    let before = try dir.readCSV("plain/answers.csv")
    let after = try dir.readCSV("dropped/answers.csv")
    XCTAssertEqual(before.count, after.count, "rows are kept")
    let type = before[0].firstIndex(of: "answer_type") ?? 0
    let value = before[0].firstIndex(of: "value") ?? 0
    let status = before[0].firstIndex(of: "status") ?? 0
    var texts = 0
    for (old, new) in zip(before.dropFirst(), after.dropFirst()) where old[type] == "text" {
      texts += 1
      XCTAssertEqual(new[value], "", "text answer kept: \(old[value])")
      XCTAssertEqual(new[status], old[status])
    }
    XCTAssertGreaterThan(texts, 10)
    for (old, new) in zip(before.dropFirst(), after.dropFirst()) where old[type] == "numeric" {
      XCTAssertEqual(new[value], old[value], "numbers stay")
    }
  }

  func testExcelSafe_FormulaLikeTextPrefixedNumbersUntouched() throws {
    let dir = try Workdir()
    let result = try dir.run([Self.study, "--out", "out", "--excel-safe"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let answers = try dir.readCSV("out/answers.csv")
    let value = answers[0].firstIndex(of: "value") ?? 0
    let values = answers.dropFirst().map { $0[value] }
    // P002 typed "=1+1 is what I wrote in the diary" (samples/README.md).
    XCTAssertTrue(values.contains("'=1+1 is what I wrote in the diary"), "no neutralised formula")
    XCTAssertFalse(values.contains { $0.hasPrefix("=") })
    let plain = try dir.run([Self.study, "--out", "plain"])
    XCTAssertEqual(plain.status, 0)
    let unchanged = try dir.readCSV("plain/answers.csv").dropFirst().map { $0[value] }
    XCTAssertTrue(unchanged.contains("=1+1 is what I wrote in the diary"), "off by default")
  }

  func testBOM_Flag_EveryCSVStartsWithIt_OffByDefault() throws {
    let dir = try Workdir()
    XCTAssertEqual(try dir.run([Self.study, "--out", "bom", "--bom"]).status, 0)
    XCTAssertEqual(try dir.run([Self.study, "--out", "plain"]).status, 0)
    for name in ["answers.csv", "task_runs.csv", "wide/pain.csv", "summary.csv", "inputs.csv"] {
      let bom = try Data(contentsOf: dir.root.appendingPathComponent("bom/" + name))
      let plain = try Data(contentsOf: dir.root.appendingPathComponent("plain/" + name))
      XCTAssertEqual(Array(bom.prefix(3)), [0xEF, 0xBB, 0xBF], name)
      XCTAssertEqual(bom.dropFirst(3), plain, "\(name): the BOM is the only difference")
    }
  }

  private func python(_ code: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", code]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
