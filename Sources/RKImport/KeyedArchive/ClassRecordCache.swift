// Class records shared by every archive of a run: the same few ResearchKit and Foundation
// classes recur in each archive, so their names, chains and families are decoded once.
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The exact bytes a class record's `$classname` and `$classes` entries hold, in record order,
/// each length-prefixed and tagged with its role and encoding: equal signatures decode to
/// equal `ArchiveClass` records.
struct ClassSignature: Hashable, Sendable {
  var bytes: [UInt8] = []

  /// Appends one string object's raw payload, laid out by `writePiece`.
  mutating func append(role: UInt8, string header: PlistObjectHeader, in plist: BPlistDocument) {
    let count = header.isUTF16 ? header.count * 2 : header.count
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: 6 + count))
    plist.bytes.withUnsafeBufferPointer { source in
      bytes.withUnsafeMutableBufferPointer { target in
        Self.writePiece(
          role: role, isUTF16: header.isUTF16, payload: source.baseAddress! + header.payloadOffset,
          count: count, to: target.baseAddress! + start)
      }
    }
  }

  /// Writes one string's piece of a signature at `target`: role, encoding (1 for UTF-16), the
  /// payload's length in four bytes (low first), then the payload: 6 + `count` bytes.
  static func writePiece(
    role: UInt8, isUTF16: Bool = false, payload: UnsafePointer<UInt8>, count: Int,
    to target: UnsafeMutablePointer<UInt8>
  ) {
    let length = UInt32(truncatingIfNeeded: count)
    target[0] = role
    target[1] = isUTF16 ? 1 : 0
    target[2] = UInt8(truncatingIfNeeded: length)
    target[3] = UInt8(truncatingIfNeeded: length >> 8)
    target[4] = UInt8(truncatingIfNeeded: length >> 16)
    target[5] = UInt8(truncatingIfNeeded: length >> 24)
    (target + 6).update(from: payload, count: count)
  }

  static func == (left: Self, right: Self) -> Bool {
    // One block comparison instead of an element-by-element loop: a found record is compared
    // with its key once per class record of every archive.
    guard left.bytes.count == right.bytes.count else { return false }
    return left.bytes.withUnsafeBytes { leftBytes in
      right.bytes.withUnsafeBytes { rightBytes in
        guard let leftBase = leftBytes.baseAddress, let rightBase = rightBytes.baseAddress else {
          return true
        }
        return memcmp(leftBase, rightBase, leftBytes.count) == 0
      }
    }
  }

  func hash(into hasher: inout Hasher) { hasher.combine(mixedHash) }

  /// `ByteHash.hash` of the signature: it is hashed once per class record of every archive,
  /// and SipHash over all its bytes cost more than reading the record. The cache holds at most
  /// `ClassRecordCache.maximumCount` entries, so collisions stay cheap.
  var mixedHash: UInt64 {
    bytes.withUnsafeBytes { ByteHash.hash($0) }
  }
}

/// A process-wide, thread-safe map from class signatures to decoded records.
///
/// Open addressing on `ClassSignature.mixedHash`, not a `Dictionary`: a lookup is made once
/// per class record of every archive, and the dictionary's SipHash and probing cost ~440
/// instructions of the ~2,000 a record took.
enum ClassRecordCache {
  /// Records kept at most, so that hostile inputs with endless class names stay small.
  static let maximumCount = 1024
  /// Signatures longer than this are not cached (nor kept in memory).
  static let maximumSignatureLength = 4096

  private static let table = Mutex(SignatureTable())

  static func record(for signature: ClassSignature) -> ArchiveClass? {
    let hash = signature.mixedHash
    return table.withLock { $0.record(for: signature, hash: hash) }
  }

  static func remember(_ record: ArchiveClass, for signature: ClassSignature) {
    guard signature.bytes.count <= maximumSignatureLength else { return }
    let hash = signature.mixedHash
    table.withLock { table in
      if table.count < maximumCount { table.insert(record, for: signature, hash: hash) }
    }
  }
}

/// Twice `ClassRecordCache.maximumCount` slots, so that probes stay short; linear probing.
struct SignatureTable: Sendable {
  private static let slotCount = 2 * ClassRecordCache.maximumCount
  private var hashes = [UInt64](repeating: 0, count: slotCount)
  private var entries = [(signature: ClassSignature, record: ArchiveClass)?](
    repeating: nil, count: slotCount)
  private(set) var count = 0

  func record(for signature: ClassSignature, hash: UInt64) -> ArchiveClass? {
    probe(for: signature, hash: hash).record
  }

  /// Adds a record whose signature is not in the table (a second insert of the same one, from
  /// two threads that both missed, keeps the first).
  mutating func insert(_ record: ArchiveClass, for signature: ClassSignature, hash: UInt64) {
    let (slot, existing) = probe(for: signature, hash: hash)
    guard existing == nil else { return }
    hashes[slot] = hash
    entries[slot] = (signature, record)
    count += 1
  }

  /// The slot holding `signature` and its record, or the empty slot where it would go and nil
  /// (the table is never full: at most half its slots are used).
  private func probe(
    for signature: ClassSignature, hash: UInt64
  ) -> (slot: Int, record: ArchiveClass?) {
    var slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
    while let entry = entries[slot] {
      if hashes[slot] == hash, entry.signature == signature { return (slot, entry.record) }
      slot = (slot + 1) & (Self.slotCount - 1)
    }
    return (slot, nil)
  }
}
