// Scratch files nobody else sees (made in the staging folder without a name), and writing to a
// descriptor whole.
import Foundation
import RKTable

/// A new file in `directory` without a name (`ScratchFile.openUnnamed`; `prefix` names it only
/// where the file system cannot make it unnamed); -1 when it cannot be made.
func openUnlinkedFile(in directory: String, prefix: String) -> Int32 {
  ScratchFile.openUnnamed(in: directory, prefix: prefix)
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
