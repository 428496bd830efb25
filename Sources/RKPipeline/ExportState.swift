// What earlier runs exported (--state): one entry per input, so the next run reads only news.
internal import CMapGuard
import Foundation
import RKImport

/// The `--state` file: every input an earlier run exported, with what identifies its content.
///
/// An input counts as unchanged when its size and modification time are those recorded (as
/// `make` and `rsync` decide); when either differs, its content hash decides, so a file that was
/// only touched is not exported twice. Stored as JSON, written atomically after the outputs.
public struct ExportState: Codable, Sendable, Equatable {
  /// One exported input.
  public struct Entry: Codable, Sendable, Equatable {
    /// Size in bytes.
    public var size: Int64
    /// Modification time, seconds since 1970 (sub-second part kept).
    public var modified: Double
    /// `ContentHash` hex of the bytes ("" for Bridge uploads and zip entries, see `identity`).
    public var hash: String
    /// Run UUIDs the input held (empty when it failed or held none).
    public var taskRunUUIDs: [String] {
      get { runUUIDs.strings }
      set { runUUIDs = JoinedStrings(newValue) }
    }
    /// `ok`, `failed` or `skipped` as in inputs.csv.
    public var status: String
    /// The path as inputs.csv shows it (relative to its input root).
    public var path: String?
    /// `taskRunUUIDs` in one string: a state of 100,000 inputs holds 450,000 of them.
    private var runUUIDs: JoinedStrings
    /// The run UUIDs as stored, for writing them out without a String each.
    var runUUIDList: JoinedStrings { runUUIDs }

    public init(
      size: Int64, modified: Double, hash: String, taskRunUUIDs: [String], status: String,
      path: String?
    ) {
      self.size = size
      self.modified = modified
      self.hash = hash
      self.runUUIDs = JoinedStrings(taskRunUUIDs)
      self.status = status
      self.path = path
    }

    /// Stands for a stored entry a pass takes as text, not read (`Inputs.sorted(verbatimUnread:)`);
    /// never written.
    static let unread = Entry(
      size: 0, modified: 0, hash: "", runUUIDs: JoinedStrings([]), status: "", path: nil)

    /// An entry whose run UUIDs are joined already (`StateEntryScanner`).
    init(
      size: Int64, modified: Double, hash: String, runUUIDs: JoinedStrings, status: String,
      path: String?
    ) {
      self.size = size
      self.modified = modified
      self.hash = hash
      self.runUUIDs = runUUIDs
      self.status = status
      self.path = path
    }

    private enum CodingKeys: String, CodingKey {
      case size, modified, hash, taskRunUUIDs, status, path
    }

    public init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        size: try container.decode(Int64.self, forKey: .size),
        modified: try container.decode(Double.self, forKey: .modified),
        hash: try container.decode(String.self, forKey: .hash),
        taskRunUUIDs: try container.decode([String].self, forKey: .taskRunUUIDs),
        status: try container.decode(String.self, forKey: .status),
        path: try container.decodeIfPresent(String.self, forKey: .path))
    }

    public func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(size, forKey: .size)
      try container.encode(modified, forKey: .modified)
      try container.encode(hash, forKey: .hash)
      try container.encode(taskRunUUIDs, forKey: .taskRunUUIDs)
      try container.encode(status, forKey: .status)
      try container.encodeIfPresent(path, forKey: .path)
    }
  }

  /// Layout version of the file; readers refuse versions they do not know.
  public var version = 1
  /// When the run that wrote this state started (ISO 8601 UTC).
  public var exportedAt: String
  /// Output folder of that run, for the message when --out changes between runs.
  public var outputDirectory: String
  /// Keyed by the input's key: its root and display path (`results|P001/a.archive`).
  public var inputs: Inputs

  public init(exportedAt: String, outputDirectory: String, inputs: Inputs = [:]) {
    self.exportedAt = exportedAt
    self.outputDirectory = outputDirectory
    self.inputs = inputs
  }

  /// Reads a state file; a missing file is an empty state (the first run exports everything).
  ///
  /// Read with rkexport's own JSON parser, one input at a time: Foundation's `JSONDecoder` held
  /// a state of 100,000 inputs (50 MB of JSON) several times over while decoding it. Every
  /// entry is checked, then left in the mapped file (`Inputs`): only keys and fingerprints
  /// stay in memory.
  public static func load(path: String) throws -> ExportState? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let file = MappedFile(path: path) else {
      throw OutputError(path: path, reason: "cannot read the state file")
    }
    var released = 0
    let read = try? decode(
      file.bytes, release: { released = file.release(range: released..<$0) }, storedIn: file)
    guard let state = read else {
      throw OutputError(
        path: path, reason: "not an rkexport state file (remove it to export everything again)")
    }
    guard state.version == 1 else {
      throw OutputError(path: path, reason: "state file version \(state.version) is unknown")
    }
    return state
  }

  /// A state from its JSON text: every member `JSONDecoder` required must be there with its
  /// type (`path` may be missing or null); members it did not know are ignored.
  ///
  /// `scansPlainEntries` false parses every entry as any JSON (the scanner's tests compare).
  static func decode(_ bytes: [UInt8], scansPlainEntries: Bool = true) throws -> ExportState {
    try bytes.withUnsafeBufferPointer {
      try decode($0, release: { _ in }, scansPlainEntries: scansPlainEntries)
    }
  }

  /// `decode` over bytes in place; `release(n)` is told, as the reading goes, that the first
  /// `n` bytes are no longer needed. With `file` (whose bytes these are), the inputs are
  /// checked as they are read but kept as an index over the file (`ExportState.Inputs`).
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, release: (Int) -> Void, storedIn file: MappedFile? = nil,
    scansPlainEntries: Bool = true
  ) throws -> ExportState {
    struct NotAState: Error {}
    var exportedAt: String?
    var outputDirectory: String?
    var version: Int?
    var sawInputs = false
    var inputs: [String: Entry] = [:]
    var stored = StoredInputs.Builder()
    /// One entry of `inputs`, parsed or scanned, lying at `span`.
    func record(_ key: String, _ entry: Entry, span: Range<Int>) {
      sawInputs = true
      if file != nil {
        stored.append(key: key, entry: entry, span: span)
      } else {
        inputs[key] = entry
      }
      release(span.upperBound)
    }
    try JSONParser(maximumBytes: Int.max).parseObject(
      bytes, streaming: "inputs",
      member: { key, value in
        switch key {
        case "exportedAt": exportedAt = value.stringValue
        case "outputDirectory": outputDirectory = value.stringValue
        case "version": version = value.numberValue?.int64Value.flatMap { Int(exactly: $0) }
        case "inputs": throw NotAState()  // not an object
        default: break
        }
      },
      streamedMember: { key, value, span in
        record(key, try Entry(json: value) ?? { throw NotAState() }(), span: span)
      },
      readInPlace: { key, start in
        // The plain entries rkexport writes, read without a JSON tree; any other is parsed.
        guard scansPlainEntries,
          let (entry, end) = StateEntryScanner.entry(in: bytes, from: start)
        else {
          return nil
        }
        record(key, entry, span: start..<end)
        return end
      })
    if !sawInputs, !bytes.isEmpty {
      // An empty `inputs` object hands over no member: look for the member itself.
      sawInputs = (try? JSONParser(maximumBytes: Int.max).parse(Array(bytes))["inputs"]) != nil
    }
    guard let exportedAt, let outputDirectory, let version, sawInputs else { throw NotAState() }
    var state = ExportState(
      exportedAt: exportedAt, outputDirectory: outputDirectory,
      inputs: file.map { Inputs(stored: StoredInputs(file: $0, builder: stored)) }
        ?? Inputs(inputs))
    state.version = version
    return state
  }

  /// The bytes written to the state file: sorted keys, so identical states give identical files.
  public func encoded() throws -> Data {
    var data = Data()
    try writeJSON { data.append(contentsOf: $0) }
    return data
  }

  /// Writes the state file's text through `write`, in chunks of about 64 KiB: the bytes
  /// Foundation's `JSONEncoder` gives with sorted keys and pretty printing, and a newline. A state
  /// of 100,000 inputs is about 50 MB of JSON; the encoder held it twice over as a tree and as
  /// text.
  ///
  /// Entries in `newer` replace or add to `inputs` as written, so that a run's new entries need
  /// not be merged into a copy of a large state first.
  public func writeJSON(
    replacing newer: [String: Entry] = [:], _ write: ([UInt8]) throws -> Void
  ) throws {
    try writeJSON(replacing: Inputs(newer), write)
  }

  /// `writeJSON` with this run's entries as `Inputs` (spooled to a file: `EntrySpool`).
  func writeJSON(replacing newer: Inputs, _ write: ([UInt8]) throws -> Void) throws {
    // The writer lives only for this call.
    try withoutActuallyEscaping(write) { write in
      try writeJSON(replacing: newer, into: StateJSONWriter(write: write))
    }
  }

  private func writeJSON(replacing newer: Inputs, into writer: StateJSONWriter) throws {
    var out = writer
    try out.append("{\n  \"exportedAt\" : ")
    try out.appendString(exportedAt)
    try out.append(",\n  \"inputs\" : {\n")
    // JSONEncoder orders keys by their UTF-8 bytes, as `Inputs.sorted()` gives them.
    var written = 0
    var entries = inputs.sorted(replacing: newer)
    while let (key, entry) = entries.next() {
      try out.append(written == 0 ? "    " : ",\n    ")
      written += 1
      try out.appendString(key)
      try out.append(" : ")
      // This run's entries were written by `appendEntry` to its spool: copied as they are
      // (and not read: they come as `Entry.unread`).
      if !entries.lastFromBase, let position = entries.overlay.lastStoredPosition,
        newer.isVerbatim
      {
        // Checked there when the entry was passed over; the mapping does not shrink.
        guard let text = newer.verbatimText(at: position) else {
          throw StateChangedError(unreadable: 1)
        }
        try out.append(bytes: text)
      } else {
        try out.appendEntry(entry)
      }
    }
    // An entry lost here would make its input look new next time: refuse to write the state.
    let unreadable = entries.base.unreadable + entries.overlay.unreadable
    guard unreadable == 0 else { throw StateChangedError(unreadable: unreadable) }
    try out.append("\n")
    try out.append("  },\n  \"outputDirectory\" : ")
    try out.appendString(outputDirectory)
    try out.append(",\n  \"version\" : \(version)\n}\n")
    try out.flush()
  }
}

/// The state file (or this run's spool of entries) changed while the run was reading it, so
/// the next state cannot be written whole.
struct StateChangedError: Error, CustomStringConvertible {
  var unreadable: Int
  var description: String {
    "\(unreadable) entries of the state changed while this run read it "
      + "(was the state file rewritten in place?); the state was not updated"
  }
}

/// Strings kept as one, joined by newlines (when none holds one; else as they are): one
/// allocation instead of one per string and an array.
struct JoinedStrings: Sendable, Equatable {
  private enum Storage: Sendable, Equatable {
    case joined(String, count: Int)
    case list([String])
  }

  private var storage: Storage

  init(_ strings: [String]) {
    if strings.contains(where: Self.holdsNewline) {
      storage = .list(strings)
    } else {
      storage = .joined(strings.joined(separator: "\n"), count: strings.count)
    }
  }

  /// Strings of ASCII without a newline, given joined by newlines (`count` of them).
  init(joinedASCII bytes: [UInt8], count: Int) {
    storage = .joined(String(decoding: bytes, as: UTF8.self), count: count)
  }

  private static func holdsNewline(_ string: String) -> Bool {
    var string = string
    return string.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return false }
      return memchr(base, 0x0A, bytes.count) != nil
    }
  }

  var strings: [String] {
    var strings: [String] = []
    strings.reserveCapacity(count)
    forEachUTF8 { strings.append(String(decoding: $0, as: UTF8.self)) }
    return strings
  }

  var count: Int {
    switch storage {
    case .list(let strings): strings.count
    case .joined(_, let count): count
    }
  }

  /// Each string's UTF-8 bytes, in order, without making a String of it.
  func forEachUTF8(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    switch storage {
    case .list(let strings):
      for var string in strings { try string.withUTF8 { try body($0) } }
    case .joined(_, count: 0):
      return
    case .joined(var text, _):
      try text.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return try body(bytes) }
        var start = 0
        while true {
          let end =
            memchr(base + start, 0x0A, bytes.count - start).map {
              base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
            } ?? bytes.count
          try body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
          guard end < bytes.count else { return }
          start = end + 1
        }
      }
    }
  }
}

/// A file mapped read-only, whose pages already read can be given back as the reading goes:
/// a state file of 100,000 inputs (50 MB) then never sits in memory whole. Pages given back are
/// read from the file again when touched (the mapping is private and never written).
///
/// A file opened by path is guarded (`CMapGuard`): if another program cuts it short while it is
/// mapped, reading past its new end ends the run with a message naming the file and exit status
/// 3, not a crash. (The run's outputs are still in the staging folder, which the next run
/// removes; the state file is not rewritten.)
final class MappedFile {
  let bytes: UnsafeBufferPointer<UInt8>
  private let base: UnsafeMutableRawPointer?
  private let length: Int
  private var guardSlot: Int32 = -1
  static let step = 4 << 20

  convenience init?(path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    self.init(descriptor: fd)
    guard let base else { return }
    rk_map_guard_install(3)
    let message =
      "rkexport: \(path): the file was cut short by another program while this run was "
      + "reading it; nothing was exported (run again)\n"
    guardSlot = rk_map_guard_register(base, length, message)
  }

  /// Maps the regular file open as `fd` (which the caller may close afterwards). Unguarded: for
  /// the run's own unlinked scratch files, which no other program can reach.
  init?(descriptor fd: Int32) {
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    length = Int(info.st_size)
    guard length > 0 else {
      base = nil
      bytes = UnsafeBufferPointer(start: nil, count: 0)
      return
    }
    guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED
    else { return nil }
    base = mapped
    bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: length)
  }

  deinit {
    rk_map_guard_unregister(guardSlot)
    if let base { munmap(base, length) }
  }

  /// Drops every page from memory.
  func releaseAll() {
    guard let base else { return }
    _ = madvise(base, length, MADV_DONTNEED)
  }

  /// Drops the pages wholly inside `range` once they are at least a few MB; returns where the
  /// dropped pages now end (`range.lowerBound` when none were). Keeps no state of its own, so
  /// passes over the file on several threads do not share a mark.
  func release(range: Range<Int>) -> Int {
    guard let base, range.count >= Self.step else { return range.lowerBound }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let start = (range.lowerBound + page - 1) / page * page
    let end = min(range.upperBound, length) / page * page
    guard end > start else { return range.lowerBound }
    _ = madvise(base + start, end - start, MADV_DONTNEED)
    return end
  }
}

extension ExportState.Entry {
  /// An entry from its JSON object; nil when a member is missing or of another type.
  init?(json: JSONValue) {
    guard case .object = json, let size = json["size"]?.numberValue?.int64Value,
      let modified = json["modified"]?.numberValue?.double, let hash = json["hash"]?.stringValue,
      case .array(let uuids)? = json["taskRunUUIDs"], let status = json["status"]?.stringValue
    else { return nil }
    let taskRunUUIDs = uuids.compactMap(\.stringValue)
    guard taskRunUUIDs.count == uuids.count else { return nil }
    var path: String?
    switch json["path"] {
    case nil, .null?: path = nil
    case .string(let text)?: path = text
    default: return nil
    }
    self.init(
      size: size, modified: modified, hash: hash, taskRunUUIDs: taskRunUUIDs, status: status,
      path: path)
  }
}

/// JSON text as `JSONEncoder` writes it, buffered and handed on in chunks.
struct StateJSONWriter {
  let write: ([UInt8]) throws -> Void
  private var buffer: [UInt8] = []
  private var flushedCount = 0
  private static let chunkSize = 64 * 1024

  /// Bytes appended so far (handed on or not).
  var position: Int { flushedCount + buffer.count }

  init(write: @escaping ([UInt8]) throws -> Void) {
    self.write = write
    buffer.reserveCapacity(Self.chunkSize + 1024)
  }

  mutating func append(_ text: String) throws {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.chunkSize { try flush() }
  }

  /// Text already written as JSON (an entry's, by `appendEntry`).
  mutating func append(bytes: UnsafeBufferPointer<UInt8>) throws {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.chunkSize { try flush() }
  }

  /// A string literal: `"` `\\` and `/` escaped, control characters as `\b \t \n \f \r` or
  /// `\u00xx`, everything else as it is.
  mutating func appendString(_ text: String) throws {
    var text = text
    try text.withUTF8 { try appendString(utf8: $0) }
  }

  mutating func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>) throws {
    buffer.append(UInt8(ascii: "\""))
    // Most strings (keys, hashes, UUIDs, paths) need no escape: one copy.
    if !bytes.contains(where: Self.needsEscape) {
      buffer.append(contentsOf: bytes)
      buffer.append(UInt8(ascii: "\""))
      if buffer.count >= Self.chunkSize { try flush() }
      return
    }
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(byte)
      case 0x08: buffer.append(contentsOf: Array("\\b".utf8))
      case 0x09: buffer.append(contentsOf: Array("\\t".utf8))
      case 0x0A: buffer.append(contentsOf: Array("\\n".utf8))
      case 0x0C: buffer.append(contentsOf: Array("\\f".utf8))
      case 0x0D: buffer.append(contentsOf: Array("\\r".utf8))
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        buffer.append(contentsOf: Array("\\u00".utf8))
        buffer.append(hex[Int(byte >> 4)])
        buffer.append(hex[Int(byte & 0x0F)])
      default:
        buffer.append(byte)
      }
    }
    buffer.append(UInt8(ascii: "\""))
    if buffer.count >= Self.chunkSize { try flush() }
  }

  @inline(__always)
  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
      || byte == UInt8(ascii: "/")
  }

  /// One entry's object, as JSONEncoder writes it at the depth of the state's inputs.
  mutating func appendEntry(_ entry: ExportState.Entry) throws {
    try append("{\n      \"hash\" : ")
    try appendString(entry.hash)
    try append(",\n      \"modified\" : ")
    try appendNumber(entry.modified)
    if let path = entry.path {
      try append(",\n      \"path\" : ")
      try appendString(path)
    }
    try append(",\n      \"size\" : \(entry.size),\n      \"status\" : ")
    try appendString(entry.status)
    try append(",\n      \"taskRunUUIDs\" : [\n")
    let uuidCount = entry.runUUIDList.count
    if uuidCount == 0 { try append("\n") }
    var index = 0
    try entry.runUUIDList.forEachUTF8 { uuid in
      try append("        ")
      try appendString(utf8: uuid)
      index += 1
      try append(index < uuidCount ? ",\n" : "\n")
    }
    try append("      ]\n    }")
  }

  /// A number as JSONEncoder writes a `Double`: its shortest form, without `.0`.
  mutating func appendNumber(_ value: Double) throws {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: [], debugDescription: "a modification time is not finite"))
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    try append(text)
  }

  mutating func flush() throws {
    guard !buffer.isEmpty else { return }
    try write(buffer)
    flushedCount += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }
}
