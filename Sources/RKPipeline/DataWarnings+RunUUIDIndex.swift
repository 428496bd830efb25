// The duplicate-run check's memory: run UUIDs seen so far, mostly in sorted blocks on disk, so a
// long export keeps a few bytes per run in memory instead of a 24-byte table entry.
import Foundation

/// Every run UUID (128 bits) seen so far, with where it was first seen.
///
/// New UUIDs go to a hash table in memory; when it holds `pendingLimit` of them it is written to
/// the spool file as one segment sorted by UUID, and its keys go into a Bloom filter (about ten
/// bits a key). A lookup asks the table, then the filter; only when the filter says "maybe" (a
/// true duplicate, or about 2 % of new UUIDs) does it read one 4 KiB page per segment, found
/// through a sparse in-memory index (one key per page). Segments are merged into one when there
/// are more than `maximumSegments`, so a lookup reads a bounded number of pages.
///
/// Without a directory (or when the file cannot be made or written) everything stays in memory.
/// The file is unlinked as soon as it is open.
final class RunUUIDIndex {
  typealias FirstSeen = DataWarnings.FirstSeen

  /// One UUID and where it was first seen, as stored on disk (24 bytes, native byte order: the
  /// file lives only as long as this process).
  struct Record {
    var high: UInt64
    var low: UInt64
    var file: Int32
    var number: Int32
  }

  /// A sorted run of records in the file.
  struct Segment {
    var offset: Int64
    var count: Int
    /// The first key of each page of `recordsPerPage` records.
    var pageKeys: [UUIDBits]
  }

  static let recordSize = MemoryLayout<Record>.stride
  static let recordsPerPage = 4096 / recordSize
  let pendingLimit: Int
  let maximumSegments: Int

  // Unchecked exclusivity (here and below): two lookups a run on the writing thread, each
  // access a runtime check of ~60 instructions otherwise.
  @exclusivity(unchecked) private var pending: [UUIDBits: FirstSeen] = [:]
  @exclusivity(unchecked) private var segments: [Segment] = []
  @exclusivity(unchecked) private var filter = BlockedBloomFilter(capacity: 0)
  @exclusivity(unchecked) private var spilledCount = 0
  private var descriptor: Int32 = -1
  /// False once a write failed: new UUIDs stay in memory, written segments stay readable.
  private var canSpill = true
  private var fileEnd: Int64 = 0

  init(directory: String?, pendingLimit: Int = 32_768, maximumSegments: Int = 8) {
    self.pendingLimit = max(1, pendingLimit)
    self.maximumSegments = max(1, maximumSegments)
    guard let directory else { return }
    descriptor = openUnlinkedFile(in: directory, prefix: ".run-uuids-")
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Where `key` was first seen, if it was.
  func firstSeen(_ key: UUIDBits) -> FirstSeen? {
    if let seen = pending[key] { return seen }
    guard spilledCount > 0, filter.mayContain(key) else { return nil }
    for segment in segments {
      if let record = find(key, in: segment) {
        return FirstSeen(file: record.file, number: record.number)
      }
    }
    return nil
  }

  /// Remembers `key` (not seen before: the caller asked `firstSeen`).
  func insert(_ key: UUIDBits, _ seen: FirstSeen) {
    pending[key] = seen
    if pending.count >= pendingLimit && canSpill && descriptor >= 0 { spillPending() }
  }

  // MARK: - Segments

  private func spillPending() {
    // Sorted in place: `sorted` would hold a second copy of every record meanwhile.
    var records = pending.map { key, seen in
      Record(high: key.high, low: key.low, file: seen.file, number: seen.number)
    }
    records.sort { ($0.high, $0.low) < ($1.high, $1.low) }
    guard let segment = write(records) else {
      canSpill = false
      return
    }
    segments.append(segment)
    spilledCount += records.count
    if spilledCount > filter.capacity {
      rebuildFilter(capacity: max(spilledCount * 2, pendingLimit * 4))
    } else {
      for record in records { filter.insert(UUIDBits(high: record.high, low: record.low)) }
    }
    pending.removeAll(keepingCapacity: true)
    if segments.count > maximumSegments { mergeSegments() }
  }

  /// Appends sorted records as a segment; nil when the write fails.
  private func write(_ records: [Record]) -> Segment? {
    var writer = SegmentWriter(descriptor: descriptor, offset: fileEnd)
    for record in records where !writer.append(record) { return nil }
    guard let segment = writer.finish() else { return nil }
    fileEnd = segment.offset + Int64(segment.count * Self.recordSize)
    return segment
  }

  /// Merges every segment into one sorted segment at the end of the file (keys are unique).
  private func mergeSegments() {
    var readers = segments.map { SegmentReader(descriptor: descriptor, segment: $0) }
    var writer = SegmentWriter(descriptor: descriptor, offset: fileEnd)
    while true {
      var smallest: Int?
      for index in readers.indices {
        guard let record = readers[index].current else { continue }
        if let best = smallest, let bestRecord = readers[best].current,
          (bestRecord.high, bestRecord.low) <= (record.high, record.low)
        {
          continue
        }
        smallest = index
      }
      guard let index = smallest, let record = readers[index].current else { break }
      guard writer.append(record) else {
        canSpill = false
        return
      }
      readers[index].advance()
    }
    guard readers.allSatisfy({ !$0.failed }), let merged = writer.finish() else {
      canSpill = false
      return
    }
    fileEnd = merged.offset + Int64(merged.count * Self.recordSize)
    segments = [merged]
  }

  private func rebuildFilter(capacity: Int) {
    // The old filter goes first: it is rebuilt from the segments, not copied.
    filter = BlockedBloomFilter(capacity: 0)
    filter = BlockedBloomFilter(capacity: capacity)
    for segment in segments {
      var reader = SegmentReader(descriptor: descriptor, segment: segment)
      while let record = reader.current {
        filter.insert(UUIDBits(high: record.high, low: record.low))
        reader.advance()
      }
    }
  }

  /// The record of `key` in `segment`: one page read.
  private func find(_ key: UUIDBits, in segment: Segment) -> Record? {
    // The last page whose first key is ≤ key.
    var low = 0
    var high = segment.pageKeys.count
    while low < high {
      let middle = (low + high) / 2
      let first = segment.pageKeys[middle]
      if (first.high, first.low) <= (key.high, key.low) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low > 0 else { return nil }
    let page = low - 1
    let start = page * Self.recordsPerPage
    let count = min(Self.recordsPerPage, segment.count - start)
    var records = [Record](
      repeating: Record(high: 0, low: 0, file: 0, number: 0), count: max(count, 0))
    let length = count * Self.recordSize
    let got = records.withUnsafeMutableBytes { buffer -> Int in
      guard let base = buffer.baseAddress else { return -1 }
      return pread(descriptor, base, length, off_t(segment.offset) + off_t(start * Self.recordSize))
    }
    guard got == length else { return nil }
    return records.first { $0.high == key.high && $0.low == key.low }
  }
}

/// Writes sorted records in 64 KiB chunks and notes the first key of each page.
private struct SegmentWriter {
  let descriptor: Int32
  let start: Int64
  private var buffer: [RunUUIDIndex.Record] = []
  private var written = 0
  private var pageKeys: [UUIDBits] = []
  private var failed = false

  init(descriptor: Int32, offset: Int64) {
    self.descriptor = descriptor
    start = offset
  }

  mutating func append(_ record: RunUUIDIndex.Record) -> Bool {
    if (written + buffer.count) % RunUUIDIndex.recordsPerPage == 0 {
      pageKeys.append(UUIDBits(high: record.high, low: record.low))
    }
    buffer.append(record)
    if buffer.count >= RunUUIDIndex.recordsPerPage * 16 { flush() }
    return !failed
  }

  mutating func finish() -> RunUUIDIndex.Segment? {
    flush()
    guard !failed else { return nil }
    return RunUUIDIndex.Segment(offset: start, count: written, pageKeys: pageKeys)
  }

  private mutating func flush() {
    guard !buffer.isEmpty, !failed else { return }
    let offset = start + Int64(written * RunUUIDIndex.recordSize)
    let got = buffer.withUnsafeBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return -1 }
      return pwrite(descriptor, base, bytes.count, off_t(offset))
    }
    if got != buffer.count * RunUUIDIndex.recordSize { failed = true }
    written += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }
}

/// Reads a segment's records in order, a few pages at a time.
private struct SegmentReader {
  let descriptor: Int32
  let segment: RunUUIDIndex.Segment
  private var buffer: [RunUUIDIndex.Record] = []
  private var bufferStart = 0
  private var position = 0
  private(set) var failed = false

  init(descriptor: Int32, segment: RunUUIDIndex.Segment) {
    self.descriptor = descriptor
    self.segment = segment
    fill()
  }

  var current: RunUUIDIndex.Record? {
    let index = position - bufferStart
    return buffer.indices.contains(index) ? buffer[index] : nil
  }

  mutating func advance() {
    position += 1
    if position - bufferStart >= buffer.count { fill() }
  }

  private mutating func fill() {
    bufferStart = position
    let count = min(RunUUIDIndex.recordsPerPage * 4, segment.count - position)
    guard count > 0 else {
      buffer = []
      return
    }
    buffer = [RunUUIDIndex.Record](
      repeating: RunUUIDIndex.Record(high: 0, low: 0, file: 0, number: 0), count: count)
    let length = count * RunUUIDIndex.recordSize
    let offset = off_t(segment.offset) + off_t(position * RunUUIDIndex.recordSize)
    let got = buffer.withUnsafeMutableBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return -1 }
      return pread(descriptor, base, length, offset)
    }
    if got != length {
      failed = true
      buffer = []
    }
  }
}

/// A Bloom filter with one 64-bit word per key (four bits set in it): one cache line a lookup.
/// At ten bits per key about 2 % of absent keys are reported as maybe present.
struct BlockedBloomFilter {
  let capacity: Int
  private var words: [UInt64]

  init(capacity: Int) {
    self.capacity = capacity
    // Ten bits a key, rounded up to a power of two words.
    var count = 1
    while count * 64 < capacity * 10 { count *= 2 }
    words = [UInt64](repeating: 0, count: count)
  }

  mutating func insert(_ key: UUIDBits) {
    let (index, mask) = position(key)
    words[index] |= mask
  }

  func mayContain(_ key: UUIDBits) -> Bool {
    let (index, mask) = position(key)
    return words[index] & mask == mask
  }

  private func position(_ key: UUIDBits) -> (Int, UInt64) {
    // Mix both halves (UUIDs that are not random, such as version 1, differ in few bits).
    var hash = key.high &* 0x9E37_79B9_7F4A_7C15 ^ key.low
    hash ^= hash >> 31
    hash &*= 0xBF58_476D_1CE4_E5B9
    hash ^= hash >> 29
    let index = Int(truncatingIfNeeded: hash) & (words.count - 1)
    let bits = hash >> 32
    let one: UInt64 = 1
    let mask =
      one << (bits & 63) | one << ((bits >> 6) & 63) | one << ((bits >> 12) & 63)
      | one << ((bits >> 18) & 63)
    return (index, mask)
  }
}
