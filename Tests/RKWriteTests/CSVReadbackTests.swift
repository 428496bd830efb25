// CSV read back by an independent reader: Python's csv module must see our exact strings.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class CSVReadbackTests: XCTestCase {
  func testCSVReadback_PythonCSVModule_SameFields() throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("tricky.csv").path
    let fields = [
      "plain", "comma, inside", "\"quoted\"", "line1\nline2", "cr\r\nlf", "", " spaced ",
      "ünïcödé ✓ 😀", "=1+2", "trailing quote\"", ";semi;", "tab\there",
    ]
    let schema = TableSchema(
      name: "t", columns: fields.indices.map { Column("c\($0)", .string, "test column") })
    let writer = try CSVWriter(path: path, schema: schema)
    try writer.write(fields.map { .text($0) })
    try writer.write(
      [.integer(-7), .number(text: "0.1", value: 0.1), .bool(false)]
        + Array(repeating: Cell.empty, count: fields.count - 3))
    try writer.finish()

    let script = """
      import csv, json, sys
      with open(sys.argv[1], newline='', encoding='utf-8') as f:
          print(json.dumps(list(csv.reader(f))))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: output) as? [[String]])
    XCTAssertEqual(rows.count, 3)
    XCTAssertEqual(rows[0], fields.indices.map { "c\($0)" })
    XCTAssertEqual(rows[1], fields)
    XCTAssertEqual(Array(rows[2].prefix(4)), ["-7", "0.1", "false", ""])
  }
}
