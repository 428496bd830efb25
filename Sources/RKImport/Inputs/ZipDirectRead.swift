// The entries of a small zip held in memory, read straight from its bytes with zlib: for a
// Bridge upload zip of a few small files, ZIPFoundation's in-memory archive cost ~370 k
// instructions an upload (its entry iterator, a zero-filled 16 KiB `Data` per read, copies),
// half of the upload's import. Only zips of the plain kind below are read so; ZIPFoundation
// reads every other.
import CZipChecksum

/// Where one entry's data lies in the zip's bytes (after the local header its central record
/// points at, as ZIPFoundation finds it), and what the central record says of it.
struct ZipDirectEntry {
  var dataStart: Int
  /// The bytes stored: the compressed size, or for a stored entry the uncompressed size.
  var storedCount: Int
  var method: UInt16
  var isDirectory: Bool
  var compressedSize: Int64
  var uncompressedSize: Int64
  var crc32: UInt32
}

enum ZipDirectRead {
  /// The entries of the zip `bytes` whose central directory is `records`, when every one is
  /// of the plain kind read here exactly as ZIPFoundation reads it: a printable ASCII name, a
  /// file or folder, stored or deflated, no sign of ZIP64 (`ZipDirectoryRecord.usesZIP64`:
  /// ZIPFoundation would read ZIP64 fields), a local header of the same method
  /// whose data lies within the bytes, and a data descriptor after it, if any, that repeats the
  /// directory's checksum and sizes (ZIPFoundation takes them from there); and an end record whose
  /// comment lies within them too (ZIPFoundation cannot open the zip otherwise). nil otherwise.
  static func entries(_ records: [ZipDirectoryRecord], in bytes: [UInt8]) -> [ZipDirectEntry]? {
    guard endRecordIsWhole(bytes) else { return nil }
    var entries: [ZipDirectEntry] = []
    entries.reserveCapacity(records.count)
    for record in records {
      guard record.nameIsPrintableASCII, !record.usesZIP64, !record.isEncrypted,
        record.method == 0 || record.method == 8
      else { return nil }
      let type = ZipReader.entryType(record)
      guard type == .file || type == .directory else { return nil }
      // The scan keeps offsets within the zip; sizes without ZIP64 are below 2^32.
      let offset = Int(record.localHeaderOffset)
      guard offset + 30 <= bytes.count, le32(bytes, offset) == 0x0403_4B50,
        le16(bytes, offset + 8) == record.method
      else { return nil }
      let dataStart = offset + 30 + Int(le16(bytes, offset + 26)) + Int(le16(bytes, offset + 28))
      let storedCount = Int(record.method == 0 ? record.uncompressedSize : record.compressedSize)
      guard dataStart + storedCount <= bytes.count,
        record.flags & 0x08 == 0
          || descriptorRepeats(record, in: bytes, at: dataStart + storedCount)
      else { return nil }
      entries.append(
        ZipDirectEntry(
          dataStart: dataStart, storedCount: storedCount, method: record.method,
          isDirectory: type == .directory, compressedSize: record.compressedSize,
          uncompressedSize: record.uncompressedSize, crc32: record.crc32))
    }
    return entries
  }

  /// Whether the data descriptor at `position` (16 bytes as ZIPFoundation reads it, its
  /// signature optional) holds the record's checksum and sizes.
  private static func descriptorRepeats(
    _ record: ZipDirectoryRecord, in bytes: [UInt8], at position: Int
  ) -> Bool {
    guard position + 16 <= bytes.count else { return false }
    let start = le32(bytes, position) == 0x0807_4B50 ? position + 4 : position
    return le32(bytes, start) == record.crc32
      && Int64(le32(bytes, start + 4)) == record.compressedSize
      && Int64(le32(bytes, start + 8)) == record.uncompressedSize
  }

  /// Whether the last end record in `bytes` (where the directory scan and ZIPFoundation both
  /// find it) holds its whole comment.
  private static func endRecordIsWhole(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 22 else { return false }
    var end = bytes.count - 22
    while end >= 0 && le32(bytes, end) != 0x0605_4B50 { end -= 1 }
    return end >= 0 && end + 22 + Int(le16(bytes, end + 20)) <= bytes.count
  }

  /// Hands `entry`'s bytes to `consume` in the pieces ZIPFoundation's extraction hands out
  /// (nothing for a folder), so the caller's checks see the same pieces: a stored entry's data
  /// `bufferSize` bytes at a time; a deflated one inflated `bufferSize` bytes at a time from
  /// `bufferSize`-byte pieces of the zip from the entry's data on (as ZIPFoundation reads its
  /// file: a damaged stream may run on past the entry's data, and the caller's size and
  /// checksum checks then refuse it). A stream found damaged, or not ended by the end of the
  /// zip, fails as ZIPFoundation's does ("corruptedData"). (At the zip's end ZIPFoundation
  /// hands zlib a whole buffer of which only the start was read: a damaged stream still
  /// running there may fail otherwise, by what that memory holds. In 30,000 seeded mutations
  /// of the fixtures one did: "checksum mismatch" there, "corruptedData" here.)
  static func read(
    _ entry: ZipDirectEntry, from bytes: [UInt8], bufferSize: Int,
    _ consume: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    guard !entry.isDirectory else { return }
    try bytes.withUnsafeBytes { all in
      guard entry.method == 8 else {
        let data = UnsafeRawBufferPointer(
          rebasing: all[entry.dataStart..<entry.dataStart + entry.storedCount])
        var position = 0
        while position < data.count {
          let count = min(bufferSize, data.count - position)
          try consume(UnsafeRawBufferPointer(rebasing: data[position..<position + count]))
          position += count
        }
        return
      }
      try inflate(
        UnsafeRawBufferPointer(rebasing: all[entry.dataStart...]), bufferSize: bufferSize, consume)
    }
  }

  private static func inflate(
    _ data: UnsafeRawBufferPointer, bufferSize: Int,
    _ consume: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let corrupted = ImportError(reason: "damaged zip entry: corruptedData")
    var stream = z_stream()
    guard
      inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { throw ImportError(reason: "damaged zip entry: invalidStream") }
    defer { inflateEnd(&stream) }
    let output = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
    defer { output.deallocate() }
    var position = 0
    var result = Z_OK
    repeat {
      let count = min(bufferSize, data.count - position)
      // The zip ended before the stream did.
      guard count > 0, let base = data.baseAddress else { throw corrupted }
      // zlib reads `next_in` only; its C declaration is not const.
      stream.next_in = UnsafeMutablePointer(
        mutating: (base + position).assumingMemoryBound(to: UInt8.self))
      stream.avail_in = UInt32(count)
      position += count
      repeat {
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = UInt32(bufferSize)
        result = CZipChecksum.inflate(&stream, Z_NO_FLUSH)
        guard result != Z_NEED_DICT, result != Z_DATA_ERROR, result != Z_MEM_ERROR else {
          throw corrupted
        }
        try consume(
          UnsafeRawBufferPointer(rebasing: output[..<(bufferSize - Int(stream.avail_out))]))
      } while stream.avail_out == 0
    } while result != Z_STREAM_END
  }
}
