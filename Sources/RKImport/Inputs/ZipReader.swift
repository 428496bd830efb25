// Reads zip entries into memory through ZIPFoundation, after ZipCentralDirectory has checked the
// directory, and with the limits enforced again on the bytes actually inflated.
import CZipChecksum
import Foundation
import ZIPFoundation

/// One open zip (on disk or in memory). Not thread-safe: `ZipReaderCache` serialises use.
final class ZipReader {
  /// One listed entry, path as ZIPFoundation decodes it.
  struct EntryInfo {
    var path: String
    var isFile: Bool
    var isSymlink: Bool
    var uncompressedSize: Int64
    var compressedSize: Int64
  }

  let limits: ZipLimits
  /// ZIPFoundation's archive, or nil for a zip read straight from `directBytes`.
  private let archive: Archive?
  private(set) var entries: [EntryInfo] = []
  private var entryByPath: [String: Entry] = [:]
  /// A zip of the plain kind `ZipDirectRead` reads (see `init(bytes:limits:)`): its bytes and
  /// entries.
  private let directBytes: [UInt8]
  private var directByPath: [String: ZipDirectEntry] = [:]
  /// Whether the entries are read by `ZipDirectRead` (not ZIPFoundation).
  let readsDirectly: Bool

  /// Zip files up to this size are read whole when opened: one of the plain kind
  /// `ZipDirectRead` reads is read from memory (a zip of a hundred archives, ~430 KiB, was read
  /// whole to tell it, then read again entry by entry through ZIPFoundation's file access);
  /// others as `ZipLimits.inMemoryZipSize` says. `readFileUnlessZip` reads files up to this
  /// size whole, so a zip found at import is opened from the bytes read to tell it.
  static let directReadSize: Int64 = 1 << 20

  /// Opens a zip file on disk. One of at most `limits.inMemoryZipSize` bytes (or, of the plain
  /// kind, `directReadSize`) is read whole and opened in memory: one read instead of
  /// ZIPFoundation's buffered file access per entry, and none of the 31 bytes Foundation's
  /// file-system path conversion leaks per zip opened by path (100,000 Bridge uploads are
  /// opened twice each, by the walk and by the importer).
  ///
  /// A zip that ZIPFoundation could be made to read past the end of (see
  /// `ZipInMemoryCheck`) is opened from the file instead.
  convenience init(path: String, limits: ZipLimits) throws {
    let wholeSize = max(limits.inMemoryZipSize, ZipReader.directReadSize)
    if case .bytes(let bytes) = try readFileUnlessLarger(path, limit: wholeSize) {
      try self.init(path: path, bytes: bytes, limits: limits)
      return
    }
    try self.init(fileAt: path, limits: limits)
  }

  /// Opens the zip file at `path` as `init(path:limits:)` does, from its bytes when the caller
  /// read them whole already (`bytes`: the file's contents).
  convenience init(path: String, bytes: [UInt8]?, limits: ZipLimits) throws {
    guard let bytes else {
      try self.init(path: path, limits: limits)
      return
    }
    guard Int64(bytes.count) <= max(limits.inMemoryZipSize, ZipReader.directReadSize),
      ZipInMemoryCheck.readsStayWithin(bytes)
    else {
      try self.init(fileAt: path, limits: limits)
      return
    }
    if Int64(bytes.count) <= limits.inMemoryZipSize {
      try self.init(bytes: bytes, limits: limits)
      return
    }
    // Larger: from memory only when read directly (ZIPFoundation reads a file of this size
    // faster than its in-memory archive does), else from the file, with the same records.
    let records = try ZipReader.scan(bytes, limits: limits)
    if let direct = ZipDirectRead.entries(records, in: bytes) {
      try self.init(bytes: bytes, records: records, direct: direct, limits: limits)
      return
    }
    try self.init(file: path, records: records, limits: limits)
  }

  /// Opens a zip file on disk through ZIPFoundation's file access.
  private convenience init(fileAt path: String, limits: ZipLimits) throws {
    let records = try ZipReader.scanFile(path, limits: limits)
    try self.init(file: path, records: records, limits: limits)
  }

  /// Opens a zip held in memory (a zip inside a zip): read straight from its bytes when it is
  /// of the plain kind `ZipDirectRead` reads (and `readsDirectly`, which tests turn off to
  /// compare), else by ZIPFoundation: in memory when its reads stay within it, else from an
  /// unlinked temporary copy.
  convenience init(bytes: [UInt8], limits: ZipLimits, readsDirectly: Bool = true) throws {
    let records = try ZipReader.scan(bytes, limits: limits)
    guard ZipInMemoryCheck.readsStayWithin(bytes) else {
      let copy = try ZipReader.temporaryCopy(of: bytes)
      defer { unlink(copy) }
      try self.init(file: copy, records: records, limits: limits)
      return
    }
    if readsDirectly, let direct = ZipDirectRead.entries(records, in: bytes) {
      try self.init(bytes: bytes, records: records, direct: direct, limits: limits)
      return
    }
    let archive: Archive
    do {
      archive = try Archive(data: Data(bytes), accessMode: .read)
    } catch {
      throw ImportError(reason: "damaged zip: \(error)")
    }
    try self.init(archive: archive, records: records, limits: limits)
  }

  /// Opens a zip file on disk through ZIPFoundation (which keeps it open: unlinking it then
  /// is fine).
  private convenience init(file path: String, records: [ZipDirectoryRecord], limits: ZipLimits)
    throws
  {
    let archive: Archive
    do {
      archive = try FileSystemName.withOpenedPath(path) {
        try Archive(url: URL(fileURLWithPath: $0), accessMode: .read)
      }
    } catch {
      throw ImportError(reason: "damaged zip: \(error)")
    }
    try self.init(archive: archive, records: records, limits: limits)
  }

  /// Writes `bytes` to a new file in the temporary folder; returns its path.
  private static func temporaryCopy(of bytes: [UInt8]) throws -> String {
    let folder = FileManager.default.temporaryDirectory.path
    var template = Array((folder + "/rkexport-zip-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw ImportError(reason: "cannot make a temporary copy of the zip in \(folder)")
    }
    defer { close(descriptor) }
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else {
        unlink(path)
        throw ImportError(reason: "cannot write a temporary copy of the zip in \(folder)")
      }
      written += count
    }
    return path
  }

  /// A zip read from its bytes by `ZipDirectRead`: its entries as ZIPFoundation would list
  /// them (a printable ASCII name is ZIPFoundation's path; the type, sizes and checksum are the
  /// central record's).
  private init(
    bytes: [UInt8], records: [ZipDirectoryRecord], direct: [ZipDirectEntry], limits: ZipLimits
  ) throws {
    archive = nil
    directBytes = bytes
    readsDirectly = true
    self.limits = limits
    try ZipReader.refuseEncrypted(records)
    for (record, entry) in zip(records, direct) {
      entries.append(
        EntryInfo(
          path: record.name, isFile: !entry.isDirectory, isSymlink: false,
          uncompressedSize: entry.uncompressedSize, compressedSize: entry.compressedSize))
      if directByPath[record.name] == nil { directByPath[record.name] = entry }
    }
  }

  private static func refuseEncrypted(_ records: [ZipDirectoryRecord]) throws {
    if let index = records.firstIndex(where: \.isEncrypted) {
      throw ImportError(
        reason: "encrypted zip (entry \(index + 1) of \(records.count), "
          + "\"\(records[index].name)\"): encrypted zips are not supported")
    }
  }

  private init(archive: Archive, records: [ZipDirectoryRecord], limits: ZipLimits) throws {
    self.archive = archive
    directBytes = []
    readsDirectly = false
    self.limits = limits
    try ZipReader.refuseEncrypted(records)
    for (index, entry) in archive.enumerated() {
      // ZIPFoundation decodes an entry's path per call, a character at a time (twice for
      // `type`); a printable ASCII name is taken from the directory scan instead, when the
      // record is this entry's.
      let record = index < records.count ? records[index] : nil
      let path: String
      let type: Entry.EntryType
      if let record, record.nameIsPrintableASCII, record.crc32 == entry.checksum,
        record.compressedSize == Int64(clamping: entry.compressedSize)
      {
        path = record.name
        type = ZipReader.entryType(record)
      } else {
        path = entry.path
        type = entry.type
      }
      entries.append(
        EntryInfo(
          path: path, isFile: type == .file, isSymlink: type == .symlink,
          uncompressedSize: Int64(clamping: entry.uncompressedSize),
          compressedSize: Int64(clamping: entry.compressedSize)))
      if entryByPath[path] == nil { entryByPath[path] = entry }
    }
    guard entries.count == records.count else {
      throw ImportError(
        reason: "damaged zip: directory lists \(records.count) entries, "
          + "\(entries.count) could be read")
    }
  }

  /// An entry's type as ZIPFoundation's `Entry.type` works it out: from the Unix mode when
  /// the attributes are Unix's (or macOS's), else from a trailing `/` (or, for MS-DOS, the
  /// directory attribute).
  static func entryType(_ record: ZipDirectoryRecord) -> Entry.EntryType {
    let isDirectory = record.name.hasSuffix("/")
    switch record.versionMadeBy >> 8 {
    case 3, 19:  // Unix, macOS
      switch mode_t(UInt16(truncatingIfNeeded: record.externalAttributes >> 16)) & S_IFMT {
      case S_IFREG: return .file
      case S_IFDIR: return .directory
      case S_IFLNK: return .symlink
      default: return isDirectory ? .directory : .file
      }
    case 0:  // MS-DOS
      return isDirectory || record.externalAttributes >> 4 == 0x01 ? .directory : .file
    default:
      return isDirectory ? .directory : .file
    }
  }

  /// The whole entry, refused when its declared or actual size breaks the limits.
  func read(_ path: String) throws -> [UInt8] {
    try read(path, stopAfter: nil)
  }

  /// The entry at `path` parsed as JSON by `parser`. The value of the small entry parsed last
  /// is kept: a Bridge upload's `info.json` is parsed by the walk to tell the upload and again
  /// first by its import (~32 k instructions an upload with the value's freeing). It is handed
  /// back to a parser whose limits are no stricter (a value parsed within some limits parses
  /// alike within looser ones); a stricter one parses again.
  func readJSON(_ path: String, parser: JSONParser) throws -> JSONItem {
    if let lastParsed, lastParsed.path == path,
      lastParsed.parser.maximumBytes <= parser.maximumBytes,
      lastParsed.parser.maximumDepth <= parser.maximumDepth
    {
      return lastParsed.value
    }
    let bytes = try read(path)
    let value = try parser.parseDocument(bytes).root
    lastParsed = bytes.count <= ZipReader.lastParsedSize ? (path, parser, value) : nil
    return value
  }

  private var lastParsed: (path: String, parser: JSONParser, value: JSONItem)?
  private static let lastParsedSize = 64 << 10

  /// Up to `count` leading bytes of an entry (inflating only the first chunk).
  func peek(_ path: String, count: Int) -> [UInt8] {
    (try? read(path, stopAfter: count)) ?? []
  }

  private struct StopReading: Error {}

  private func read(_ path: String, stopAfter: Int?) throws -> [UInt8] {
    let direct = directByPath[path]
    let entry = direct == nil ? entryByPath[path] : nil
    let compressed: Int64
    let declared: Int64
    let checksum: UInt32
    if let direct {
      (compressed, declared, checksum) =
        (direct.compressedSize, direct.uncompressedSize, direct.crc32)
    } else if let entry {
      (compressed, declared, checksum) =
        (
          Int64(clamping: entry.compressedSize), Int64(clamping: entry.uncompressedSize),
          entry.checksum
        )
    } else {
      throw ImportError(reason: "no entry \"\(path)\" in the zip")
    }
    if stopAfter == nil,
      let refusal = limits.refusal(uncompressed: declared, compressed: compressed)
    {
      throw ImportError(reason: refusal)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(stopAfter ?? Int(min(declared, 1 << 24)))
    // A peek reads (and inflates) small chunks: the walk peeks at every entry of every zip, and
    // with whole-entry chunks it inflated each entry once more than the import does.
    let chunkSize = stopAfter == nil ? 16 * 1024 : 256
    func take(_ chunk: UnsafeRawBufferPointer) throws {
      bytes.append(contentsOf: chunk)
      if let stopAfter, bytes.count >= stopAfter { throw StopReading() }
      // Sizes in the directory can lie: check what actually came out.
      if Int64(bytes.count) > declared {
        throw ImportError(reason: "entry inflates beyond its declared size (possible zip bomb)")
      }
      if let refusal = limits.refusal(uncompressed: Int64(bytes.count), compressed: compressed) {
        throw ImportError(reason: refusal)
      }
    }
    do {
      if let direct {
        try ZipDirectRead.read(direct, from: directBytes, bufferSize: chunkSize, take)
      } else if let entry, let archive {
        // The checksum is zlib's, over the whole entry below: ZIPFoundation's own (on Linux)
        // costs about as much as inflating.
        _ = try archive.extract(entry, bufferSize: chunkSize, skipCRC32: true) { chunk in
          try chunk.withUnsafeBytes { try take($0) }
        }
      }
      if stopAfter == nil, ZipReader.checksum(bytes) != checksum {
        throw ImportError(reason: "damaged zip entry: checksum mismatch")
      }
    } catch is StopReading {
      return Array(bytes.prefix(stopAfter ?? bytes.count))
    } catch let error as ImportError {
      throw error
    } catch Archive.ArchiveError.invalidCRC32 {
      throw ImportError(reason: "damaged zip entry: checksum mismatch")
    } catch {
      throw ImportError(reason: "damaged zip entry: \(error)")
    }
    return bytes
  }

  /// The CRC-32 of `bytes` as zip stores it, by zlib.
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { buffer in
      var crc = crc32(0, nil, 0)
      var done = 0
      // zlib takes at most 4 GiB minus one a call.
      while done < buffer.count, let base = buffer.baseAddress {
        let count = min(buffer.count - done, Int(UInt32.max))
        crc = crc32(crc, base + done, UInt32(count))
        done += count
      }
      return UInt32(truncatingIfNeeded: crc)
    }
  }

  /// Scans the central directory of a zip held in memory.
  private static func scan(_ bytes: [UInt8], limits: ZipLimits) throws -> [ZipDirectoryRecord] {
    try ZipCentralDirectory.scan(length: Int64(bytes.count), limits: limits) { offset, count in
      guard offset >= 0, count >= 0, offset + Int64(count) <= Int64(bytes.count) else {
        return nil
      }
      return Array(bytes[Int(offset)..<Int(offset) + count])
    }
  }

  /// Scans a zip file's central directory with positioned reads (no whole-file load).
  private static func scanFile(_ path: String, limits: ZipLimits) throws -> [ZipDirectoryRecord] {
    let fd = FileSystemName.openPath(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw ImportError(reason: "cannot open: \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw ImportError(reason: "cannot stat") }
    return try ZipCentralDirectory.scan(length: Int64(info.st_size), limits: limits) {
      offset, count in
      guard offset >= 0, count >= 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: count)
      let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
      return got == count ? buffer : nil
    }
  }
}
