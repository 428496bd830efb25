// The walked inputs of an export, kept compact: a file found in a folder costs its path's bytes
// and one small record, and becomes an `InputItem` only when asked for.
import Foundation
import RKTable

/// The items `InputWalker` found, in walk order (each root's items sorted by display path).
///
/// A plain file below a folder root is stored as its path below the root (UTF-8, in one shared
/// buffer) and its size; its `InputItem` (display path, folders, disk path) is rebuilt on every
/// access. A zip entry is stored the same way, as its display path, with the zip it belongs to
/// listed once, and so is a zip below a folder root that is one Bridge upload. Other items
/// (Bridge upload folders, uploads inside zips, a file given as a root) are kept whole: they
/// are few. 100,000 archives take about 5 MB instead of about 30 MB of Strings and arrays, and
/// after `moveToDisk(directory:)` almost nothing: records and paths then wait in an unlinked
/// file, read back `ItemsOnDisk.chunkSize` items at a time.
public struct InputItemList: RandomAccessCollection, Sendable {
  /// The name prefix of the unlinked files lists wait in. A run killed in the instant between
  /// making one and unlinking it leaves it behind; the next run in that folder removes it
  /// (`OutputCommit.recover`).
  public static let scratchFilePrefix = ".inputs-"
  struct Root: Sendable {
    /// The root as given on the command line (disk paths are `path + "/" + below`).
    var path: String
    /// The root as shown before display paths when there are several roots.
    var label: String
    var isDirectory: Bool
    /// Its plain files were listed without being opened: their items are `mayBeZip`.
    var filesUnopened = false
    /// The root's own name when the root itself is an item (a file, a zip whose entries are
    /// `name!/…`, a Bridge upload folder); nil for a folder that was walked.
    var ownName: String?

    /// `path` (below the root) as shown when roots are labelled: the root's own name gives way
    /// to its label (`uploads.zip!/info.json` → `in/uploads.zip!/info.json`); a walked
    /// folder's paths get the label in front.
    func labelled(_ path: String) -> String {
      guard let ownName, path.utf8.starts(with: ownName.utf8) else { return label + "/" + path }
      return label + (String(path.utf8.dropFirst(ownName.utf8.count)) ?? "")
    }
  }

  /// A zip whose entries are stored compactly: what their items share.
  struct ListedZip: Sendable {
    var zipPath: String
    /// The entry of `zipPath` that this zip is, when it is nested.
    var nestedZip: String?
    /// The zip's display path; an entry's is this, `!/` and the entry's path.
    var display: String
    /// Folders attributed to the entries before their own.
    var entryFolders: [String]

    /// Bytes before an entry's path in its display path.
    var prefixLength: Int { display.utf8.count + 2 }
  }

  /// What a compact record stands for; `Entry.other` holds it.
  private enum CompactKind {
    /// A plain file below a folder root; its text is its path below the root.
    case file
    /// A zip below a folder root that is one Bridge upload; its text as for a file.
    case bridgeZip
    /// An entry of zip number `zip` in `zips`; its text is the entry's display path.
    case zipEntry(zip: Int)

    /// `Entry.other` for this kind; nil when it does not fit.
    var other: Int32? {
      switch self {
      case .file: -1
      case .bridgeZip: Entry.bridgeZip
      case .zipEntry(let zip): Int32(exactly: -2 - zip)
      }
    }

    /// The kind of a record whose `other` is negative.
    init(other: Int32) {
      switch other {
      case Entry.bridgeZip: self = .bridgeZip
      case ...(-2): self = .zipEntry(zip: -2 - Int(other))
      default: self = .file
      }
    }
  }

  /// One item in 16 bytes: where its path below the root starts in `text` and its length, its
  /// root, its size, and -1 for a plain file, `bridgeZip` for a Bridge upload zip, `-2 - z`
  /// for an entry of zip `z` in `zips`, or else the index of the whole item in `others`.
  struct Entry: Sendable {
    private var startBits: UInt32
    private var lengthBits: UInt16
    private var rootBits: UInt16
    var other: Int32
    private var sizeBits: UInt32

    static let empty = Entry(sortKeyStart: 0, length: 0, other: -1)
    /// `other` of a Bridge upload zip below a folder root (read as one item).
    static let bridgeZip = Int32.min

    /// A plain file (`other` -1), a Bridge upload zip (`bridgeZip`) or a zip entry (`other`
    /// -2 and below); nil when a field does not fit (the item is then kept whole).
    init?(start: Int, length: Int, root: Int, size: Int64, other: Int32 = -1) {
      guard let startBits = UInt32(exactly: start), let lengthBits = UInt16(exactly: length),
        let rootBits = UInt16(exactly: root), let sizeBits = UInt32(exactly: size)
      else { return nil }
      self.startBits = startBits
      self.lengthBits = lengthBits
      self.rootBits = rootBits
      self.other = other
      self.sizeBits = sizeBits
    }

    /// A whole item's place; its path below the root (the sort key) is clamped to fit.
    init(sortKeyStart start: Int, length: Int, other: Int32) {
      startBits = UInt32(clamping: start)
      lengthBits = UInt16(clamping: length)
      rootBits = 0
      self.other = other
      sizeBits = 0
    }

    var start: Int {
      get { Int(startBits) }
      set { startBits = UInt32(clamping: newValue) }
    }
    var length: Int { Int(lengthBits) }
    var root: Int { Int(rootBits) }
    var size: Int64 { Int64(sizeBits) }
  }

  private var roots: [Root] = []
  private var text: [UInt8] = []
  private var entries: [Entry] = []
  private var others: [(item: InputItem, root: Int)] = []
  private var zips: [ListedZip] = []
  /// Set by `moveToDisk`: `entries` and `text` are then empty and read from there.
  private var onDisk: ItemsOnDisk?
  private var itemCount = 0
  /// Where the walk's items go as they are listed, while each root's come in sorted order (see
  /// `streamDirectory`); `entries` and `text` are then empty.
  private var stream: ItemsOnDisk?
  /// How many items were streamed before the current root (each root is sorted on its own).
  private var streamedBeforeRoot = 0
  /// Several roots: display paths start with the root's label.
  private var labelsRoots = false

  public init() {}

  /// A list that streams its items to an unlinked file in `directory` as they are appended, as
  /// long as each root's come in sorted order: the walk then holds no list of its inputs in
  /// memory (~65 bytes an input at its peak otherwise, before `moveToDisk`). Items are streamed
  /// while their stored paths are ASCII and each sorts after the one before (bytes, which is
  /// String order for ASCII): the usual study layout. Anything else (a name that sorts before
  /// its folder's entries, non-ASCII text) brings the streamed items back into memory, and the
  /// list goes on as one built without a directory. Either way it holds the same items, in the
  /// same order.
  public init(streamDirectory directory: String) {
    stream = ItemsOnDisk(directory: directory)
  }

  /// Whether the items are still streamed to disk (tests look).
  var isStreaming: Bool { stream != nil }

  /// A list holding exactly `items` (their own display paths, no root labels).
  public init(_ items: [InputItem]) {
    beginRoot(path: "", label: "", isDirectory: true, labelsRoots: false)
    for item in items { append(item) }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { itemCount }

  public subscript(position: Int) -> InputItem {
    var below: ArraySlice<UInt8> = []
    var entry = Entry.empty
    if let onDisk = onDisk ?? stream {
      // Unreadable (an I/O error on the unlinked file): an item with no path, which fails.
      if let (found, path) = onDisk.entry(at: position) {
        entry = found
        below = path
      }
    } else {
      entry = entries[position]
      below = Self.slice(text, entry)
    }
    var rootIndex = entry.root
    var whole: InputItem?
    if entry.other >= 0, others.indices.contains(Int(entry.other)) {
      (whole, rootIndex) = others[Int(entry.other)]
    }
    let root =
      roots.indices.contains(rootIndex)
      ? roots[rootIndex] : Root(path: "", label: "", isDirectory: true)
    var item =
      whole
      ?? compactItem(CompactKind(other: entry.other), text: below, root: root, size: entry.size)
    if labelsRoots {
      // Several roots may hold the same relative paths (each its README.md): name the root.
      item.displayPath = root.labelled(item.displayPath)
    }
    return item
  }

  /// The item a compact record stands for (without a root label): `text` is its stored path.
  private func compactItem(
    _ kind: CompactKind, text: ArraySlice<UInt8>, root: Root, size: Int64
  ) -> InputItem {
    let path = String(decoding: text, as: UTF8.self)
    switch kind {
    case .zipEntry(let number) where zips.indices.contains(number):
      let zip = zips[number]
      let entry = String(decoding: text.dropFirst(zip.prefixLength), as: UTF8.self)
      return InputItem(
        displayPath: path, folders: zip.entryFolders + zipEntryComponents(entry).dropLast(),
        location: zip.nestedZip.map {
          .nestedZipEntry(zipPath: zip.zipPath, nestedZip: $0, entry: entry)
        } ?? .zipEntry(zipPath: zip.zipPath, entry: entry),
        size: size)
    case .bridgeZip:
      return InputItem(
        displayPath: path, folders: Self.folders(text),
        location: .bridgeZip(zipPath: Self.diskPath(root, path), nestedZip: nil, root: ""),
        size: size)
    case .file, .zipEntry:
      var item = InputItem(
        displayPath: path, folders: Self.folders(text),
        location: .file(path: Self.diskPath(root, path)), size: size)
      item.mayBeZip = root.filesUnopened
      return item
    }
  }

  /// The folders of a path below the root: its components but the last. Split by bytes: far
  /// cheaper than by Characters, and "/" never occurs inside a name. One pass, into an array
  /// of the right size (`split` and `map` built two arrays and cost ~1,900 instructions an
  /// item, once per input).
  static func folders(_ below: ArraySlice<UInt8>) -> [String] {
    let slash = UInt8(ascii: "/")
    var folders: [String] = []
    folders.reserveCapacity(below.count { $0 == slash })
    var start = below.startIndex
    for index in below.indices where below[index] == slash {
      folders.append(String(decoding: below[start..<index], as: UTF8.self))
      start = index + 1
    }
    return folders
  }

  /// `root.path + "/" + below` (`String.joining`: once per input; a reserved string and two
  /// appends cost ~1,250 instructions, this ~740).
  static func diskPath(_ root: Root, _ below: String) -> String {
    var head = root.path
    var tail = below
    return head.withUTF8 { head in
      tail.withUTF8 { tail in String.joining(head, UInt8(ascii: "/"), tail) }
    }
  }

  // MARK: - Building (the walker)

  /// Starts the items of one root; `labelsRoots` when the walk has several roots;
  /// `filesUnopened` when its plain files are listed without being opened; `ownName` when the
  /// root itself is an item (see `Root.ownName`).
  mutating func beginRoot(
    path: String, label: String, isDirectory: Bool, labelsRoots: Bool,
    filesUnopened: Bool = false, ownName: String? = nil
  ) {
    roots.append(
      Root(
        path: path, label: label, isDirectory: isDirectory, filesUnopened: filesUnopened,
        ownName: ownName))
    self.labelsRoots = labelsRoots
    streamedBeforeRoot = stream?.count ?? 0
  }

  /// The current root's `labelled(_:)`.
  func labelledInCurrentRoot(_ path: String) -> String {
    roots.last?.labelled(path) ?? path
  }

  /// A plain file `below` the current (folder) root, `size` bytes.
  mutating func appendFile(below: String, size: Int64) {
    appendCompact(.file, text: below, size: size)
  }

  /// A plain file `name` in the folder `prefix` below the current (folder) root (`prefix` ""
  /// or ending in a slash), `size` bytes: `appendFile(below: prefix + name)` without making
  /// that String (the walk appends one per file).
  mutating func appendFile(inFolder prefix: String, name: UnsafeBufferPointer<UInt8>, size: Int64) {
    var prefix = prefix
    prefix.withUTF8 { prefix in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.count + name.count) {
        buffer in
        let end = buffer.initialize(fromContentsOf: prefix)
        _ = UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: name)
        appendCompact(.file, path: UnsafeBufferPointer(buffer), size: size)
      }
    }
  }

  /// A zip file `below` the current (folder) root that is one Bridge upload, `size` bytes.
  mutating func appendBridgeZip(below: String, size: Int64) {
    appendCompact(.bridgeZip, text: below, size: size)
  }

  /// Lists a zip whose entries follow (`appendZipEntry`); its number.
  mutating func beginZip(
    zipPath: String, nestedZip: String?, display: String, entryFolders: [String]
  ) -> Int {
    zips.append(
      ListedZip(
        zipPath: zipPath, nestedZip: nestedZip, display: display, entryFolders: entryFolders))
    return zips.count - 1
  }

  /// The entry `path` of zip `zip` (from `beginZip`), `size` bytes uncompressed: display path
  /// `display!/path`, folders the zip's entry folders and then the path's own.
  mutating func appendZipEntry(zip: Int, path: String, size: Int64) {
    appendCompact(.zipEntry(zip: zip), text: zips[zip].display + "!/" + path, size: size)
  }

  /// Stores an item of `kind` as `text` and a record, rebuilt on access; kept whole when a
  /// field does not fit a record.
  private mutating func appendCompact(_ kind: CompactKind, text stored: String, size: Int64) {
    var stored = stored
    stored.withUTF8 { appendCompact(kind, path: $0, size: size) }
  }

  /// `appendCompact` of the text whose UTF-8 bytes are `path`.
  private mutating func appendCompact(
    _ kind: CompactKind, path: UnsafeBufferPointer<UInt8>, size: Int64
  ) {
    guard let other = kind.other,
      var entry = Entry(
        start: text.count, length: path.count, root: roots.count - 1, size: size, other: other)
    else {
      let root = roots.last ?? Root(path: "", label: "", isDirectory: true)
      return append(compactItem(kind, text: Array(path)[...], root: root, size: size))
    }
    if streams(path, entry) { return }
    // Where the path goes now: the streamed items may have come back into `text` meanwhile.
    entry.start = text.count
    entries.append(entry)
    text.append(contentsOf: path)
    itemCount += 1
  }

  /// Any item of the current root, kept whole.
  mutating func append(_ item: InputItem) {
    var entry = Entry(
      sortKeyStart: text.count, length: item.displayPath.utf8.count,
      other: Int32(clamping: others.count))
    others.append((item, roots.count - 1))
    if streams(item.displayPath.utf8.prefix(entry.length), entry) { return }
    entry.start = text.count
    entries.append(entry)
    text.append(contentsOf: item.displayPath.utf8.prefix(entry.length))
    itemCount += 1
  }

  /// Appends the item to the stream when the list streams and `path` (its stored path) keeps
  /// the root in sorted order; otherwise ends the streaming (its items back in memory) and
  /// returns false, for the caller to append in memory.
  private mutating func streams<Path: Collection<UInt8>>(_ path: Path, _ entry: Entry) -> Bool {
    guard let stream else { return false }
    if path.allSatisfy({ $0 < 0x80 }),
      stream.appendInOrder(entry, path: path, rootStart: streamedBeforeRoot)
    {
      itemCount += 1
      return true
    }
    endStreaming()
    return false
  }

  /// Brings the streamed items back into `entries` and `text` (the list then stays in memory
  /// until `moveToDisk`). An item that cannot be read back (an I/O error) is kept with no path,
  /// as `subscript` gives an unreadable one.
  private mutating func endStreaming() {
    guard let stream else { return }
    self.stream = nil
    entries.reserveCapacity(stream.count + 1)
    for position in 0..<stream.count {
      var (entry, path) = stream.entry(at: position) ?? (Entry.empty, [])
      entry.start = text.count
      entries.append(entry)
      text += path
    }
  }

  /// Sorts the items from `start` on by display path (as `String` compares them).
  mutating func sortItems(from start: Int) {
    // Streamed items came in sorted order.
    guard stream == nil else { return }
    let isASCII = text.allSatisfy { $0 < 0x80 }
    text.withUnsafeBufferPointer { bytes in
      entries.withUnsafeMutableBufferPointer { all in
        guard start < all.count else { return }
        // In place: no copy of the records beyond the sort's own buffer.
        var tail = UnsafeMutableBufferPointer(rebasing: all[start...])
        tail.sort { lhs, rhs in
          let left = UnsafeBufferPointer(rebasing: Self.slice(bytes, lhs))
          let right = UnsafeBufferPointer(rebasing: Self.slice(bytes, rhs))
          // ASCII text orders by bytes exactly as String does; anything else is compared as
          // Strings (canonical equivalence): the walk's rule for names
          // (`FolderListing.visibleInOrder`).
          if isASCII { return ByteOrder.precedes(left, right) }
          return String(decoding: left, as: UTF8.self) < String(decoding: right, as: UTF8.self)
        }
      }
    }
  }

  /// Where paths below the current root fall among that root's items, sorted from `start`
  /// (`sortItems(from:)`): for each, the index of the first item that does not sort before
  /// it. Items are compared as `sortItems` compares them (the text's kind looked at once).
  func places(of paths: [String], from start: Int) -> [Int] {
    guard !paths.isEmpty else { return [] }
    if let stream {
      // Streamed items are ASCII (so compared by bytes) and read back from the stream.
      return paths.map { below in
        place(of: below, from: start, count: stream.count, textIsASCII: true) { position in
          stream.entry(at: position)?.1 ?? []
        }
      }
    }
    let textIsASCII = text.allSatisfy { $0 < 0x80 }
    return paths.map { below in
      place(of: below, from: start, count: entries.count, textIsASCII: textIsASCII) { position in
        Self.slice(text, entries[position])
      }
    }
  }

  /// The first of the items `start..<count` whose stored path (`storedPath`) does not sort
  /// before `below`, by binary search.
  private func place(
    of below: String, from start: Int, count: Int, textIsASCII: Bool,
    storedPath: (Int) -> ArraySlice<UInt8>
  ) -> Int {
    let key = Array(below.utf8)
    let isASCII = textIsASCII && key.allSatisfy { $0 < 0x80 }
    var low = start
    var high = count
    while low < high {
      let middle = (low + high) / 2
      let path = storedPath(middle)
      let before =
        isASCII
        ? path.lexicographicallyPrecedes(key)
        : String(decoding: path, as: UTF8.self) < below
      if before { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The bytes of an entry's path, clamped to `text`.
  static func slice<Bytes: RandomAccessCollection>(
    _ text: Bytes, _ entry: Entry
  ) -> Bytes.SubSequence where Bytes.Index == Int {
    let end = Swift.min(entry.start + entry.length, text.endIndex)
    return text[Swift.min(entry.start, end)..<end]
  }

  /// Moves the records and paths to an unlinked file in `directory`, so the list costs no memory
  /// per item while an export runs; stays in memory when the file cannot be written.
  public mutating func moveToDisk(directory: String) {
    if let stream {
      // When the last chunk cannot be written, the items come back into memory, and the list
      // stays there as it would have.
      guard stream.finish() else { return endStreaming() }
      self.stream = nil
      onDisk = stream
      return
    }
    guard onDisk == nil, !entries.isEmpty,
      let disk = ItemsOnDisk(directory: directory, entries: entries, text: text)
    else { return }
    onDisk = disk
    entries = []
    text = []
  }
}

/// The records and paths of an `InputItemList` in a file: chunks of `chunkSize` records, each
/// followed by its paths; a few chunks are cached (workers and the consumer read nearby items).
/// Built by appending, a chunk written whenever it is full: the walk can stream its items here
/// as it lists them (`InputItemList.init(streamDirectory:)`). Items of the last, partial chunk
/// are read from memory until `finish()` writes it.
final class ItemsOnDisk: @unchecked Sendable {
  static let chunkSize = 1024
  private static let cachedChunks = 4
  private typealias Entry = InputItemList.Entry

  private struct Chunk {
    var number: Int
    var entries: [Entry]
    var text: [UInt8]
  }

  /// Where each chunk starts in the file, its record count and its text length.
  private var chunkPlaces: [(offset: Int64, count: Int, textLength: Int)] = []
  private let descriptor: Int32
  private let lock = NSLock()
  private var cache: [Chunk] = []
  /// The chunk being filled: its records (`start` within `text`) and paths, and the count of
  /// items appended (written or pending). One property: each access to a class's properties
  /// is checked for exclusivity at run time, and the walk appends one item per file.
  private struct Pending {
    var entries: [Entry] = []
    var text: [UInt8] = []
    var count = 0

    mutating func append<Path: Collection<UInt8>>(_ entry: Entry, path: Path) {
      var stored = entry
      stored.start = text.count
      entries.append(stored)
      text += path
      count += 1
    }

    /// What `ItemsOnDisk.appendInOrder` found.
    enum Placing { case appended, outOfOrder, chunkFull }

    /// Appends the item when it is the first since `rootStart` items or its path sorts after
    /// the last one's (by bytes) and the chunk has room.
    mutating func appendInOrder<Path: Collection<UInt8>>(
      _ entry: Entry, path: Path, rootStart: Int
    ) -> Placing {
      if count != rootStart {
        guard let last = entries.last else { return .outOfOrder }
        let sorted = text.withUnsafeBufferPointer { text in
          let lastPath = UnsafeBufferPointer(rebasing: InputItemList.slice(text, last))
          return path.withContiguousStorageIfAvailable { ByteOrder.precedes(lastPath, $0) }
            ?? lastPath.lexicographicallyPrecedes(path)
        }
        guard sorted else { return .outOfOrder }
      }
      guard entries.count < ItemsOnDisk.chunkSize else { return .chunkFull }
      append(entry, path: path)
      return .appended
    }
  }

  private var pending = Pending()
  private var fileEnd: Int64 = 0
  /// Items appended, written or pending.
  var count: Int { pending.count }

  /// An empty list in a new file without a name in `directory`; nil when it cannot be made.
  init?(directory: String) {
    guard let descriptor = Self.unnamedFile(in: directory) else { return nil }
    self.descriptor = descriptor
    pending.entries.reserveCapacity(Self.chunkSize)
  }

  /// A new file in `directory` that has no name (`ScratchFile.openUnnamed`; a SIGTERM handled
  /// between a `mkstemp` and its `unlink` once left `.inputs-XXXXXX`, which `CronRunTests` met).
  static func unnamedFile(in directory: String) -> Int32? {
    let descriptor = ScratchFile.openUnnamed(in: directory, prefix: InputItemList.scratchFilePrefix)
    return descriptor >= 0 ? descriptor : nil
  }

  /// `entries` (whose paths are in `text`) written whole; nil when the file cannot be made or
  /// written.
  convenience init?(directory: String, entries: [InputItemList.Entry], text: [UInt8]) {
    self.init(directory: directory)
    for entry in entries {
      guard append(entry, path: InputItemList.slice(text, entry)) else { return nil }
    }
    guard finish() else { return nil }
  }

  /// Appends an item: its record and its path. A full chunk is written first; false when that
  /// fails, the item not appended (the chunk then stays in memory, readable).
  func append<Path: Collection<UInt8>>(_ entry: InputItemList.Entry, path: Path) -> Bool {
    if pending.entries.count == Self.chunkSize {
      guard writePending() else { return false }
    }
    pending.append(entry, path: path)
    return true
  }

  /// `append`, when the item is the first since `rootStart` items or its path sorts after the
  /// last one appended (by bytes); false when it does not (nothing appended) or the append
  /// fails. The last item is always pending, as a full chunk is written only when the next
  /// item comes (none after `finish()`). One call for the check and the append: each access
  /// to this class's properties is checked for exclusivity at run time.
  func appendInOrder<Path: Collection<UInt8>>(
    _ entry: InputItemList.Entry, path: Path, rootStart: Int
  ) -> Bool {
    switch pending.appendInOrder(entry, path: path, rootStart: rootStart) {
    case .appended: return true
    case .outOfOrder: return false
    case .chunkFull: return append(entry, path: path)
    }
  }

  /// Writes the last, partial chunk; false when that fails (it then stays in memory).
  func finish() -> Bool {
    pending.entries.isEmpty || writePending()
  }

  /// Writes the pending chunk, records then paths (a chunk is two contiguous reads).
  private func writePending() -> Bool {
    let recordBytes = pending.entries.count * MemoryLayout<Entry>.stride
    let wroteRecords = pending.entries.withUnsafeBytes { bytes in
      bytes.baseAddress.map { pwrite(descriptor, $0, bytes.count, off_t(fileEnd)) } ?? -1
    }
    let wroteText = pending.text.withUnsafeBytes { bytes in
      bytes.baseAddress.map {
        pwrite(descriptor, $0, bytes.count, off_t(fileEnd) + off_t(recordBytes))
      } ?? 0
    }
    guard wroteRecords == recordBytes, wroteText == pending.text.count else { return false }
    lock.lock()
    chunkPlaces.append((fileEnd, pending.entries.count, pending.text.count))
    lock.unlock()
    fileEnd += Int64(recordBytes + pending.text.count)
    pending.entries.removeAll(keepingCapacity: true)
    pending.text.removeAll(keepingCapacity: true)
    return true
  }

  deinit { close(descriptor) }

  /// The record of item `position` and its path below the root; nil when unreadable.
  func entry(at position: Int) -> (InputItemList.Entry, ArraySlice<UInt8>)? {
    let number = position / Self.chunkSize
    let index = position % Self.chunkSize
    lock.lock()
    defer { lock.unlock() }
    if number == chunkPlaces.count {
      // The chunk being filled (only the list's builder appends, on its own thread).
      guard pending.entries.indices.contains(index) else { return nil }
      let entry = pending.entries[index]
      return (entry, InputItemList.slice(pending.text, entry))
    }
    let chunk: Chunk
    if let cached = cache.first(where: { $0.number == number }) {
      chunk = cached
    } else {
      guard let loaded = load(number) else { return nil }
      if cache.count >= Self.cachedChunks { cache.removeFirst() }
      cache.append(loaded)
      chunk = loaded
    }
    guard chunk.entries.indices.contains(index) else { return nil }
    let entry = chunk.entries[index]
    return (entry, InputItemList.slice(chunk.text, entry))
  }

  private func load(_ number: Int) -> Chunk? {
    guard chunkPlaces.indices.contains(number) else { return nil }
    let place = chunkPlaces[number]
    var entries = [Entry](
      repeating: Entry.empty, count: place.count)
    let recordBytes = place.count * MemoryLayout<Entry>.stride
    let gotRecords = entries.withUnsafeMutableBytes { bytes in
      bytes.baseAddress.map { pread(descriptor, $0, recordBytes, off_t(place.offset)) } ?? -1
    }
    var text = [UInt8](repeating: 0, count: place.textLength)
    let gotText = text.withUnsafeMutableBytes { bytes in
      bytes.baseAddress.map {
        pread(descriptor, $0, place.textLength, off_t(place.offset) + off_t(recordBytes))
      } ?? 0
    }
    guard gotRecords == recordBytes, gotText == place.textLength else { return nil }
    return Chunk(number: number, entries: entries, text: text)
  }
}
