// Whether ZIPFoundation may read a zip from memory: its in-memory archives trap (a Swift
// runtime failure, the whole export gone) when asked to read at an offset past their end, where
// file-backed ones just read nothing. A damaged zip can point it there.

/// Walks a zip's end record, central directory and local headers as ZIPFoundation 0.9 does when
/// it opens, lists and extracts entries, and says whether every offset it would seek to lies
/// within the bytes (reading from there on is then bounded by the end). Anything it cannot vouch
/// for, ZIP64 structures included, answers false: such zips are read from a file.
enum ZipInMemoryCheck {
  private static let endSignature: UInt32 = 0x0605_4B50
  private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
  private static let directorySignature: UInt32 = 0x0201_4B50
  private static let localSignature: UInt32 = 0x0403_4B50

  static func readsStayWithin(_ bytes: [UInt8]) -> Bool {
    let length = bytes.count
    guard length >= 22 else { return true }  // ZIPFoundation finds no end record: no reads
    // The end record: ZIPFoundation scans back from the last place it can start.
    var end: Int?
    for back in 22...min(length, 22 + 65_535) where le32(bytes, length - back) == endSignature {
      end = length - back
      break
    }
    guard let end else { return true }
    // ZIPFoundation takes a ZIP64 end record's values when a locator precedes the end record.
    if end >= 20, le32(bytes, end - 20) == zip64LocatorSignature { return false }
    let count = Int(le16(bytes, end + 10))
    let directoryOffset = Int(le32(bytes, end + 16))
    if count == 0xFFFF || directoryOffset == 0xFFFF_FFFF { return false }
    var position = directoryOffset
    for _ in 0..<count {
      // Each record is read where the last one ended; an incomplete or foreign one ends the
      // listing (ZIPFoundation stops there), having read within the bytes.
      guard position <= length else { return false }
      guard position + 46 <= length, le32(bytes, position) == directorySignature else {
        return true
      }
      let flags = le16(bytes, position + 8)
      let method = le16(bytes, position + 10)
      let compressed = Int(le32(bytes, position + 20))
      let uncompressed = Int(le32(bytes, position + 24))
      let nameLength = Int(le16(bytes, position + 28))
      let extraLength = Int(le16(bytes, position + 30))
      let commentLength = Int(le16(bytes, position + 32))
      let localOffset = Int(le32(bytes, position + 42))
      // ZIP64 values would come from the extra field.
      if compressed == 0xFFFF_FFFF || uncompressed == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF {
        return false
      }
      guard localOffset <= length else { return false }
      guard localOffset + 30 <= length, le32(bytes, localOffset) == localSignature else {
        return true
      }
      let dataOffset =
        localOffset + 30 + Int(le16(bytes, localOffset + 26)) + Int(le16(bytes, localOffset + 28))
      guard dataOffset <= length else { return false }
      // With a data descriptor (flag bit 3) it is read after the data.
      if flags & 0x08 != 0, dataOffset + (method == 0 ? uncompressed : compressed) > length {
        return false
      }
      position += 46 + nameLength + extraLength + commentLength
    }
    return true
  }
}
