// The display paths of the items of zips found at import, numbered after the planned inputs,
// for the warnings that name where a run UUID was first seen.
import Foundation

/// Display paths by number, kept in an unlinked scratch file (memory: 8 bytes a path), made
/// when the first one comes: most runs find no zip at import. Used by the consuming thread
/// only. Paths still in the write buffer are read from it; when the file cannot be made or
/// written, all stay in memory.
final class ZipItemPaths {
  /// The number of the first path added.
  let firstNumber: Int
  private let directory: String
  private var descriptor: Int32 = -1
  private var failed = false
  /// Where each path ends, counting from the first path's first byte.
  private var ends: [Int64] = []
  /// Bytes not written yet; they start at `bufferStart`.
  private var buffer: [UInt8] = []
  private var bufferStart: Int64 = 0
  private static let flushSize = 1 << 16

  init(directory: String, firstNumber: Int) {
    self.directory = directory
    self.firstNumber = firstNumber
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Adds a path; its number.
  func add(_ path: String) -> Int {
    buffer.append(contentsOf: path.utf8)
    ends.append(bufferStart + Int64(buffer.count))
    if buffer.count >= Self.flushSize { flush() }
    return firstNumber + ends.count - 1
  }

  /// The path numbered `number`; "" for a number never given.
  func path(_ number: Int) -> String {
    let index = number - firstNumber
    guard ends.indices.contains(index) else { return "" }
    let start = index == 0 ? 0 : ends[index - 1]
    let end = ends[index]
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

  /// Writes the buffer to the scratch file (made now if need be); keeps it in memory when the
  /// file cannot be made or written.
  private func flush() {
    guard !failed else { return }
    if descriptor < 0 {
      descriptor = openUnlinkedFile(in: directory, prefix: ".zip-items-")
      guard descriptor >= 0 else {
        failed = true
        return
      }
    }
    let written = buffer.withUnsafeBytes { bytes in
      pwrite(descriptor, bytes.baseAddress, bytes.count, off_t(bufferStart))
    }
    guard written == buffer.count else {
      failed = true
      return
    }
    bufferStart += Int64(buffer.count)
    buffer.removeAll(keepingCapacity: true)
  }
}
