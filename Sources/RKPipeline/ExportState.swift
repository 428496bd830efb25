// What earlier runs exported (--state): one entry per input, so the next run reads only news.
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
    public var taskRunUUIDs: [String]
    /// `ok`, `failed` or `skipped` as in inputs.csv.
    public var status: String
    /// The path as inputs.csv shows it (relative to its input root).
    public var path: String?
  }

  /// Layout version of the file; readers refuse versions they do not know.
  public var version = 1
  /// When the run that wrote this state started (ISO 8601 UTC).
  public var exportedAt: String
  /// Output folder of that run, for the message when --out changes between runs.
  public var outputDirectory: String
  /// Keyed by the input's key: its root and display path (`results|P001/a.archive`).
  public var inputs: [String: Entry]

  public init(exportedAt: String, outputDirectory: String, inputs: [String: Entry] = [:]) {
    self.exportedAt = exportedAt
    self.outputDirectory = outputDirectory
    self.inputs = inputs
  }

  /// Reads a state file; a missing file is an empty state (the first run exports everything).
  ///
  /// Read with rkexport's own JSON parser, one input at a time: Foundation's `JSONDecoder` held
  /// a state of 100,000 inputs (50 MB of JSON) several times over while decoding it.
  public static func load(path: String) throws -> ExportState? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let file = MappedFile(path: path) else {
      throw OutputError(path: path, reason: "cannot read the state file")
    }
    guard let state = try? decode(file.bytes, release: file.release) else {
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
  static func decode(_ bytes: [UInt8]) throws -> ExportState {
    try bytes.withUnsafeBufferPointer { try decode($0, release: { _ in }) }
  }

  /// `decode` over bytes in place; `release(n)` is told, as the reading goes, that the first
  /// `n` bytes are no longer needed.
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, release: (Int) -> Void
  ) throws -> ExportState {
    struct NotAState: Error {}
    var exportedAt: String?
    var outputDirectory: String?
    var version: Int?
    var sawInputs = false
    var inputs: [String: Entry] = [:]
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
      streamedMember: { key, value, readUpTo in
        sawInputs = true
        inputs[key] = try Entry(json: value) ?? { throw NotAState() }()
        release(readUpTo)
      })
    if !sawInputs, !bytes.isEmpty {
      // An empty `inputs` object hands over no member: look for the member itself.
      sawInputs = (try? JSONParser(maximumBytes: Int.max).parse(Array(bytes))["inputs"]) != nil
    }
    guard let exportedAt, let outputDirectory, let version, sawInputs else { throw NotAState() }
    var state = ExportState(
      exportedAt: exportedAt, outputDirectory: outputDirectory, inputs: inputs)
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
    // The writer lives only for this call.
    try withoutActuallyEscaping(write) { write in
      try writeJSON(replacing: newer, into: StateJSONWriter(write: write))
    }
  }

  private func writeJSON(replacing newer: [String: Entry], into writer: StateJSONWriter) throws {
    var out = writer
    try out.append("{\n  \"exportedAt\" : ")
    try out.appendString(exportedAt)
    try out.append(",\n  \"inputs\" : {\n")
    // JSONEncoder orders keys by their UTF-8 bytes.
    var keys = Array(inputs.keys)
    keys += newer.keys.filter { inputs[$0] == nil }
    keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    if keys.isEmpty { try out.append("\n") }
    for (number, key) in keys.enumerated() {
      guard let entry = newer[key] ?? inputs[key] else { continue }
      try out.append("    ")
      try out.appendString(key)
      try out.append(" : {\n      \"hash\" : ")
      try out.appendString(entry.hash)
      try out.append(",\n      \"modified\" : ")
      try out.appendNumber(entry.modified)
      if let path = entry.path {
        try out.append(",\n      \"path\" : ")
        try out.appendString(path)
      }
      try out.append(",\n      \"size\" : \(entry.size),\n      \"status\" : ")
      try out.appendString(entry.status)
      try out.append(",\n      \"taskRunUUIDs\" : [\n")
      if entry.taskRunUUIDs.isEmpty { try out.append("\n") }
      for (index, uuid) in entry.taskRunUUIDs.enumerated() {
        try out.append("        ")
        try out.appendString(uuid)
        try out.append(index + 1 < entry.taskRunUUIDs.count ? ",\n" : "\n")
      }
      try out.append("      ]\n    }")
      try out.append(number + 1 < keys.count ? ",\n" : "\n")
    }
    try out.append("  },\n  \"outputDirectory\" : ")
    try out.appendString(outputDirectory)
    try out.append(",\n  \"version\" : \(version)\n}\n")
    try out.flush()
  }
}

/// A file mapped read-only, whose pages already read can be given back as the reading goes:
/// a state file of 100,000 inputs (50 MB) then never sits in memory whole beside the entries
/// read from it.
private final class MappedFile {
  let bytes: UnsafeBufferPointer<UInt8>
  private let base: UnsafeMutableRawPointer?
  private let length: Int
  private var released = 0
  private static let step = 4 << 20

  init?(path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
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
    if let base { munmap(base, length) }
  }

  /// Drops the pages wholly before `offset` from memory (they are read again if touched).
  func release(_ offset: Int) {
    guard let base, offset - released >= Self.step else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let end = offset / page * page
    guard end > released else { return }
    _ = madvise(base + released, end - released, MADV_DONTNEED)
    released = end
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
private struct StateJSONWriter {
  let write: ([UInt8]) throws -> Void
  private var buffer: [UInt8] = []
  private static let chunkSize = 64 * 1024

  init(write: @escaping ([UInt8]) throws -> Void) {
    self.write = write
    buffer.reserveCapacity(Self.chunkSize + 1024)
  }

  mutating func append(_ text: String) throws {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.chunkSize { try flush() }
  }

  /// A string literal: `"` `\\` and `/` escaped, control characters as `\b \t \n \f \r` or
  /// `\u00xx`, everything else as it is.
  mutating func appendString(_ text: String) throws {
    buffer.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
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
    buffer.removeAll(keepingCapacity: true)
  }
}
