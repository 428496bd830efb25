// One run over every format at once (issue 4): all land in the same tables, each format named.
import Foundation
import XCTest

final class MixedInputsTests: XCTestCase {
  func testExport_AllSampleFormatsInOneRun_SameTablesAndFormatsNamed() throws {
    let dir = try Workdir()
    let samples = Workdir.packageRoot.appendingPathComponent("samples").path
    // Unrelated files beside the results: listed as skipped, never as failures.
    try FileManager.default.copyItem(atPath: samples, toPath: dir.path + "/in")
    try dir.write("in/study/P001/photo.jpg", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])
    try dir.write("in/study/P001/voice.m4a", bytes: Array("\0\0\0 ftypM4A junk".utf8))
    let result = try dir.run([
      "in", "--out", "out", "--participant-pattern", "^[^/]+/([^/]+)/",
      "--survey-definition", "in/surveynative/lifestyle.json",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)

    let inputs = try dir.readCSV("out/inputs.csv")
    func format(of path: String) -> (String, String)? {
      inputs.first { $0[0] == path }.map { ($0[1], $0[2]) }
    }
    let expected: [(String, String, String)] = [
      ("study/P001/eligibility-20160517-1840.archive", "keyed-archive-binary", "ok"),
      ("study/P002/eligibility-20160518-1119.plist", "keyed-archive-xml", "ok"),
      ("researchkit-json/P101/registration-2017-03-09.json", "researchkit-json", "ok"),
      ("bridge-upload/P011/upload1.zip", "bridge-upload", "ok"),
      ("bridge-upload/P012/upload2", "bridge-upload", "ok"),
      ("study/P001/photo.jpg", "unknown", "skipped"),
      ("study/P001/voice.m4a", "unknown", "skipped"),
    ]
    for (path, wantedFormat, wantedStatus) in expected {
      guard let (found, status) = format(of: path) else {
        XCTFail("\(path) missing from inputs.csv")
        continue
      }
      XCTAssertEqual(found, wantedFormat, path)
      XCTAssertEqual(status, wantedStatus, path)
    }
    XCTAssertTrue(inputs.contains { $0[1] == "surveynative" && $0[2] == "ok" })
    XCTAssertFalse(inputs.contains { $0[2] == "failed" })

    // Every format's runs share task_runs.csv, each with its participant from the folder.
    let runs = try dir.readCSV("out/task_runs.csv")
    let participants = Set(runs.dropFirst().map { $0[0] })
    for id in ["P001", "P011", "P012", "P013", "P021", "P101"] {
      XCTAssertTrue(participants.contains(id), "no run of \(id): \(participants.sorted())")
    }
    let tasks = Set(runs.dropFirst().map { $0[1] })
    XCTAssertTrue(
      tasks.isSuperset(of: ["eligibility", "lifestyle", "registration", "DailyPrompt"]))
  }
}
