// Runs the built rkexport binary in a scratch folder per test, as xsv's tests do.
import Foundation
import XCTest

/// A scratch folder with helpers to run `rkexport` and read what it wrote.
struct Workdir {
  let root: URL

  init(_ name: String = #function) throws {
    let safe = name.filter { $0.isLetter || $0.isNumber || $0 == "_" }
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("rkexport-tests-\(getpid())")
      .appendingPathComponent(safe)
    try? FileManager.default.removeItem(at: root)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  var path: String { root.path }

  /// The package root (holds Package.swift, samples/, Tests/).
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The `rkexport` binary: `$RKEXPORT_BIN`, else the one built next to the test bundle.
  static var binary: URL {
    if let fromEnvironment = ProcessInfo.processInfo.environment["RKEXPORT_BIN"] {
      return URL(fileURLWithPath: fromEnvironment)
    }
    let candidates = [
      Bundle.main.bundleURL.appendingPathComponent("rkexport"),
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("rkexport"),
      packageRoot.appendingPathComponent(".build/debug/rkexport"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[2]
  }

  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
    var command: String
  }

  /// Runs `rkexport` with `arguments` in this folder.
  @discardableResult
  func run(_ arguments: [String], timeout: TimeInterval = 120) throws -> Output {
    let process = Process()
    process.executableURL = Workdir.binary
    process.arguments = arguments
    process.currentDirectoryURL = root
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes while the process runs so a full pipe cannot block it.
    nonisolated(unsafe) var stdoutData = Data()
    nonisolated(unsafe) var stderrData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      stdoutData = out.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
      stderrData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    if group.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      XCTFail("rkexport \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
    }
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus,
      stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self),
      command: "rkexport " + arguments.joined(separator: " ") + "  (in \(path))")
  }

  /// Reads a CSV the export wrote, as rows of fields (RFC 4180; enough for our own outputs).
  func readCSV(_ relativePath: String) throws -> [[String]] {
    let text = try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    return parseCSV(text)
  }

  func write(_ relativePath: String, bytes: [UInt8]) throws {
    let url = root.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }
}

/// A small RFC 4180 reader for test assertions (the Python read-back tests use independent readers).
func parseCSV(_ text: String) -> [[String]] {
  var rows: [[String]] = []
  var row: [String] = []
  var field = ""
  var inQuotes = false
  var iterator = Array(text.unicodeScalars).makeIterator()
  var pending: Unicode.Scalar? = nil
  func next() -> Unicode.Scalar? {
    if let p = pending {
      pending = nil
      return p
    }
    return iterator.next()
  }
  while let c = next() {
    if inQuotes {
      if c == "\"" {
        if let n = next() {
          if n == "\"" {
            field.unicodeScalars.append("\"")
          } else {
            inQuotes = false
            pending = n
          }
        } else {
          inQuotes = false
        }
      } else {
        field.unicodeScalars.append(c)
      }
    } else if c == "\"" {
      inQuotes = true
    } else if c == "," {
      row.append(field)
      field = ""
    } else if c == "\n" {
      row.append(field)
      rows.append(row)
      row = []
      field = ""
    } else {
      field.unicodeScalars.append(c)
    }
  }
  if !field.isEmpty || !row.isEmpty {
    row.append(field)
    rows.append(row)
  }
  return rows
}
