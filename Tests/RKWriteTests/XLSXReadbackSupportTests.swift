// Reads workbooks back for the tests: through openpyxl (Tests/readback/test_xlsx_readback.py),
// ZIPFoundation and the importer's zip directory scanner.
import Foundation
import RKTable
import XCTest
import ZIPFoundation

@testable import RKImport
@testable import RKWrite

/// What openpyxl sees in a workbook: the JSON of `test_xlsx_readback.py`.
struct ReadBook: Decodable {
  var sheetNames: [String]
  var title: String?
  var created: String?
  var description: String?
  var custom: [String: String]
  var sheets: [ReadSheet]
  var charts: [ReadChart]

  func sheet(_ name: String) -> ReadSheet? { sheets.first { $0.name == name } }
}

struct ReadSheet: Decodable {
  var name: String
  var freeze: String?
  var filter: String?
  var rows: [[ReadCell?]]
  var notes: [String: String]
  var widths: [String: Double]
  var headerBold: [Bool]
  var pandasColumns: [String]
}

struct ReadChart: Decodable {
  var part: String
  var ranges: [String]
  var titles: [String]
  var barDirection: [String]
  var categoryAxisReversed: Bool
}

/// One cell as openpyxl reads it: data type (`s`, `n`, `b`, `d`), value, number format.
struct ReadCell: Decodable, Equatable {
  enum Value: Equatable {
    case text(String)
    case number(Double)
    case bool(Bool)
  }
  var type: String
  var value: Value
  var format: String

  init(_ type: String, _ value: Value, _ format: String = "General") {
    self.type = type
    self.value = value
    self.format = format
  }

  init(from decoder: Decoder) throws {
    var container = try decoder.unkeyedContainer()
    type = try container.decode(String.self)
    if let flag = try? container.decode(Bool.self) {
      value = .bool(flag)
    } else if let number = try? container.decode(Double.self) {
      value = .number(number)
    } else {
      value = .text(try container.decode(String.self))
    }
    format = try container.decode(String.self)
  }
}

/// A scratch folder per test and the read-back runner.
final class XLSXScratch {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("rkexport-xlsx-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// File names in the folder, hidden ones included, sorted.
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  /// Runs the openpyxl read-back script on `path` and decodes its JSON.
  static func readBack(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> ReadBook
  {
    let script = URL(fileURLWithPath: "\(#filePath)")
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("readback/test_xlsx_readback.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, path]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errorData, as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      XCTFail("openpyxl read-back failed: \(errorText)", file: file, line: line)
      throw XLSXError(.unknown, path: path, message: errorText)
    }
    return try JSONDecoder().decode(ReadBook.self, from: data)
  }
}

/// Shorthands for building rows and schemas in tests.
enum XLSXFixture {
  static func schema(_ name: String, _ columns: [(String, ColumnType)]) -> TableSchema {
    TableSchema(name: name, columns: columns.map { Column($0.0, $0.1, "") })
  }

  static func text(_ value: String) -> ReadCell { ReadCell("s", .text(value)) }
  static func number(_ value: Double, _ format: String = "General") -> ReadCell {
    ReadCell("n", .number(value), format)
  }
}

/// Every entry of a zip inflated by ZIPFoundation, which checks each one's CRC-32.
enum ZipContents {
  static func inflate(_ path: String) throws -> [(name: String, bytes: Data)] {
    let archive = try ZIPFoundation.Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    var parts = [(name: String, bytes: Data)]()
    for entry in archive {
      var bytes = Data()
      _ = try archive.extract(entry, skipCRC32: false) { bytes.append($0) }
      parts.append((entry.path, bytes))
    }
    return parts
  }
}

/// The central directory of a written zip, read by the scanner the importer checks zips with.
enum ZipDirectory {
  static func entries(of path: String) throws -> [ZipDirectoryRecord] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return try ZipCentralDirectory.scan(length: Int64(bytes.count), limits: ZipLimits()) {
      offset, count in
      let start = Int(offset)
      guard start >= 0, count >= 0, start + count <= bytes.count else { return nil }
      return Array(bytes[start..<(start + count)])
    }
  }
}
