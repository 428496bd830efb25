// Writing to a descriptor whole (the spools make their files with `ScratchFile` in RKTable).
import Foundation

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
