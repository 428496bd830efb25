// Whole-file reads with a size limit, by POSIX calls (no Foundation `Data` round trip).
import Foundation

/// Reads a whole file, refusing files over `limit` bytes before reading them.
public func readFile(_ path: String, limit: Int64) throws -> [UInt8] {
  switch try readFileUnlessLarger(path, limit: limit) {
  case .bytes(let bytes): return bytes
  case .larger(let size):
    throw ImportError(reason: fileTooLarge(size: size, limit: limit))
  }
}

/// Why a file over the size limit is not read.
func fileTooLarge(size: Int64, limit: Int64) -> String {
  "file is \(size) bytes, over the limit of \(limit) bytes"
}

/// A whole file, or its size when that is over the limit (nothing read then).
enum FileRead {
  case bytes([UInt8])
  case larger(size: Int64)
}

/// Reads a whole regular file of at most `limit` bytes; a larger one is not read.
func readFileUnlessLarger(_ path: String, limit: Int64) throws -> FileRead {
  try withRegularFile(path) { fd, size in
    guard size <= limit else { return .larger(size: size) }
    return .bytes(try readWhole(fd, size: size))
  }
}

/// What `readFileUnlessZip` found.
enum UnopenedFileRead {
  case bytes([UInt8])
  /// It starts like a zip; `size` bytes, and all of them when they were read to tell.
  case zip(size: Int64, bytes: [UInt8]?)
  /// It is no zip and over the limit: not read.
  case larger(size: Int64)
}

/// Reads a whole regular file of at most `limit` bytes unless it starts like a zip. A file
/// over `peekAbove` bytes has its first four bytes read first, so that a large zip (listed
/// where it lies) is never read whole, nor a large file over the limit.
func readFileUnlessZip(
  _ path: String, limit: Int64, peekAbove: Int64 = ZipReader.directReadSize
) throws
  -> UnopenedFileRead
{
  try withRegularFile(path) { fd, size in
    if size > peekAbove || size > limit {
      var head: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
      let got = withUnsafeMutableBytes(of: &head) { pread(fd, $0.baseAddress, 4, 0) }
      if got == 4 && isZipMagic([head.0, head.1, head.2, head.3]) {
        return .zip(size: size, bytes: nil)
      }
      guard size <= limit else { return .larger(size: size) }
    }
    let bytes = try readWhole(fd, size: size)
    return isZipMagic(bytes) ? .zip(size: size, bytes: bytes) : .bytes(bytes)
  }
}

/// Runs `body` with a regular file open and its size; throws for anything else.
private func withRegularFile<Result>(
  _ path: String, _ body: (Int32, Int64) throws -> Result
) throws -> Result {
  // Non-blocking: opening a named pipe would otherwise wait for a writer forever.
  let fd = FolderOpener.current.openFile(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
  guard fd >= 0 else {
    throw ImportError(reason: "cannot open: \(String(cString: strerror(errno)))")
  }
  defer { close(fd) }
  var info = stat()
  guard fstat(fd, &info) == 0 else { throw ImportError(reason: "cannot stat") }
  guard (info.st_mode & S_IFMT) == S_IFREG else { throw ImportError(reason: notRegularFile) }
  return try body(fd, Int64(info.st_size))
}

/// `size` bytes from the open file `fd` (fewer if it shrank meanwhile).
private func readWhole(_ fd: Int32, size: Int64) throws -> [UInt8] {
  // Read straight into uninitialised storage: zero-filling first would touch every byte twice.
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
  }
}

/// Why a named pipe, socket or device is not read.
let notRegularFile = "not a regular file (a named pipe, socket or device); not read"
