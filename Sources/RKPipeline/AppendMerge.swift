// --append: the long tables of the output folder, minus replaced inputs' rows, plus the new rows.
import Foundation
import RKTidy

#if canImport(Glibc)
  import Glibc
#endif

/// Builds each long table (`task_runs`, `steps`, `answers`, `inputs`) as: the existing file's
/// header and rows, except rows of inputs that changed since (matched on `source`, or `path`
/// in inputs.csv, `#N` suffixes included), then the rows this run staged. The result replaces
/// the staged file, so the commit renames it into place with the rest of the set; the existing
/// file is only read. Rows are copied as bytes, quoted line breaks included.
struct AppendMerge {
  let folder: String
  let staging: String

  static let tables: [(name: String, key: String)] = [
    ("task_runs", "source"), ("steps", "source"), ("answers", "source"), ("inputs", "path"),
  ]

  func mergeLongTables(replacing sources: Set<String>) throws {
    for table in AppendMerge.tables {
      try merge(table.name + ".csv", keyColumn: table.key, replacing: sources)
    }
  }

  private func merge(_ file: String, keyColumn: String, replacing sources: Set<String>) throws {
    let existing = folder + "/" + file
    let staged = staging + "/" + file
    guard FileManager.default.fileExists(atPath: existing) else { return }
    let merged = staged + ".merged"
    guard let out = FileHandle.create(path: merged) else {
      throw OutputError(path: merged, reason: "cannot create the merged table")
    }
    defer { try? out.close() }
    var newRecords = try CSVRecordReader(path: staged)
    guard let newHeader = try newRecords.next() else {
      throw OutputError(path: staged, reason: "staged table has no header")
    }
    var oldRecords = try CSVRecordReader(path: existing)
    guard let oldHeader = try oldRecords.next(), oldHeader == newHeader else {
      throw OutputError(
        path: existing,
        reason: "its columns differ from this version's; run once without --append "
          + "(and a fresh --state) to rebuild it")
    }
    let columns = CSVRecordReader.fields(oldHeader)
    guard let keyIndex = columns.firstIndex(of: keyColumn) else {
      throw OutputError(path: existing, reason: "has no \(keyColumn) column")
    }
    try out.write(contentsOf: oldHeader)
    while let record = try oldRecords.next() {
      let fields = CSVRecordReader.fields(record)
      if keyIndex < fields.count, sources.contains(AppendMerge.inputPath(fields[keyIndex])) {
        continue
      }
      try out.write(contentsOf: record)
    }
    while let record = try newRecords.next() { try out.write(contentsOf: record) }
    try out.synchronize()
    guard rename(merged, staged) == 0 else {
      throw OutputError(path: staged, reason: "cannot replace the staged table")
    }
  }

  /// `P001/a.archive#2` → `P001/a.archive`: the input a run's source names.
  static func inputPath(_ source: String) -> String {
    guard let hash = source.lastIndex(of: "#"),
      source[source.index(after: hash)...].allSatisfy(\.isNumber),
      source.index(after: hash) < source.endIndex
    else { return source }
    return String(source[..<hash])
  }
}

extension FileHandle {
  /// A new (truncated) file opened for writing, or nil.
  static func create(path: String) -> FileHandle? {
    guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
    return FileHandle(forWritingAtPath: path)
  }
}
