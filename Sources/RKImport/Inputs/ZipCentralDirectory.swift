// A bounds-checked scan of a zip's central directory (PKWARE APPNOTE 4.3.12–4.3.16), run before
// ZIPFoundation sees the file: it enforces the entry and size limits, and finds encrypted
// entries, which ZIPFoundation's iterator silently stops at.

/// One central-directory record, as far as the limits (and tests of written zips) need it.
struct ZipDirectoryRecord: Sendable {
  /// The name as stored, decoded leniently (for messages; ZIPFoundation's `path` is used to read).
  var name: String
  /// The general purpose bit flag (APPNOTE 4.4.4): bit 0 encryption; for deflate, bits 1–2
  /// the level the writer used.
  var flags: UInt16
  /// The compression method (APPNOTE 4.4.5): 0 stored, 8 deflated.
  var method: UInt16
  var crc32: UInt32
  var compressedSize: Int64
  var uncompressedSize: Int64
  /// "Version made by" (APPNOTE 4.4.2): its high byte is the system the attributes are for.
  var versionMadeBy: UInt16 = 0
  /// External file attributes (APPNOTE 4.4.15): for Unix, the mode in the high 16 bits.
  var externalAttributes: UInt32 = 0
  /// Every byte of the stored name is printable ASCII (0x20–0x7E), which reads the same in
  /// UTF-8 and in code page 437: `name` is then exactly ZIPFoundation's `path`.
  var nameIsPrintableASCII = false
  /// Where the entry's local header starts.
  var localHeaderOffset: Int64 = 0
  /// The record has a sign of ZIP64: a size or the offset 0xFFFFFFFF, a ZIP64 extra field, or
  /// "version needed to extract" 4.5 or later (ZIPFoundation then reads ZIP64 sizes, in the
  /// extra field or the data descriptor).
  var usesZIP64 = false

  var isEncrypted: Bool { flags & 1 != 0 }
}

enum ZipCentralDirectory {
  static let endSignature: [UInt8] = [0x50, 0x4B, 0x05, 0x06]

  /// Scans the directory of a zip of `length` bytes; `read(offset, count)` returns exactly
  /// `count` bytes or nil. Throws `ImportError` for damaged directories and broken limits.
  static func scan(
    length: Int64, limits: ZipLimits, read: (Int64, Int) -> [UInt8]?
  ) throws -> [ZipDirectoryRecord] {
    let tailLength = Int(min(length, 22 + 65_535))
    guard tailLength >= 22, let tail = read(length - Int64(tailLength), tailLength) else {
      throw ImportError(reason: "not a zip: too short for an end of central directory record")
    }
    guard let end = lastIndex(of: endSignature, in: tail) else {
      throw ImportError(reason: "damaged zip: no end of central directory record")
    }
    let endOffset = length - Int64(tailLength) + Int64(end)
    var count = Int64(le16(tail, end + 10))
    var size = Int64(le32(tail, end + 12))
    var offset = Int64(le32(tail, end + 16))
    if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
      // ZIP64: the locator sits just before the classic record.
      guard endOffset >= 20, let locator = read(endOffset - 20, 20),
        locator.starts(with: [0x50, 0x4B, 0x06, 0x07]),
        let record = read(Int64(clamping: le64(locator, 8)), 56),
        record.starts(with: [0x50, 0x4B, 0x06, 0x06])
      else { throw ImportError(reason: "damaged zip: ZIP64 end of central directory not found") }
      count = Int64(clamping: le64(record, 32))
      size = Int64(clamping: le64(record, 40))
      offset = Int64(clamping: le64(record, 48))
    }
    guard count <= Int64(limits.maximumEntries) else {
      throw ImportError(
        reason: "zip lists \(count) entries, over the limit of \(limits.maximumEntries)")
    }
    guard size <= limits.maximumDirectorySize else {
      throw ImportError(reason: "zip directory is \(size) bytes, over the limit")
    }
    guard offset >= 0, offset + size <= length, let directory = read(offset, Int(size)) else {
      throw ImportError(reason: "damaged zip: central directory outside the file")
    }
    return try records(directory, count: Int(count), zipLength: length, limits: limits)
  }

  private static func records(
    _ directory: [UInt8], count: Int, zipLength: Int64, limits: ZipLimits
  ) throws -> [ZipDirectoryRecord] {
    var result: [ZipDirectoryRecord] = []
    var position = 0
    var total: Int64 = 0
    for index in 0..<count {
      guard position + 46 <= directory.count,
        directory[position..<position + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02])
      else {
        throw ImportError(reason: "damaged zip: central directory record \(index + 1) is bad")
      }
      let nameLength = Int(le16(directory, position + 28))
      let extraLength = Int(le16(directory, position + 30))
      let commentLength = Int(le16(directory, position + 32))
      let next = position + 46 + nameLength + extraLength + commentLength
      guard next <= directory.count else {
        throw ImportError(reason: "damaged zip: central directory record \(index + 1) is cut off")
      }
      let nameBytes = directory[position + 46..<position + 46 + nameLength]
      var compressed = Int64(le32(directory, position + 20))
      var uncompressed = Int64(le32(directory, position + 24))
      var localOffset = Int64(le32(directory, position + 42))
      let extra = Array(
        directory[position + 46 + nameLength..<position + 46 + nameLength + extraLength])
      let usesZIP64 =
        [compressed, uncompressed, localOffset].contains(0xFFFF_FFFF)
        || UInt8(truncatingIfNeeded: le16(directory, position + 6)) >= 45
        || hasExtraField(id: 1, in: extra)
      applyZIP64(extra, uncompressed: &uncompressed, compressed: &compressed, offset: &localOffset)
      guard localOffset >= 0, localOffset < zipLength else {
        throw ImportError(reason: "damaged zip: entry \(index + 1) points outside the file")
      }
      total += uncompressed
      guard total <= limits.maximumTotalSize else {
        throw ImportError(
          reason: "zip entries total over \(limits.maximumTotalSize) bytes uncompressed (limit)")
      }
      result.append(
        ZipDirectoryRecord(
          name: String(decoding: nameBytes, as: UTF8.self), flags: le16(directory, position + 8),
          method: le16(directory, position + 10), crc32: le32(directory, position + 16),
          compressedSize: compressed, uncompressedSize: uncompressed,
          versionMadeBy: le16(directory, position + 4),
          externalAttributes: le32(directory, position + 38),
          nameIsPrintableASCII: nameBytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E },
          localHeaderOffset: localOffset, usesZIP64: usesZIP64))
      position = next
    }
    return result
  }

  /// Whether the extra field data holds a field of this id (APPNOTE 4.5.1).
  private static func hasExtraField(id: UInt16, in extra: [UInt8]) -> Bool {
    var position = 0
    while position + 4 <= extra.count {
      if le16(extra, position) == id { return true }
      position += 4 + Int(le16(extra, position + 2))
    }
    return false
  }

  /// Replaces 0xFFFFFFFF sizes and offset with the ZIP64 extra field's values (APPNOTE 4.5.3).
  private static func applyZIP64(
    _ extra: [UInt8], uncompressed: inout Int64, compressed: inout Int64, offset: inout Int64
  ) {
    var position = 0
    while position + 4 <= extra.count {
      let id = le16(extra, position)
      let length = Int(le16(extra, position + 2))
      let end = position + 4 + length
      guard end <= extra.count else { return }
      if id == 1 {
        var field = position + 4
        for target in [0, 1, 2] {
          let isMarked =
            target == 0
            ? uncompressed == 0xFFFF_FFFF
            : target == 1 ? compressed == 0xFFFF_FFFF : offset == 0xFFFF_FFFF
          guard isMarked, field + 8 <= end else { continue }
          let value = Int64(clamping: le64(extra, field))
          if target == 0 {
            uncompressed = value
          } else if target == 1 {
            compressed = value
          } else {
            offset = value
          }
          field += 8
        }
        return
      }
      position = end
    }
  }

  private static func lastIndex(of signature: [UInt8], in bytes: [UInt8]) -> Int? {
    var index = bytes.count - 22
    while index >= 0 {
      if bytes[index..<index + 4].elementsEqual(signature) { return index }
      index -= 1
    }
    return nil
  }
}

func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
  UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
}

func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
  UInt32(le16(bytes, at)) | UInt32(le16(bytes, at + 2)) << 16
}

func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
  UInt64(le32(bytes, at)) | UInt64(le32(bytes, at + 4)) << 32
}
