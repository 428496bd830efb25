// The workbook written on its own thread, with one parsing thread and with two.
import Foundation
import XCTest

@testable import RKPipeline

final class ExportWorkbookTests: XCTestCase {
  private let samples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("samples/study").path

  private func export(jobs: Int, into folder: String) throws -> ExportReport {
    var options = ExportOptions(
      inputs: [samples], outputDirectory: folder, jobs: jobs, writeXLSX: true)
    options.fileTimeoutSeconds = 60
    return try ExportRun(options: options).run(log: RunLog(quiet: true, write: { _ in }))
  }

  func testExport_WorkbookThread_WrittenForOneAndTwoJobs() throws {
    let scratch = uniqueTemporaryPath("workbook")
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let one = try export(jobs: 1, into: scratch + "/one")
    let two = try export(jobs: 2, into: scratch + "/two")
    XCTAssertTrue(one.outputs.contains("results.xlsx"))
    XCTAssertEqual(one.outputs, two.outputs)
    for run in ["one", "two"] {
      let book = FileManager.default.contents(atPath: scratch + "/\(run)/results.xlsx")
      XCTAssertGreaterThan(book?.count ?? 0, 5_000, run)
    }
    // Every answer reached the workbook thread: the CSV and the report agree.
    XCTAssertEqual(one.answers, two.answers)
    XCTAssertGreaterThan(one.answers, 0)
  }
}
