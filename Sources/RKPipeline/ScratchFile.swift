// Scratch files nobody else sees (made in the staging folder and unlinked at once), and writing
// to a descriptor whole.
import Foundation

/// Opens a new file in `directory` (named `prefix` and six random characters) and unlinks it:
/// it lives as long as the descriptor, and leaves nothing behind once this returns (a kill in
/// the instant before the unlink leaves it in the staging folder, which the next run removes).
/// Returns -1 when the file cannot be made.
func openUnlinkedFile(in directory: String, prefix: String) -> Int32 {
  var path = Array((directory + "/" + prefix + "XXXXXX").utf8CString)
  let descriptor = path.withUnsafeMutableBufferPointer { buffer in
    buffer.baseAddress.map { mkstemp($0) } ?? -1
  }
  if descriptor >= 0 {
    path.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { _ = unlink(base) }
    }
  }
  return descriptor
}

/// Writes all of `bytes` to `fd`, again after an interrupted call; false on an error (`errno`
/// says which).
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
  var offset = 0
  while offset < bytes.count {
    let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else { return false }
    offset += written
  }
  return true
}
