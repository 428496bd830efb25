// The inputs of a --state file, kept as an index over the mapped file rather than as entries.
import Foundation
import RKImport

extension ExportState {
  /// The state's inputs by key.
  ///
  /// Read from a file, the entries stay in the file (mapped, its pages let go of after each
  /// pass over it). In memory are only the keys, in one buffer, and per input where its entry
  /// lies, its size and its modification time: about 100 bytes an input, where a dictionary
  /// of entries took about 900 (90 MB for 100,000 inputs, 900 MB for a million). Entries set
  /// in memory (tests, a new state) are kept as given, over the stored ones.
  public struct Inputs: Sendable, Equatable, ExpressibleByDictionaryLiteral, Codable {
    private var stored: StoredInputs?
    private var added: [String: Entry]
    /// Stored keys set to nil.
    private var removed: Set<String> = []

    public init(_ entries: [String: Entry] = [:]) {
      added = entries
    }

    public init(dictionaryLiteral elements: (String, Entry)...) {
      self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    init(stored: StoredInputs) {
      self.stored = stored
      added = [:]
    }

    public subscript(key: String) -> Entry? {
      get {
        if let entry = added[key] { return entry }
        if !removed.isEmpty, removed.contains(key) { return nil }
        return stored?.entry(forKey: key)
      }
      set {
        added[key] = newValue
        if newValue != nil {
          removed.remove(key)
        } else if stored?.position(of: key) != nil {
          removed.insert(key)
        }
      }
    }

    /// The size and modification time recorded for `key`, without reading the rest of its entry.
    func fingerprint(forKey key: String) -> InputFingerprint? {
      if let entry = added[key] {
        return InputFingerprint(size: entry.size, modified: entry.modified)
      }
      if !removed.isEmpty, removed.contains(key) { return nil }
      return stored?.fingerprint(forKey: key)
    }

    /// Whether any entry is keyed by the file at `path`: its own (a plain file) or one of its
    /// entries' (`path!…`, a zip).
    func hasEntries(forFile path: String) -> Bool {
      let zipPrefix = path + "!"
      if added.keys.contains(where: { $0 == path || $0.hasPrefix(zipPrefix) }) { return true }
      guard let stored else { return false }
      // Keys set to nil still count: such a state is only ever held in memory.
      return stored.position(of: path) != nil || stored.hasKey(withPrefix: zipPrefix)
    }

    public var count: Int {
      // `removed` holds stored keys only, none of them in `added`.
      let addedOnly = added.keys.count { stored?.position(of: $0) == nil }
      return (stored?.count ?? 0) - removed.count + addedOnly
    }

    public var isEmpty: Bool { count == 0 }

    /// Every (key, entry), in the order of the keys' UTF-8 bytes (the state file's order), each
    /// entry read when the iteration reaches it. The stored file's pages are let go of behind
    /// the iteration: one pass over a million inputs does not keep the file in memory.
    ///
    /// `verbatimUnread`: stored entries whose text is the writer's own (`verbatimText(at:)`)
    /// come as `Entry.unread`, for a pass that copies that text rather than read it.
    func sorted(verbatimUnread: Bool = false) -> Sorted {
      Sorted(
        stored: stored, removed: removed,
        readsStored: !(verbatimUnread && stored?.isVerbatim == true),
        added: added.map { (key: $0.key, entry: $0.value) }.sorted {
          $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
        })
    }

    /// `sorted()`, with the entries of `newer` replacing or adding to these; `newer`'s own
    /// spooled entries unread (`sorted(verbatimUnread:)`: the state file copies their text).
    func sorted(replacing newer: Inputs) -> Merged<Sorted.Iterator, Sorted.Iterator> {
      Merged(
        base: sorted().makeIterator(), overlay: newer.sorted(verbatimUnread: true).makeIterator())
    }

    typealias KeyedEntry = (key: String, entry: Entry)

    /// Two key-sorted sequences of entries as one; of two entries with the same key, the
    /// overlay's. A side is advanced only when its entry has been used, so after `next()` the
    /// side that gave the entry still describes it (`Sorted.Iterator.lastStoredPosition`).
    struct Merged<Base: IteratorProtocol<KeyedEntry>, Overlay: IteratorProtocol<KeyedEntry>>:
      Sequence, IteratorProtocol
    {
      private(set) var base: Base
      private(set) var overlay: Overlay
      private var nextBase: KeyedEntry?
      private var nextOverlay: KeyedEntry?
      private var baseUsed = true
      private var overlayUsed = true
      /// Whether `next()` returned the base's entry last.
      private(set) var lastFromBase = false

      init(base: Base, overlay: Overlay) {
        self.base = base
        self.overlay = overlay
      }

      mutating func next() -> KeyedEntry? {
        if baseUsed {
          nextBase = base.next()
          baseUsed = false
        }
        if overlayUsed {
          nextOverlay = overlay.next()
          overlayUsed = false
        }
        if let fromBase = nextBase,
          nextOverlay.map({ fromBase.key.utf8.lexicographicallyPrecedes($0.key.utf8) }) ?? true
        {
          baseUsed = true
          lastFromBase = true
          return fromBase
        }
        guard let fromOverlay = nextOverlay else { return nil }
        // The overlay's entry replaces the base's of the same key.
        if nextBase?.key == fromOverlay.key { baseUsed = true }
        overlayUsed = true
        lastFromBase = false
        return fromOverlay
      }
    }

    /// The stored entries (less those set to nil) merged with those set in memory.
    struct Sorted: Sequence {
      let stored: StoredInputs?
      let removed: Set<String>
      /// False: stored entries come as `Entry.unread` (see `sorted(verbatimUnread:)`).
      let readsStored: Bool
      /// The entries set in memory, sorted by key.
      let added: [KeyedEntry]

      func makeIterator() -> Iterator {
        Iterator(
          merged: Merged(
            base: StoredEntries(stored: stored, removed: removed, reads: readsStored),
            overlay: added.makeIterator()))
      }

      struct Iterator: IteratorProtocol {
        fileprivate var merged: Merged<StoredEntries, IndexingIterator<[KeyedEntry]>>

        mutating func next() -> KeyedEntry? { merged.next() }

        /// The place in the stored index of the entry `next()` returned last; nil for one set
        /// in memory.
        var lastStoredPosition: Int? {
          merged.lastFromBase ? merged.base.lastPosition : nil
        }

        /// Stored entries that no longer parse (skipped).
        var unreadable: Int { merged.base.unreadable }
      }
    }

    /// The stored entries in key order, less the keys in `removed`.
    fileprivate struct StoredEntries: IteratorProtocol {
      let stored: StoredInputs?
      let removed: Set<String>
      /// False: each entry's text is checked to be there, and `Entry.unread` given.
      let reads: Bool
      private var position = 0
      private var released = StoredInputs.ReleaseMark()
      /// The position of the entry `next()` returned last.
      private(set) var lastPosition = 0
      /// Entries checked when loaded but unreadable now (the file changed under the run).
      private(set) var unreadable = 0

      init(stored: StoredInputs?, removed: Set<String>, reads: Bool) {
        self.stored = stored
        self.removed = removed
        self.reads = reads
      }

      mutating func next() -> KeyedEntry? {
        guard let stored else { return nil }
        while position < stored.count {
          let current = position
          position += 1
          let key = stored.key(at: current)
          if !removed.isEmpty, removed.contains(key) { continue }
          let read =
            reads ? stored.entry(at: current) : stored.text(at: current).map { _ in .unread }
          guard let entry = read else {
            unreadable += 1
            continue
          }
          stored.release(behind: current, mark: &released)
          lastPosition = current
          return (key, entry)
        }
        return nil
      }
    }

    /// Each run UUID of every entry whose key is not in `skipping`, with the entry's file: by
    /// its place in the stored index (named through `knownFileName(_:)` only if a warning
    /// needs it), else as text. For the duplicate-run check.
    func knownRuns(skipping: Set<String>) -> KnownRuns {
      KnownRuns(entries: sorted(), skipping: skipping)
    }

    /// Whether the stored entries' text is `StateJSONWriter.appendEntry`'s (this run's spool).
    var isVerbatim: Bool { stored?.isVerbatim == true }

    /// The text of the stored entry at `position` when it is exactly what
    /// `StateJSONWriter.appendEntry` writes for it (`StoredInputs.isVerbatim`); nil otherwise.
    func verbatimText(at position: Int) -> UnsafeBufferPointer<UInt8>? {
      guard let stored, stored.isVerbatim else { return nil }
      return stored.text(at: position)
    }

    /// The stored entries' file, mapped (for tests of what stays in memory).
    var storedBytes: UnsafeBufferPointer<UInt8>? { stored?.mappedBytes }

    /// The display path (`path`, else the key) of the stored entry at `position`.
    func knownFileName(_ position: Int) -> String {
      guard let stored, position >= 0, position < stored.count else { return "" }
      return stored.entry(at: position)?.path ?? stored.key(at: position)
    }

    struct KnownRuns: Sequence {
      let entries: Sorted
      let skipping: Set<String>

      func makeIterator() -> Iterator {
        Iterator(entries: entries.makeIterator(), skipping: skipping)
      }

      struct Iterator: IteratorProtocol {
        var entries: Sorted.Iterator
        let skipping: Set<String>
        var uuids: [String] = []
        var file = DataWarnings.KnownFile.text("")

        mutating func next() -> (String, DataWarnings.KnownFile)? {
          while uuids.isEmpty {
            guard let (key, entry) = entries.next() else { return nil }
            if !skipping.isEmpty, skipping.contains(key) { continue }
            uuids = entry.taskRunUUIDs.reversed()
            file = entries.lastStoredPosition.map { .stored($0) } ?? .text(entry.path ?? key)
          }
          return (uuids.removeLast(), file)
        }
      }
    }

    public static func == (lhs: Inputs, rhs: Inputs) -> Bool {
      lhs.sorted().elementsEqual(rhs.sorted()) { $0.key == $1.key && $0.entry == $1.entry }
    }

    public init(from decoder: Decoder) throws {
      self.init(try [String: Entry](from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
      var dictionary: [String: Entry] = [:]
      for (key, entry) in sorted() { dictionary[key] = entry }
      try dictionary.encode(to: encoder)
    }
  }
}

/// The entries of a state file, indexed: keys in one buffer, sorted; entries read from the
/// mapped file when asked for. Immutable once built, so any thread may read it.
final class StoredInputs: @unchecked Sendable {
  fileprivate struct Record {
    var keyStart: Int
    var keyCount: UInt32
    var valueCount: UInt32
    var valueStart: Int
    var size: Int64
    var modified: Double
  }

  private let file: MappedFile
  private let keyBytes: [UInt8]
  private let records: [Record]
  /// True when each entry's text is `StateJSONWriter.appendEntry`'s for it (the run's own
  /// spool of entries): the state file can take it as it is.
  let isVerbatim: Bool

  var count: Int { records.count }

  /// Collects the entries in file order, then sorts them once.
  struct Builder {
    fileprivate var keyBytes: [UInt8] = []
    fileprivate var records: [Record] = []

    /// `key`'s entry lies at `span` of the file; `entry` is what it says.
    mutating func append(key: String, entry: ExportState.Entry, span: Range<Int>) {
      let start = keyBytes.count
      keyBytes.append(contentsOf: key.utf8)
      records.append(
        Record(
          keyStart: start, keyCount: UInt32(keyBytes.count - start),
          valueCount: UInt32(span.count), valueStart: span.lowerBound, size: entry.size,
          modified: entry.modified))
    }
  }

  init(file: MappedFile, builder: Builder, isVerbatim: Bool = false) {
    self.file = file
    self.isVerbatim = isVerbatim
    let keyBytes = builder.keyBytes
    var records = builder.records
    func less(_ a: Record, _ b: Record) -> Bool {
      keyBytes.withUnsafeBufferPointer { bytes in
        StoredInputs.compare(bytes, a, bytes, b) < 0
      }
    }
    // rkexport writes its keys sorted; a file written otherwise is sorted here (stably, so
    // that of repeated keys the last one wins, as in a dictionary).
    let inOrder = zip(records, records.dropFirst()).allSatisfy { less($0, $1) }
    if !inOrder {
      records = records.enumerated().sorted { a, b in
        less(a.element, b.element) || (!less(b.element, a.element) && a.offset < b.offset)
      }.map(\.element)
      var unique: [Record] = []
      unique.reserveCapacity(records.count)
      for record in records {
        if let last = unique.last, !less(last, record) {
          unique[unique.count - 1] = record
        } else {
          unique.append(record)
        }
      }
      records = unique
    }
    self.keyBytes = keyBytes
    self.records = records
    file.releaseAll()
  }

  private static func compare(
    _ left: UnsafeBufferPointer<UInt8>, _ a: Record, _ right: UnsafeBufferPointer<UInt8>,
    _ b: Record
  ) -> Int {
    compare(
      UnsafeBufferPointer(rebasing: left[a.keyStart..<a.keyStart + Int(a.keyCount)]),
      UnsafeBufferPointer(rebasing: right[b.keyStart..<b.keyStart + Int(b.keyCount)]))
  }

  /// memcmp order, shorter first on a tie: the order of `lexicographicallyPrecedes` on UTF-8.
  private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    let common = min(a.count, b.count)
    if common > 0, let left = a.baseAddress, let right = b.baseAddress {
      let result = memcmp(left, right, common)
      if result != 0 { return Int(result) }
    }
    return a.count - b.count
  }

  func position(of key: String) -> Int? {
    var key = key
    return key.withUTF8 { wanted in
      let index = firstKey(notBelow: wanted)
      return index < records.count && compare(key: index, wanted) == 0 ? index : nil
    }
  }

  /// Whether a key starts with `prefix`: the first key not below it does.
  func hasKey(withPrefix prefix: String) -> Bool {
    var prefix = prefix
    return prefix.withUTF8 { wanted in
      let index = firstKey(notBelow: wanted)
      guard index < records.count else { return false }
      let record = records[index]
      guard Int(record.keyCount) >= wanted.count else { return false }
      return keyBytes.withUnsafeBufferPointer { bytes in
        StoredInputs.compare(
          UnsafeBufferPointer(rebasing: bytes[record.keyStart..<record.keyStart + wanted.count]),
          wanted) == 0
      }
    }
  }

  /// The index of the first key not below `wanted` (the count when every key is below it).
  private func firstKey(notBelow wanted: UnsafeBufferPointer<UInt8>) -> Int {
    var low = 0
    var high = records.count
    while low < high {
      let middle = (low + high) / 2
      if compare(key: middle, wanted) < 0 { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Key `index` against `wanted`, in the keys' order.
  private func compare(key index: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Int {
    let record = records[index]
    return keyBytes.withUnsafeBufferPointer { bytes in
      StoredInputs.compare(
        UnsafeBufferPointer(
          rebasing: bytes[record.keyStart..<record.keyStart + Int(record.keyCount)]), wanted)
    }
  }

  func key(at position: Int) -> String {
    let record = records[position]
    return String(
      decoding: keyBytes[record.keyStart..<record.keyStart + Int(record.keyCount)], as: UTF8.self)
  }

  func fingerprint(forKey key: String) -> InputFingerprint? {
    guard let position = position(of: key) else { return nil }
    let record = records[position]
    return InputFingerprint(size: record.size, modified: record.modified)
  }

  func entry(forKey key: String) -> ExportState.Entry? {
    position(of: key).flatMap(entry(at:))
  }

  /// The text of the entry at `position`; nil when the file no longer holds it.
  func text(at position: Int) -> UnsafeBufferPointer<UInt8>? {
    let record = records[position]
    let end = record.valueStart + Int(record.valueCount)
    guard end <= file.bytes.count else { return nil }
    return UnsafeBufferPointer(rebasing: file.bytes[record.valueStart..<end])
  }

  /// The entry at `position`, read from the file again (it was checked when the file was).
  func entry(at position: Int) -> ExportState.Entry? {
    guard let bytes = text(at: position) else { return nil }
    if let entry = StateEntryScanner.entry(in: bytes) { return entry }
    let value = try? JSONParser(maximumBytes: Int.max).parse(Array(bytes))
    return value.flatMap(ExportState.Entry.init(json:))
  }

  /// How far a pass over the entries has let go of the file's pages.
  struct ReleaseMark {
    /// Pages before this were let go of (in a stretch read in file order).
    var upTo = 0
    /// Bytes of entries read out of file order since the whole file was let go of.
    var outOfOrder = 0
  }

  /// Lets go of the file's pages before the entry at `position` once they add up to a few MB,
  /// as a pass reads the entries in key order.
  ///
  /// Entries come out of file order when the keys' order is not the file's: this run's spool
  /// over several roots not given in sorted order, or a state file rkexport did not write.
  /// Each jump back starts a new stretch, and every few MB read out of order the whole file
  /// is let go of; pages are read from the file again when touched. (Stopping at the first
  /// jump back had kept every page read after it: a 50 MB spool at 100k inputs.)
  func release(behind position: Int, mark: inout ReleaseMark) {
    let record = records[position]
    let start = record.valueStart
    if start >= mark.upTo {
      mark.upTo = file.release(range: mark.upTo..<start)
      return
    }
    mark.upTo = start
    mark.outOfOrder += Int(record.valueCount)
    if mark.outOfOrder >= MappedFile.step {
      file.releaseAll()
      mark.outOfOrder = 0
    }
  }

  /// The mapped file's bytes (for tests of what stays in memory).
  var mappedBytes: UnsafeBufferPointer<UInt8> { file.bytes }
}
