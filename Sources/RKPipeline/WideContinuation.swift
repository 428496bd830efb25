// The later rows of a wide table that two threads write: kept aside until the earlier ones are in.
import RKTable
import RKWrite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Rows of one CSV formatted by the second wide-table thread (`WideTableOutputs`), while the
/// first thread still writes the rows before them: buffered (64 KiB) into an unlinked scratch
/// file in the staging folder, then copied after those rows (`append(to:)`), so memory stays
/// flat however long the table.
final class WideContinuation: @unchecked Sendable {
  private let descriptor: Int32
  private let label: String
  private var buffer: [UInt8] = []
  private var fileSize = 0
  /// Rows appended so far.
  private(set) var rowCount = 0
  static let capacity = 64 * 1024

  init(directory: String) throws {
    descriptor = ScratchFile.openUnnamed(in: directory, prefix: ".wide-rows-")
    label = directory + "/.wide-rows-"
    guard descriptor >= 0 else {
      throw WriteError.system(path: label, operation: .create, errorNumber: errno)
    }
    buffer.reserveCapacity(Self.capacity)
  }

  deinit { ScratchFile.closeInBackground(descriptor) }

  /// Appends `rowCount` rows, formatted.
  func append(_ bytes: UnsafeBufferPointer<UInt8>, rowCount rows: Int) throws {
    buffer.append(contentsOf: bytes)
    rowCount += rows
    if buffer.count >= Self.capacity { try flush() }
  }

  /// Writes every row appended to `writer`, after the rows it holds.
  func append(to writer: CSVWriter) throws {
    try flush()
    var chunk = [UInt8](repeating: 0, count: Self.capacity)
    var offset = 0
    var rows = rowCount
    while offset < fileSize {
      let want = min(chunk.count, fileSize - offset)
      let got = chunk.withUnsafeMutableBytes { raw in
        pread(descriptor, raw.baseAddress, want, off_t(offset))
      }
      if got < 0 && errno == EINTR { continue }
      if got < 0 { throw WriteError.system(path: label, operation: .read, errorNumber: errno) }
      guard got > 0 else {
        throw WriteError(
          path: label, operation: .read, errorNumber: nil, reason: "the scratch file ended early")
      }
      // The rows are counted with the first chunk: the writer only adds the counts up.
      try chunk.withUnsafeBufferPointer { all in
        try writer.writeRendered(UnsafeBufferPointer(rebasing: all[..<got]), rowCount: rows)
      }
      rows = 0
      offset += got
    }
  }

  private func flush() throws {
    guard !buffer.isEmpty else { return }
    var written = 0
    while written < buffer.count {
      let count = buffer.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return pwrite(descriptor, base + written, raw.count - written, off_t(fileSize + written))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        throw WriteError.system(path: label, operation: .write, errorNumber: errno)
      }
      written += count
    }
    fileSize += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }
}
