// Where the statistics keep their numbers: per-variable blocks in one temporary file, so memory
// stays flat however many runs there are.
import Foundation

/// Doubles of many variables, appended in any interleaving and read back per variable in the
/// order they were appended.
///
/// Each variable buffers up to `blockCapacity` values; a full buffer is written to the spool file
/// as one block that starts with the file offset of the variable's previous block, so the file
/// holds a backwards chain per variable and memory holds one offset per variable. Reading a
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

  private var descriptor: Int32 = -1
  /// False once a write failed: later values stay in memory, earlier blocks stay readable.
  private var canSpill = true
  private var fileEnd: Int64 = 0
  private var pending: [[Double]] = []
  private var lastBlock: [Int64] = []
  private var spilledCounts: [Int] = []
  /// Set when a block written earlier cannot be read back: the statistics would be incomplete.
  private(set) var failure: String?

  /// A spool whose file lives in `directory` (memory only when nil).
  init(directory: String?) {
    guard let directory else { return }
    let template = directory + "/.statistics-XXXXXX"
    var path = Array(template.utf8CString)
    let descriptor = path.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard descriptor >= 0 else { return }
    path.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { _ = unlink(base) }
    }
    self.descriptor = descriptor
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// A new, empty variable; its number is what `append` and `values` take.
  func makeVariable() -> Int {
    pending.append([])
    lastBlock.append(Self.noBlock)
    spilledCounts.append(0)
    return pending.count - 1
  }

  /// The number of values of `variable` so far.
  func count(of variable: Int) -> Int {
    spilledCounts[variable] + pending[variable].count
  }

  func append(_ value: Double, to variable: Int) {
    pending[variable].append(value)
    if pending[variable].count >= Self.blockCapacity && canSpill && descriptor >= 0 {
      spill(variable)
    }
  }

  /// Every value of `variable`, in the order appended.
  func values(of variable: Int) -> [Double] {
    let tail = pending[variable]
    let total = spilledCounts[variable] + tail.count
    guard total > tail.count else { return tail }
    var values = [Double](repeating: 0, count: total)
    var end = total - tail.count
    values.replaceSubrange(end..<total, with: tail)
    var offset = lastBlock[variable]
    while offset != Self.noBlock {
      guard let header = readHeader(at: offset), header.count <= end else {
        failure = "cannot read back the statistics spool file"
        return Array(values[end...])
      }
      let start = end - header.count
      let got = values.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        let length = header.count * MemoryLayout<Double>.stride
        return pread(
          descriptor, base + start * MemoryLayout<Double>.stride, length,
          off_t(offset) + off_t(Self.headerSize))
      }
      guard got == header.count * MemoryLayout<Double>.stride else {
        failure = "cannot read back the statistics spool file"
        return Array(values[end...])
      }
      end = start
      offset = header.previous
    }
    return values
  }

  /// Writes the buffered values of `variable` as one block; on a write error the spool keeps
  /// every further value in memory instead.
  private func spill(_ variable: Int) {
    let values = pending[variable]
    var block = [UInt8](repeating: 0, count: Self.headerSize + values.count * 8)
    block.withUnsafeMutableBytes { bytes in
      bytes.storeBytes(of: lastBlock[variable].littleEndian, toByteOffset: 0, as: Int64.self)
      bytes.storeBytes(of: Int64(values.count).littleEndian, toByteOffset: 8, as: Int64.self)
      values.withUnsafeBytes { source in
        guard let target = bytes.baseAddress, let from = source.baseAddress else { return }
        (target + Self.headerSize).copyMemory(from: from, byteCount: source.count)
      }
    }
    let written = block.withUnsafeBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return -1 }
      return pwrite(descriptor, base, bytes.count, off_t(fileEnd))
    }
    guard written == block.count else {
      // Disk full or similar: stop spilling (values written so far stay readable).
      canSpill = false
      return
    }
    lastBlock[variable] = fileEnd
    fileEnd += Int64(block.count)
    spilledCounts[variable] += values.count
    pending[variable].removeAll(keepingCapacity: true)
  }

  private func readHeader(at offset: Int64) -> (previous: Int64, count: Int)? {
    guard descriptor >= 0 else { return nil }
    var header = [Int64](repeating: 0, count: 2)
    let got = header.withUnsafeMutableBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return -1 }
      return pread(descriptor, base, Self.headerSize, off_t(offset))
    }
    guard got == Self.headerSize, header[1] >= 0 else { return nil }
    return (Int64(littleEndian: header[0]), Int(Int64(littleEndian: header[1])))
  }
}
