// datapackage.json: descriptor content, atomic writing, and `frictionless validate` on real CSVs.
import Foundation
import RKTable
import XCTest

@testable import RKWrite

final class DataPackageWriterTests: XCTestCase {
  // MARK: Fixture schemas: a parent table and a wide table that refers to it.

  private let runs = TableSchema(
    name: "task_runs",
    columns: [
      Column("task_run_uuid", .string, "Run UUID."),
      Column("task_start", .datetime, "Start of the run."),
      Column("n_steps", .integer, "Steps in the run."),
      Column("task_duration_s", .number, "Seconds from start to end.", unit: "s"),
    ],
    primaryKey: ["task_run_uuid"])

  private let wide = TableSchema(
    name: "wide/Sleep Survey",
    columns: [
      Column("task_run_uuid", .string, "Run UUID."),
      Column("mood", .string, "How do you feel?", categories: ["good", "bad"]),
      Column("pain", .integer, "Any pain (0/1).", categories: ["0", "1"]),
      Column("done", .boolean, "Finished.", categories: ["true", "false"]),
    ],
    primaryKey: ["task_run_uuid"],
    foreignKeys: [
      ForeignKey(
        columns: ["task_run_uuid"], referencedTable: "task_runs",
        referencedColumns: ["task_run_uuid"])
    ])

  func testDataPackage_Descriptor_DescribesEveryTableAndField() throws {
    let object = try parse(DataPackageWriter.json(schemas: [runs, wide]))
    XCTAssertEqual(object["profile"] as? String, "tabular-data-package")
    XCTAssertEqual(object["name"] as? String, "rkexport")
    let resources = try XCTUnwrap(object["resources"] as? [[String: Any]])
    XCTAssertEqual(resources.map { $0["name"] as? String }, ["task_runs", "wide/sleep-survey"])
    XCTAssertEqual(
      resources.map { $0["path"] as? String }, ["task_runs.csv", "wide/Sleep Survey.csv"])
    for resource in resources {
      XCTAssertEqual(resource["profile"] as? String, "tabular-data-resource")
      XCTAssertEqual(resource["format"] as? String, "csv")
      XCTAssertEqual(resource["encoding"] as? String, "utf-8")
    }
    let schema = try XCTUnwrap(resources[0]["schema"] as? [String: Any])
    XCTAssertEqual(schema["missingValues"] as? [String], [""])
    XCTAssertEqual(schema["primaryKey"] as? [String], ["task_run_uuid"])
    let fields = try XCTUnwrap(schema["fields"] as? [[String: Any]])
    XCTAssertEqual(
      fields.map { $0["type"] as? String }, ["string", "datetime", "integer", "number"])
    XCTAssertEqual(fields[3]["unit"] as? String, "s")
    XCTAssertEqual(fields[1]["description"] as? String, "Start of the run.")
  }

  func testDataPackage_Categories_BecomeTypedEnumAndCategories() throws {
    let object = try parse(DataPackageWriter.json(schemas: [wide]))
    let resources = try XCTUnwrap(object["resources"] as? [[String: Any]])
    let schema = try XCTUnwrap(resources.first?["schema"] as? [String: Any])
    let fields = try XCTUnwrap(schema["fields"] as? [[String: Any]])
    let mood = try XCTUnwrap(fields[1]["constraints"] as? [String: Any])
    XCTAssertEqual(mood["enum"] as? [String], ["good", "bad"])
    XCTAssertEqual(fields[1]["categories"] as? [String], ["good", "bad"])
    let pain = try XCTUnwrap(fields[2]["constraints"] as? [String: Any])
    XCTAssertEqual(pain["enum"] as? [Int], [0, 1])
    let done = try XCTUnwrap(fields[3]["constraints"] as? [String: Any])
    XCTAssertEqual(done["enum"] as? [Bool], [true, false])
  }

  func testDataPackage_ForeignKey_NamesReferencedResource() throws {
    let object = try parse(DataPackageWriter.json(schemas: [runs, wide]))
    let resources = try XCTUnwrap(object["resources"] as? [[String: Any]])
    let schema = try XCTUnwrap(resources.last?["schema"] as? [String: Any])
    let key = try XCTUnwrap((schema["foreignKeys"] as? [[String: Any]])?.first)
    XCTAssertEqual(key["fields"] as? [String], ["task_run_uuid"])
    let reference = try XCTUnwrap(key["reference"] as? [String: Any])
    XCTAssertEqual(reference["resource"] as? String, "task_runs")
    XCTAssertEqual(reference["fields"] as? [String], ["task_run_uuid"])
  }

  func testDataPackage_SelfReference_UsesEmptyResourceName() throws {
    let tree = TableSchema(
      name: "steps", columns: [Column("id", .string, "Id."), Column("parent", .string, "Id.")],
      primaryKey: ["id"],
      foreignKeys: [
        ForeignKey(columns: ["parent"], referencedTable: "steps", referencedColumns: ["id"])
      ])
    let object = try parse(DataPackageWriter.json(schemas: [tree]))
    let resources = try XCTUnwrap(object["resources"] as? [[String: Any]])
    let schema = try XCTUnwrap(resources.first?["schema"] as? [String: Any])
    let key = try XCTUnwrap((schema["foreignKeys"] as? [[String: Any]])?.first)
    XCTAssertEqual((key["reference"] as? [String: Any])?["resource"] as? String, "")
  }

  func testDataPackage_ClashingNames_GetNumberedSuffix() throws {
    let object = try parse(
      DataPackageWriter.json(
        schemas: [
          TableSchema(name: "wide/A", columns: []), TableSchema(name: "wide/a", columns: []),
        ]
      ))
    let resources = try XCTUnwrap(object["resources"] as? [[String: Any]])
    XCTAssertEqual(resources.map { $0["name"] as? String }, ["wide/a", "wide/a-2"])
  }

  func testDataPackage_SameSchemas_SameBytes() {
    XCTAssertEqual(
      DataPackageWriter.json(schemas: [runs, wide]), DataPackageWriter.json(schemas: [runs, wide]))
  }

  func testDataPackageWrite_ExistingFile_IsReplacedWithoutLeftovers() throws {
    let folder = try scratchFolder()
    let path = folder.appendingPathComponent("datapackage.json")
    try Data("old".utf8).write(to: path)
    try DataPackageWriter.write(schemas: [runs], toDirectory: folder.path)
    let written = try String(contentsOf: path, encoding: .utf8)
    XCTAssertEqual(written, DataPackageWriter.json(schemas: [runs]))
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder.path), ["datapackage.json"])
  }

  func testDataPackageWrite_WideTable_SameBytesAsJSONHandedOverInChunks() throws {
    let columns = (0..<5_000).map { Column("q\($0)", .string, "Question \($0)?") }
    let many = TableSchema(name: "wide/Many", columns: columns)
    let schemas = [runs, many, TableSchema(name: "empty", columns: []), wide]
    var pieces: [[UInt8]] = []
    DataPackageWriter.utf8(packageName: "rkexport", schemas: schemas) { pieces.append($0) }
    XCTAssertGreaterThan(pieces.count, 2)
    XCTAssertLessThan(pieces.map(\.count).max() ?? 0, 2 * DataPackageWriter.chunk)
    let text = DataPackageWriter.json(schemas: schemas)
    XCTAssertEqual(Array(pieces.joined()), Array(text.utf8))
    let folder = try scratchFolder()
    try DataPackageWriter.write(schemas: schemas, toDirectory: folder.path)
    let written = try Data(contentsOf: folder.appendingPathComponent("datapackage.json"))
    XCTAssertEqual(written, Data(text.utf8))
    let resources = try XCTUnwrap(parse(text)["resources"] as? [[String: Any]])
    let fieldCounts = resources.map {
      (($0["schema"] as? [String: Any])?["fields"] as? [Any])?.count
    }
    XCTAssertEqual(fieldCounts, [4, 5_000, 0, 4])
  }

  func testDataPackageWrite_MissingFolder_ThrowsWithPath() throws {
    let folder = try scratchFolder().appendingPathComponent("absent")
    XCTAssertThrowsError(try DataPackageWriter.write(schemas: [runs], toDirectory: folder.path)) {
      error in
      let writeError = error as? WriteError
      XCTAssertEqual(writeError?.path, "\(folder.path)/datapackage.json")
      XCTAssertEqual(writeError?.errorNumber, ENOENT)
    }
  }

  // MARK: - frictionless validate

  func testDataPackage_FrictionlessValidate_AcceptsMatchingCSVs() throws {
    let folder = try writeExport(wideRows: "abc-1,good,1,true\nabc-2,,0,\n")
    let (status, output) = try frictionless(in: folder)
    XCTAssertEqual(status, 0, output)
  }

  func testDataPackage_FrictionlessValidate_RejectsBrokenForeignKey() throws {
    let folder = try writeExport(wideRows: "abc-1,good,1,true\nabc-9,bad,0,false\n")
    let (status, output) = try frictionless(in: folder)
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(output.contains("foreign-key"), output)
  }

  func testDataPackage_FrictionlessValidate_RejectsValueOutsideCategories() throws {
    let folder = try writeExport(wideRows: "abc-1,meh,1,true\n")
    let (status, output) = try frictionless(in: folder)
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(output.contains("constraint-error"), output)
  }

  // MARK: - Helpers

  /// Hand-written CSVs in the shape of the schemas: instants with `Z` and with an offset.
  private func writeExport(wideRows: String) throws -> URL {
    let folder = try scratchFolder()
    let runsCSV = """
      task_run_uuid,task_start,n_steps,task_duration_s
      abc-1,2016-05-16T19:34:25.846Z,3,12.5
      abc-2,2016-05-16T21:34:25.846+02:00,0,

      """
    try runsCSV.write(
      to: folder.appendingPathComponent("task_runs.csv"), atomically: true, encoding: .utf8)
    let wideFolder = folder.appendingPathComponent("wide")
    try FileManager.default.createDirectory(at: wideFolder, withIntermediateDirectories: true)
    try ("task_run_uuid,mood,pain,done\n" + wideRows).write(
      to: wideFolder.appendingPathComponent("Sleep Survey.csv"), atomically: true,
      encoding: .utf8)
    try DataPackageWriter.write(schemas: [runs, wide], toDirectory: folder.path)
    return folder
  }

  private func frictionless(in folder: URL) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["frictionless", "validate", "datapackage.json"]
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "200"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    if process.terminationStatus == 127 { throw XCTSkip("frictionless CLI not installed") }
    return (process.terminationStatus, output)
  }

  private func scratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("rkexport-datapackage-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
  }

  private func parse(_ text: String) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }
}

final class JSONTextBytesTests: XCTestCase {
  func testJSONText_Bytes_SameLiteralAsString() {
    let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
    for text in ["", "plain", "q\"b\\s/", controls, "ünï 😀\u{7F}", "\n\"\\" + controls + "x"] {
      var string = ""
      JSONText.appendString(text, to: &string)
      var bytes: [UInt8] = [0x41]
      JSONText.appendString(text, to: &bytes)
      XCTAssertEqual(bytes, [0x41] + Array(string.utf8), text.debugDescription)
    }
  }

  func testDataPackageJSON_NestedValues_IndentedAsBefore() {
    let value = DataPackageJSON.object([
      ("a", .array([.string("x"), .number("1"), .bool(false)])),
      ("b", .array([.object([]), .object([("c", .bool(true))])])),
      ("d", .array([])),
    ])
    XCTAssertEqual(
      value.text(),
      "{\n  \"a\": [\"x\", 1, false],\n  \"b\": [\n    {},\n    {\n      \"c\": true\n    }\n  ],\n"
        + "  \"d\": []\n}")
  }

  func testDataPackageJSON_LazyArray_SameTextAsArray() {
    let items: [DataPackageJSON] = [.object([]), .object([("c", .array([.bool(true)]))])]
    for items in [items, []] {
      let eager = DataPackageJSON.object([("a", .array(items))])
      let lazy = DataPackageJSON.object([("a", .lazyArray(count: items.count) { items[$0] })])
      XCTAssertEqual(lazy.text(indent: 2), eager.text(indent: 2))
    }
  }
}
