// Whole-file reads with a size limit, by POSIX calls (no Foundation `Data` round trip).
import Foundation

/// Reads a whole file, refusing files over `limit` bytes before reading them.
public func readFile(_ path: String, limit: Int64) throws -> [UInt8] {
  switch try readFileUnlessLarger(path, limit: limit) {
  case .bytes(let bytes): return bytes
  case .larger(let size):
    throw ImportError(reason: "file is \(size) bytes, over the limit of \(limit) bytes")
  }
}

/// A whole file, or its size when that is over the limit (nothing read then).
enum FileRead {
  case bytes([UInt8])
  case larger(size: Int64)
}

/// Reads a whole regular file of at most `limit` bytes; a larger one is not read.
func readFileUnlessLarger(_ path: String, limit: Int64) throws -> FileRead {
  // Non-blocking: opening a named pipe would otherwise wait for a writer forever.
  let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
  guard fd >= 0 else {
    throw ImportError(reason: "cannot open: \(String(cString: strerror(errno)))")
  }
  defer { close(fd) }
  var info = stat()
  guard fstat(fd, &info) == 0 else { throw ImportError(reason: "cannot stat") }
  guard (info.st_mode & S_IFMT) == S_IFREG else { throw ImportError(reason: notRegularFile) }
  let size = Int64(info.st_size)
  guard size <= limit else { return .larger(size: size) }
  // Read straight into uninitialised storage: zero-filling first would touch every byte twice.
  return .bytes(
    try [UInt8](unsafeUninitializedCapacity: Int(size)) { buffer, initialized in
      initialized = 0
      guard let base = buffer.baseAddress else { return }
      while initialized < buffer.count {
        let count = read(fd, base + initialized, buffer.count - initialized)
        if count < 0 {
          throw ImportError(reason: "read failed: \(String(cString: strerror(errno)))")
        }
        if count == 0 { break }
        initialized += count
      }
    })
}

/// Why a named pipe, socket or device is not read.
let notRegularFile = "not a regular file (a named pipe, socket or device); not read"
