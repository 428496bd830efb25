// Helpers for the nightly-run tests: a corpus from samples/, snapshots, background processes.
import Foundation
import XCTest

extension Workdir {
  /// Copies `samples/study` into `in/copyN/` for N in `copies`: a corpus of realistic archives
  /// (each copy's run UUIDs repeat the first's, which only adds duplicate warnings).
  func makeCorpus(_ folder: String = "in", copies: Range<Int>) throws {
    let source = Workdir.packageRoot.appendingPathComponent("samples/study")
    for copy in copies {
      let target = root.appendingPathComponent("\(folder)/copy\(copy)")
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: source, to: target)
    }
  }

  /// Every file below `relativeFolder`, hidden ones included, as relative path → bytes.
  func snapshot(_ relativeFolder: String) throws -> [String: Data] {
    let base = root.appendingPathComponent(relativeFolder)
    var files: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: base.path)
    while let relative = walker?.nextObject() as? String {
      let url = base.appendingPathComponent(relative)
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        files[relative] = try Data(contentsOf: url)
      }
    }
    return files
  }

  /// Names directly in `relativeFolder` starting with a dot (lock, staging, journal, temps).
  func hiddenEntries(_ relativeFolder: String) -> [String] {
    let names =
      (try? FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent(relativeFolder).path)) ?? []
    return names.filter { $0.hasPrefix(".") }.sorted()
  }

  /// Starts `rkexport` without waiting; stdout and stderr go to files in the work folder.
  func start(_ arguments: [String], log: String) throws -> Process {
    let process = Process()
    process.executableURL = Workdir.binary
    process.arguments = arguments
    process.currentDirectoryURL = root
    let logURL = root.appendingPathComponent(log)
    _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
    let handle = try FileHandle(forWritingTo: logURL)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return process
  }

  /// The rows of a CSV as a multiset (row text → count), header excluded.
  func rowMultiset(_ relativePath: String) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for row in try readCSV(relativePath).dropFirst() {
      counts[row.joined(separator: "\u{1F}"), default: 0] += 1
    }
    return counts
  }

  func exists(_ relativePath: String) -> Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent(relativePath).path)
  }
}

/// Merges multisets: the union of rows of two exports.
func union(_ a: [String: Int], _ b: [String: Int]) -> [String: Int] {
  a.merging(b, uniquingKeysWith: +)
}
