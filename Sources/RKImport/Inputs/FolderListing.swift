// One folder's entries as `readdir` lists them, their names kept as bytes: the walk meets every
// input's name here, and a String per name (made, sorted, copied and freed) cost more than the
// rest of listing the file.
import Foundation

/// The entries of one folder (without `.` and `..`): every name's bytes one after the other in
/// one buffer, with its `readdir` type. An entry is its index.
///
/// Names are Strings as `FileSystemName` makes them (a name that is not valid UTF-8 keeps its
/// bytes as private-use characters); all-ASCII folders, nearly all, are ordered by their
/// bytes, which is String order for ASCII; others as Strings (canonical equivalence).
public struct FolderListing {
  private struct Span {
    var start: Int
    var count: Int
    var type: Int
  }

  private var bytes: [UInt8] = []
  private var spans: [Span] = []
  private var isASCII = true

  /// The entries of the folder at `path`; nil when it cannot be opened.
  init?(_ path: String) {
    guard let folder = FileSystemName.withPath(path, { opendir($0) }) else { return nil }
    defer { closedir(folder) }
    while let entry = readdir(folder) {
      let type = Int(entry.pointee.d_type)
      withUnsafeBytes(of: entry.pointee.d_name) { raw in
        let name = raw.bindMemory(to: UInt8.self)
        let length = strnlen(name.baseAddress!, name.count)
        append(UnsafeBufferPointer(rebasing: name[..<length]), type: type)
      }
    }
    finish()
  }

  /// Entries named `names` with their types, as `readdir` would give them (tests).
  init(names: [(name: String, type: Int)]) {
    for (name, type) in names {
      var name = name
      name.withUTF8 { append($0, type: type) }
    }
    finish()
  }

  private mutating func append(_ name: UnsafeBufferPointer<UInt8>, type: Int) {
    let dot = UInt8(ascii: ".")
    if (name.count == 1 && name[0] == dot) || (name.count == 2 && name[0] == dot && name[1] == dot)
    {
      return
    }
    spans.append(Span(start: bytes.count, count: name.count, type: type))
    bytes.append(contentsOf: name)
  }

  /// Sees whether every name is ASCII; if not, keeps each name as its String's UTF-8 (see
  /// `FileSystemName`), so that every later question is asked of the names the walk uses.
  private mutating func finish() {
    isASCII = bytes.allSatisfy { $0 < 0x80 }
    guard !isASCII else { return }
    let names = bytes.withUnsafeBufferPointer { all in
      spans.indices.map { FileSystemName.string(slice(all, $0)) }
    }
    bytes = []
    for index in spans.indices {
      spans[index].start = bytes.count
      spans[index].count = names[index].utf8.count
      bytes.append(contentsOf: names[index].utf8)
    }
  }

  /// The names of the folder's entries that are not hidden, in String order (see
  /// `FileSystemName`); nil when it cannot be listed.
  public static func visibleNames(inFolder path: String) -> [String]? {
    guard let listing = FolderListing(path) else { return nil }
    return listing.visibleInOrder().map { listing.name($0) }
  }

  func type(_ entry: Int) -> Int { spans[entry].type }

  func name(_ entry: Int) -> String {
    bytes.withUnsafeBufferPointer { String(decoding: slice($0, entry), as: UTF8.self) }
  }

  func nameBytes(_ entry: Int) -> [UInt8] {
    bytes.withUnsafeBufferPointer { Array(slice($0, entry)) }
  }

  /// Appends the name's bytes to `target`.
  func appendName(_ entry: Int, to target: inout [UInt8]) {
    bytes.withUnsafeBufferPointer { target.append(contentsOf: slice($0, entry)) }
  }

  private func slice(_ all: UnsafeBufferPointer<UInt8>, _ entry: Int) -> UnsafeBufferPointer<UInt8>
  {
    let span = spans[entry]
    return UnsafeBufferPointer(rebasing: all[span.start..<span.start + span.count])
  }

  /// The entries that are not hidden (a name starting with a dot; a dot followed by a
  /// combining mark is another Character, so not), ordered as String's `<` orders names.
  func visibleInOrder() -> [Int] {
    if isASCII {
      var visible = spans.indices.filter { spans[$0].count == 0 || bytes[spans[$0].start] != 0x2E }
      bytes.withUnsafeBufferPointer { all in
        visible.sort { ByteOrder.precedes(slice(all, $0), slice(all, $1)) }
      }
      return visible
    }
    let names = spans.indices.map { name($0) }
    return spans.indices.filter { !names[$0].hasPrefix(".") }.sorted { names[$0] < names[$1] }
  }

  /// The names (as bytes) among `entries` that begin another of their names followed by a byte
  /// up to `!` (0x21): as zips, their entries would sort after that name. Usually none: only
  /// names holding such a byte (a space, most often) are looked at.
  func namesSortingBeforeTheirEntries(_ entries: [Int]) -> Set<[UInt8]> {
    guard bytes.contains(where: { $0 <= UInt8(ascii: "!") }) else { return [] }
    var prefixes = Set<[UInt8]>()
    bytes.withUnsafeBufferPointer { all in
      for entry in entries {
        let name = slice(all, entry)
        for index in name.indices.dropFirst() where name[index] <= UInt8(ascii: "!") {
          prefixes.insert(Array(name[..<index]))
        }
      }
    }
    guard !prefixes.isEmpty else { return [] }
    return prefixes.intersection(entries.map(nameBytes))
  }
}
