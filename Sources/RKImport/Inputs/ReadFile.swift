// Whole-file reads with a size limit, by POSIX calls (no Foundation `Data` round trip).
import Foundation

/// Reads a whole file, refusing files over `limit` bytes before reading them.
func readFile(_ path: String, limit: Int64) throws -> [UInt8] {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else {
    throw ImportError(reason: "cannot open: \(String(cString: strerror(errno)))")
  }
  defer { close(fd) }
  var info = stat()
  guard fstat(fd, &info) == 0 else { throw ImportError(reason: "cannot stat") }
  let size = Int64(info.st_size)
  guard size <= limit else {
    throw ImportError(reason: "file is \(size) bytes, over the limit of \(limit) bytes")
  }
  var bytes = [UInt8](repeating: 0, count: Int(size))
  var offset = 0
  while offset < bytes.count {
    let count = bytes.withUnsafeMutableBytes { buffer -> Int in
      guard let base = buffer.baseAddress else { return 0 }
      return read(fd, base + offset, buffer.count - offset)
    }
    if count < 0 { throw ImportError(reason: "read failed: \(String(cString: strerror(errno)))") }
    if count == 0 { break }
    offset += count
  }
  if offset < bytes.count { bytes.removeLast(bytes.count - offset) }
  return bytes
}
