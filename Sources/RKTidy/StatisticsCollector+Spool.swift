// Where the statistics keep their numbers: per-variable blocks in one temporary file, so memory
// stays flat however many runs there are.
import Foundation
import RKTable

/// Doubles of many variables, appended in any interleaving and read back per variable in the
/// order they were appended.
///
/// Each variable buffers up to `blockCapacity` values (the buffer is made at its first value);
/// a full buffer is written to the spool file as one block that starts with the file offset of
/// the variable's previous block, so the file holds a backwards chain per variable and memory
/// holds one offset per variable. Reading a
/// variable walks its chain and fills an array from the end: memory at the end is one
/// variable's values at a time.
///
/// Without a directory (or when the file cannot be created or written) the values stay in
/// memory; the results are the same. The file is unlinked as soon as it is open, so nothing is
/// left behind, whatever way the process ends.
///
/// One owner at a time: the collector that made it (copies of the collector share it).
final class ValueSpool: @unchecked Sendable {
  /// Values per block: 4 KiB of Doubles, written with one `pwrite`.
  static let blockCapacity = 512
  private static let noBlock: Int64 = -1
  /// Bytes before a block's values: the previous block's offset and the value count.
  private static let headerSize = 16

  /// Per variable: its buffer slot (-1 until its first value), the values in that buffer, the
  /// values written to the file and the offset of its last block there.
  private struct Variable {
    var slot: Int32 = -1
    var fill: Int32 = 0
    var spilled = 0
    var lastBlock = ValueSpool.noBlock
  }

  // Plain storage: `append` runs for every value of every run, so no array exclusivity checks
  // or uniqueness checks on its path.
  private var variables: UnsafeMutablePointer<Variable>
  private var variableCount = 0
  private var variableCapacity = 16
  /// `slotCount` buffers of `blockCapacity` values each.
  private var buffers: UnsafeMutablePointer<Double>
  private var slotCount = 0
  private var slotCapacity = 4
  /// Values kept in memory per variable when they cannot go to the file (no directory, or a
  /// write failed); they come after the variable's blocks in the file.
  private var overflow: [Int: [Double]] = [:]

  private var descriptor: Int32 = -1
  /// False once a write failed: later values stay in memory, earlier blocks stay readable.
  private var canSpill = true
  private var fileEnd: Int64 = 0
  /// Set when a block written earlier cannot be read back: the statistics would be incomplete.
  private(set) var failure: String?

  /// A spool whose file lives in `directory` (memory only when nil).
  init(directory: String?) {
    variables = .allocate(capacity: variableCapacity)
    buffers = .allocate(capacity: slotCapacity * Self.blockCapacity)
    guard let directory else {
      canSpill = false
      return
    }
    let descriptor = ScratchFile.openUnnamed(in: directory, prefix: ".statistics-")
    guard descriptor >= 0 else {
      canSpill = false
      return
    }
    self.descriptor = descriptor
  }

  /// Drops the values once they are no longer needed: the file is closed on another thread
  /// (`ScratchFile.closeInBackground`), where the system frees its pages. Reading them afterwards is a
  /// `failure`.
  func discard() {
    ScratchFile.closeInBackground(descriptor)
    descriptor = -1
    canSpill = false
    overflow = [:]
    for index in 0..<variableCount { variables[index] = Variable() }
    failure = failure ?? "the statistics' values were read after they were discarded"
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    variables.deinitialize(count: variableCount)
    variables.deallocate()
    buffers.deallocate()
  }

  /// A new, empty variable; its number is what `append` and `values` take.
  func makeVariable() -> Int {
    if variableCount == variableCapacity {
      let larger = UnsafeMutablePointer<Variable>.allocate(capacity: variableCapacity * 2)
      larger.moveInitialize(from: variables, count: variableCount)
      variables.deallocate()
      variables = larger
      variableCapacity *= 2
    }
    (variables + variableCount).initialize(to: Variable())
    variableCount += 1
    return variableCount - 1
  }

  /// The number of values of `variable` so far.
  func count(of variable: Int) -> Int {
    guard variable >= 0, variable < variableCount else { return 0 }
    let state = variables[variable]
    return state.spilled + (overflow[variable]?.count ?? 0) + Int(state.fill)
  }

  @inline(__always)
  func append(_ value: Double, to variable: Int) {
    guard variable >= 0, variable < variableCount else { return }
    let state = variables + variable
    if state.pointee.slot < 0 { state.pointee.slot = Int32(newSlot()) }
    let fill = Int(state.pointee.fill)
    buffers[Int(state.pointee.slot) * Self.blockCapacity + fill] = value
    state.pointee.fill = Int32(fill + 1)
    if fill + 1 == Self.blockCapacity { flush(variable) }
  }

  /// Every value of `variable`, in the order appended.
  func values(of variable: Int) -> [Double] {
    guard variable >= 0, variable < variableCount else { return [] }
    let state = variables[variable]
    let kept = overflow[variable] ?? []
    let buffered = Int(state.fill)
    let total = state.spilled + kept.count + buffered
    var values = [Double](repeating: 0, count: total)
    var end = state.spilled
    values.withUnsafeMutableBufferPointer { target in
      guard let base = target.baseAddress else { return }
      kept.withUnsafeBufferPointer { source in
        if let from = source.baseAddress { (base + end).update(from: from, count: source.count) }
      }
      if state.slot >= 0 {
        (base + end + kept.count).update(
          from: buffers + Int(state.slot) * Self.blockCapacity, count: buffered)
      }
    }
    // Every block in the file is full (`flush` writes one when a buffer fills): its header and
    // values are read with one `preadv`, the values straight into place (two `pread`s and an
    // array a block before: ~1,400 blocks at the end of a 10k export).
    var offset = state.lastBlock
    var header: (previous: Int64, count: Int64) = (0, 0)
    while offset != Self.noBlock {
      guard end >= Self.blockCapacity, descriptor >= 0 else {
        failure = "cannot read back the statistics spool file"
        return Array(values[end...])
      }
      let start = end - Self.blockCapacity
      let length = Self.blockCapacity * MemoryLayout<Double>.stride
      let got = values.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        return withUnsafeMutableBytes(of: &header) { headerBytes in
          Self.withParts(
            (headerBytes.baseAddress, Self.headerSize),
            (base + start * MemoryLayout<Double>.stride, length)
          ) { preadv(descriptor, $0, 2, off_t(offset)) }
        }
      }
      guard got == Self.headerSize + length,
        Int64(littleEndian: header.count) == Int64(Self.blockCapacity)
      else {
        failure = "cannot read back the statistics spool file"
        return Array(values[end...])
      }
      end = start
      offset = Int64(littleEndian: header.previous)
    }
    return values
  }

  /// A buffer slot for a variable's first value.
  private func newSlot() -> Int {
    if slotCount == slotCapacity {
      let larger = UnsafeMutablePointer<Double>.allocate(
        capacity: slotCapacity * 2 * Self.blockCapacity)
      larger.moveInitialize(from: buffers, count: slotCount * Self.blockCapacity)
      buffers.deallocate()
      buffers = larger
      slotCapacity *= 2
    }
    slotCount += 1
    return slotCount - 1
  }

  /// Empties the full buffer of `variable`: one block in the file, or (without a file) into the
  /// variable's in-memory overflow.
  private func flush(_ variable: Int) {
    let state = variables + variable
    let values = UnsafeBufferPointer(
      start: buffers + Int(state.pointee.slot) * Self.blockCapacity,
      count: Int(state.pointee.fill))
    if canSpill, write(values, after: state.pointee.lastBlock) {
      state.pointee.lastBlock = fileEnd
      fileEnd += Int64(Self.headerSize + values.count * MemoryLayout<Double>.stride)
      state.pointee.spilled += values.count
    } else {
      // Disk full or no file: keep the values in memory (blocks written so far stay readable).
      canSpill = false
      overflow[variable, default: []].append(contentsOf: values)
    }
    state.pointee.fill = 0
  }

  /// Writes one block (previous offset, count, values) at the end of the file with one
  /// `pwritev`: the header from the stack, the values from their buffer (a 4 KiB array made,
  /// cleared and filled a block before).
  private func write(_ values: UnsafeBufferPointer<Double>, after previous: Int64) -> Bool {
    guard let from = values.baseAddress else { return false }
    var header = (previous.littleEndian, Int64(values.count).littleEndian)
    let length = values.count * MemoryLayout<Double>.stride
    let written = withUnsafeMutableBytes(of: &header) { headerBytes -> Int in
      Self.withParts(
        (headerBytes.baseAddress, Self.headerSize),
        (UnsafeMutableRawPointer(mutating: from), length)
      ) { pwritev(descriptor, $0, 2, off_t(fileEnd)) }
    }
    return written == Self.headerSize + length
  }

  /// Two `iovec`s on the stack, for `preadv` and `pwritev`.
  private static func withParts(
    _ first: (UnsafeMutableRawPointer?, Int), _ second: (UnsafeMutableRawPointer?, Int),
    _ body: (UnsafePointer<iovec>) -> Int
  ) -> Int {
    withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { parts in
      parts.initializeElement(at: 0, to: iovec(iov_base: first.0, iov_len: first.1))
      parts.initializeElement(at: 1, to: iovec(iov_base: second.0, iov_len: second.1))
      guard let start = parts.baseAddress else { return -1 }
      return body(start)
    }
  }
}
