// The display paths of the items of zips found at import, numbered after the planned inputs,
// for the warnings that name where a run UUID was first seen.
import Foundation
import RKTable

/// Display paths by number, kept in two unlinked scratch files (the paths' bytes, and where
/// each path ends), made when the first ones are written: most runs find no zip at import.
/// Memory holds the last 64 KiB of bytes and 8,192 ends not written yet, however many items the
/// zips hold. Used by the consuming thread only. When a file cannot be made or written, what
/// has not been written stays in memory.
final class ZipItemPaths {
  /// The number of the first path added.
  let firstNumber: Int
  private let directory: String
  private let flushSize: Int
  private let endsPerFlush: Int
  private var descriptor: Int32 = -1
  private var endsDescriptor: Int32 = -1
  private var failed = false
  /// Bytes not written yet; they start at `bufferStart`.
  private var buffer: [UInt8] = []
  private var bufferStart: Int64 = 0
  /// Where each path not written to the ends file yet ends (counting from the first path's
  /// first byte); the paths before them, `endsWritten`, have their ends in the file.
  private var ends: [Int64] = []
  private var endsWritten = 0

  /// `flushSize` bytes and `endsPerFlush` ends are written at a time (smaller in tests).
  init(directory: String, firstNumber: Int, flushSize: Int = 1 << 16, endsPerFlush: Int = 8_192) {
    self.directory = directory
    self.firstNumber = firstNumber
    self.flushSize = max(1, flushSize)
    self.endsPerFlush = max(1, endsPerFlush)
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    if endsDescriptor >= 0 { close(endsDescriptor) }
  }

  /// Adds a path; its number.
  func add(_ path: String) -> Int {
    buffer.append(contentsOf: path.utf8)
    ends.append(bufferStart + Int64(buffer.count))
    let number = firstNumber + endsWritten + ends.count - 1
    if buffer.count >= flushSize { flushBytes() }
    if ends.count >= endsPerFlush { flushEnds() }
    return number
  }

  /// The path numbered `number`; "" for a number never given.
  func path(_ number: Int) -> String {
    let index = number - firstNumber
    guard index >= 0, index < endsWritten + ends.count,
      let end = self.end(index), let start = index == 0 ? 0 : self.end(index - 1)
    else { return "" }
    if start >= bufferStart {
      let from = Int(start - bufferStart)
      return String(decoding: buffer[from..<(from + Int(end - start))], as: UTF8.self)
    }
    var bytes = [UInt8](repeating: 0, count: Int(end - start))
    let read = bytes.withUnsafeMutableBytes { target in
      pread(descriptor, target.baseAddress, target.count, off_t(start))
    }
    return read == bytes.count ? String(decoding: bytes, as: UTF8.self) : ""
  }

  /// Where path `index` ends, from memory or the ends file; nil when it cannot be read.
  private func end(_ index: Int) -> Int64? {
    if index >= endsWritten { return ends[index - endsWritten] }
    var value: Int64 = 0
    let size = MemoryLayout<Int64>.size
    let read = withUnsafeMutableBytes(of: &value) { target in
      pread(endsDescriptor, target.baseAddress, size, off_t(index * size))
    }
    return read == size ? value : nil
  }

  /// Writes the bytes to their scratch file (made now if need be).
  private func flushBytes() {
    guard write(buffer, to: &descriptor, prefix: ".zip-items-", at: bufferStart) else { return }
    bufferStart += Int64(buffer.count)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes the ends to their scratch file (made now if need be).
  private func flushEnds() {
    let offset = Int64(endsWritten * MemoryLayout<Int64>.size)
    guard write(ends, to: &endsDescriptor, prefix: ".zip-item-ends-", at: offset) else { return }
    endsWritten += ends.count
    ends.removeAll(keepingCapacity: true)
  }

  /// Writes `values` at `offset` of the scratch file `file`, made now if it is not open; false,
  /// and everything stays in memory from now on, when it cannot be made or written.
  private func write<Value>(
    _ values: [Value], to file: inout Int32, prefix: String, at offset: Int64
  ) -> Bool {
    guard !failed else { return false }
    if file < 0 { file = ScratchFile.openUnnamed(in: directory, prefix: prefix) }
    let written =
      file < 0
      ? -1 : values.withUnsafeBytes { pwrite(file, $0.baseAddress, $0.count, off_t(offset)) }
    failed = written != values.count * MemoryLayout<Value>.stride
    return !failed
  }
}
