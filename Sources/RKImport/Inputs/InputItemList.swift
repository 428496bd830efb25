// The walked inputs of an export, kept compact: a file found in a folder costs its path's bytes
// and one small record, and becomes an `InputItem` only when asked for.

/// The items `InputWalker` found, in walk order (each root's items sorted by display path).
///
/// A plain file below a folder root is stored as its path below the root (UTF-8, in one shared
/// buffer) and its size; its `InputItem` (display path, folders, disk path) is rebuilt on every
/// access. Other items (zip entries, Bridge uploads, a file given as a root) are kept whole: they
/// are few. 100,000 archives take about 5 MB instead of about 30 MB of Strings and arrays.
public struct InputItemList: RandomAccessCollection, Sendable {
  struct Root: Sendable {
    /// The root as given on the command line (disk paths are `path + "/" + below`).
    var path: String
    /// The root as shown before display paths when there are several roots.
    var label: String
    var isDirectory: Bool
  }

  struct Entry: Sendable {
    /// Where the path below the root starts in `text`, and its length in bytes.
    var start: Int
    var length: Int32
    var root: Int32
    /// -1 for a plain file in a folder; else the index of the whole item in `others`.
    var other: Int32
    var size: Int64
  }

  private var roots: [Root] = []
  private var text: [UInt8] = []
  private var entries: [Entry] = []
  private var others: [InputItem] = []
  /// Several roots: display paths start with the root's label.
  private var labelsRoots = false

  public init() {}

  /// A list holding exactly `items` (their own display paths, no root labels).
  public init(_ items: [InputItem]) {
    beginRoot(path: "", label: "", isDirectory: true, labelsRoots: false)
    for item in items { append(item) }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { entries.count }

  public subscript(position: Int) -> InputItem {
    let entry = entries[position]
    let root = roots[Int(entry.root)]
    var item: InputItem
    if entry.other >= 0 {
      item = others[Int(entry.other)]
    } else {
      let below = String(
        decoding: text[entry.start..<entry.start + Int(entry.length)], as: UTF8.self)
      let folders = below.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      item = InputItem(
        displayPath: below, folders: folders.map(String.init),
        location: .file(path: root.path + "/" + below), size: entry.size)
    }
    if labelsRoots {
      // Several roots may hold the same relative paths (each its README.md): name the root.
      item.displayPath = root.isDirectory ? root.label + "/" + item.displayPath : root.label
    }
    return item
  }

  // MARK: - Building (the walker)

  /// Starts the items of one root; `labelsRoots` when the walk has several roots.
  mutating func beginRoot(path: String, label: String, isDirectory: Bool, labelsRoots: Bool) {
    roots.append(Root(path: path, label: label, isDirectory: isDirectory))
    self.labelsRoots = labelsRoots
  }

  /// A plain file `below` the current (folder) root, `size` bytes.
  mutating func appendFile(below: String, size: Int64) {
    guard let length = Int32(exactly: below.utf8.count) else {
      return append(
        InputItem(
          displayPath: below,
          folders: below.split(separator: "/").dropLast().map(String.init),
          location: .file(path: (roots.last?.path ?? "") + "/" + below), size: size))
    }
    entries.append(
      Entry(
        start: text.count, length: length, root: Int32(roots.count - 1), other: -1, size: size))
    text.append(contentsOf: below.utf8)
  }

  /// Any item of the current root, kept whole.
  mutating func append(_ item: InputItem) {
    let length = Int32(clamping: item.displayPath.utf8.count)
    entries.append(
      Entry(
        start: text.count, length: length, root: Int32(roots.count - 1),
        other: Int32(clamping: others.count), size: item.size))
    text.append(contentsOf: item.displayPath.utf8.prefix(Int(length)))
    others.append(item)
  }

  /// Sorts the items from `start` on by display path (as `String` compares them).
  mutating func sortItems(from start: Int) {
    let isASCII = text.allSatisfy { $0 < 0x80 }
    let text = self.text
    entries[start...].sort { lhs, rhs in
      text.withUnsafeBufferPointer { bytes in
        let left = UnsafeBufferPointer(rebasing: bytes[lhs.start..<lhs.start + Int(lhs.length)])
        let right = UnsafeBufferPointer(rebasing: bytes[rhs.start..<rhs.start + Int(rhs.length)])
        // ASCII text orders by bytes exactly as String does; anything else is compared as
        // Strings (canonical equivalence).
        if isASCII { return left.lexicographicallyPrecedes(right) }
        return String(decoding: left, as: UTF8.self) < String(decoding: right, as: UTF8.self)
      }
    }
  }
}
