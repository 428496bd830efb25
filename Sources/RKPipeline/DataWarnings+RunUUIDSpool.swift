// The duplicate-run check's memory: every run UUID seen, in sorted segments on disk, compared in
// one merge at the end, so an export keeps the same few hundred KB in memory at any size.
import Foundation
import RKTable

/// Every run UUID (128 bits) seen, with the order it came in and where it came from.
///
/// Records wait in a buffer of `bufferLimit`; a full buffer is sorted by UUID and written to the
/// spool file as one segment. Whenever the newest `mergeWidth` segments are of one level they are
/// merged into one segment of the next level, so the final merge reads a bounded number of
/// segments. `forEachRepeat` merges everything once, in UUID order, and hands each record whose
/// UUID came before with the first record of that UUID.
///
/// The check used to look each UUID up as it came: a hash table of the newest 32,768, and a Bloom
/// filter over the segments that grew with the runs (2.4 MB at any size, plus 2.3 bytes a run).
///
/// Without a directory (or once a write failed) the records stay in memory. The file is unlinked
/// as soon as it is open.
final class RunUUIDSpool {
  /// One UUID, its place in the order of arrival and where it came from, as stored on disk (32
  /// bytes, native byte order: the file lives only as long as this process).
  struct Record: Equatable {
    var high: UInt64
    var low: UInt64
    /// The order of arrival times 8, plus how the UUID was written (`UUIDTextForm`): a
    /// warning names a UUID as its input wrote it without keeping the text of every run.
    var arrival: Int64
    var file: Int32
    var number: Int32

    init(high: UInt64, low: UInt64, order: Int64, form: UUIDTextForm, file: Int32, number: Int32) {
      self.high = high
      self.low = low
      arrival = order << 3 | Int64(form.rawValue)
      self.file = file
      self.number = number
    }

    var order: Int64 { arrival >> 3 }
    var form: UUIDTextForm { UUIDTextForm(rawValue: UInt8(arrival & 7)) ?? .other }
    var seen: DataWarnings.FirstSeen { DataWarnings.FirstSeen(file: file, number: number) }

    /// By UUID, then by arrival.
    @inline(__always)
    static func precedes(_ left: Record, _ right: Record) -> Bool {
      if left.high != right.high { return left.high < right.high }
      if left.low != right.low { return left.low < right.low }
      return left.arrival < right.arrival
    }
  }

  /// A sorted run of records in the file.
  struct Segment {
    var offset: Int64
    var count: Int
    /// 0 for a written buffer, n + 1 for `mergeWidth` segments of level n merged.
    var level: Int
  }

  static let recordSize = MemoryLayout<Record>.stride
  let bufferLimit: Int
  let mergeWidth: Int

  // Unchecked exclusivity: one append a run on the writing thread, each access a runtime check
  // otherwise.
  @exclusivity(unchecked) private var buffer: [Record] = []
  @exclusivity(unchecked) private(set) var segments: [Segment] = []
  private var descriptor: Int32 = -1
  /// False once a write failed: new records stay in memory, written segments stay readable.
  private var canSpill = true
  private var fileEnd: Int64 = 0

  init(directory: String?, bufferLimit: Int = 8_192, mergeWidth: Int = 32) {
    self.bufferLimit = max(1, bufferLimit)
    self.mergeWidth = max(2, mergeWidth)
    guard let directory else { return }
    descriptor = ScratchFile.openUnnamed(in: directory, prefix: ".run-uuids-")
    if descriptor >= 0 { buffer.reserveCapacity(self.bufferLimit) }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Adds one UUID, written in `form`; `order` must grow from call to call.
  func append(
    _ key: UUIDBits, order: Int64, form: UUIDTextForm = .canonical, _ seen: DataWarnings.FirstSeen
  ) {
    buffer.append(
      Record(
        high: key.high, low: key.low, order: order, form: form, file: seen.file,
        number: seen.number))
    if buffer.count >= bufferLimit && canSpill && descriptor >= 0 { spillBuffer() }
  }

  /// Calls `body(first, later)` for every record whose UUID was added before, in UUID order,
  /// with the first record of that UUID (the smallest `order`). Records that could not be read
  /// back (the spool file failed under the run) are not reported; the result says whether all
  /// were read.
  @discardableResult
  func forEachRepeat(_ body: (_ first: Record, _ later: Record) -> Void) -> Bool {
    buffer.sort { Record.precedes($0, $1) }
    var cursors = segments.map { SegmentCursor(descriptor: descriptor, segment: $0) }
    cursors.append(SegmentCursor(records: buffer))
    var first: Record?
    let complete = merge(&cursors) { record in
      if let seen = first, seen.high == record.high, seen.low == record.low {
        body(seen, record)
      } else {
        first = record
      }
      return true
    }
    return complete
  }

  // MARK: - Segments

  private func spillBuffer() {
    buffer.sort { Record.precedes($0, $1) }
    var writer = SegmentWriter(descriptor: descriptor, offset: fileEnd)
    for record in buffer where !writer.append(record) { break }
    guard let segment = writer.finish(level: 0) else {
      canSpill = false
      return
    }
    fileEnd = segment.offset + Int64(segment.count * Self.recordSize)
    segments.append(segment)
    buffer.removeAll(keepingCapacity: true)
    mergeNewestSegments()
  }

  /// Merges the newest `mergeWidth` segments while they are of one level (levels never grow
  /// from older to newer segments, as in a binary counter).
  private func mergeNewestSegments() {
    while segments.count >= mergeWidth {
      let newest = segments[(segments.count - mergeWidth)...]
      let level = newest.last!.level
      guard newest.allSatisfy({ $0.level == level }) else { return }
      var cursors = newest.map { SegmentCursor(descriptor: descriptor, segment: $0) }
      var writer = SegmentWriter(descriptor: descriptor, offset: fileEnd)
      let complete = merge(&cursors) { writer.append($0) }
      guard complete, let merged = writer.finish(level: level + 1) else {
        // The merged segments stay as they were; new records stay in memory.
        canSpill = false
        return
      }
      fileEnd = merged.offset + Int64(merged.count * Self.recordSize)
      segments.removeLast(mergeWidth)
      segments.append(merged)
    }
  }

  /// Hands every record of `cursors` to `emit` in `Record.precedes` order, until `emit` returns
  /// false; returns whether every cursor was read to its end without an error.
  private func merge(_ cursors: inout [SegmentCursor], _ emit: (Record) -> Bool) -> Bool {
    // A binary min-heap of (current record, cursor index): the records are compared where
    // they lie, not fetched from their cursors.
    var heap: [(record: Record, cursor: Int)] = []
    heap.reserveCapacity(cursors.count)
    for index in cursors.indices {
      if let record = cursors[index].current { heap.append((record, index)) }
    }
    func siftDown(_ start: Int) {
      var parent = start
      while true {
        let left = 2 &* parent &+ 1
        guard left < heap.count else { return }
        var smallest = left
        if left &+ 1 < heap.count && Record.precedes(heap[left &+ 1].record, heap[left].record) {
          smallest = left &+ 1
        }
        guard Record.precedes(heap[smallest].record, heap[parent].record) else { return }
        heap.swapAt(parent, smallest)
        parent = smallest
      }
    }
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    while !heap.isEmpty {
      guard emit(heap[0].record) else { return false }
      let cursor = heap[0].cursor
      cursors[cursor].advance()
      if let next = cursors[cursor].current {
        heap[0].record = next
      } else {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
      }
      siftDown(0)
    }
    return cursors.allSatisfy { !$0.failed }
  }
}

/// Writes sorted records in 64 KiB chunks.
private struct SegmentWriter {
  let descriptor: Int32
  let start: Int64
  private var buffer: [RunUUIDSpool.Record] = []
  private var written = 0
  private var failed = false
  private static let chunk = 65_536 / RunUUIDSpool.recordSize

  init(descriptor: Int32, offset: Int64) {
    self.descriptor = descriptor
    start = offset
  }

  mutating func append(_ record: RunUUIDSpool.Record) -> Bool {
    buffer.append(record)
    if buffer.count >= Self.chunk { flush() }
    return !failed
  }

  mutating func finish(level: Int) -> RunUUIDSpool.Segment? {
    flush()
    guard !failed else { return nil }
    return RunUUIDSpool.Segment(offset: start, count: written, level: level)
  }

  private mutating func flush() {
    guard !buffer.isEmpty, !failed else { return }
    let offset = start + Int64(written * RunUUIDSpool.recordSize)
    let length = buffer.count * RunUUIDSpool.recordSize
    let got = buffer.withUnsafeBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return -1 }
      return pwrite(descriptor, base, bytes.count, off_t(offset))
    }
    if got != length { failed = true }
    written += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }
}

/// Reads a segment's records in order, 4 KiB at a time, or walks records held in memory.
private struct SegmentCursor {
  private let descriptor: Int32
  private let segment: RunUUIDSpool.Segment
  private var records: [RunUUIDSpool.Record]
  private var index = 0
  /// Records of the segment read so far (all of them for records in memory).
  private var read: Int
  private(set) var failed = false
  private static let chunk = 4_096 / RunUUIDSpool.recordSize

  init(descriptor: Int32, segment: RunUUIDSpool.Segment) {
    self.descriptor = descriptor
    self.segment = segment
    records = []
    read = 0
    fill()
  }

  init(records: [RunUUIDSpool.Record]) {
    descriptor = -1
    segment = RunUUIDSpool.Segment(offset: 0, count: records.count, level: 0)
    self.records = records
    read = records.count
  }

  var current: RunUUIDSpool.Record? { index < records.count ? records[index] : nil }

  mutating func advance() {
    index += 1
    if index >= records.count && read < segment.count { fill() }
  }

  private mutating func fill() {
    index = 0
    let count = min(Self.chunk, segment.count - read)
    guard count > 0, !failed else {
      records.removeAll()
      return
    }
    if records.count != count {
      records = [RunUUIDSpool.Record](
        repeating: RunUUIDSpool.Record(
          high: 0, low: 0, order: 0, form: .canonical, file: 0, number: 0),
        count: count)
    }
    let length = count * RunUUIDSpool.recordSize
    let offset = off_t(segment.offset) + off_t(read * RunUUIDSpool.recordSize)
    let got = records.withUnsafeMutableBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return -1 }
      return pread(descriptor, base, length, offset)
    }
    read += count
    if got != length {
      failed = true
      records.removeAll()
    }
  }
}
