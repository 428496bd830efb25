// An output file that appears under its final name only when complete (design.md §4).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file written under a hidden temporary name in the target folder and renamed into place by
/// `commit()`, so readers (and a cron job that dies mid-run) never see a half-written output.
///
/// ```swift
/// let file = try AtomicFile(path: "out/answers.csv")
/// try file.write(bytes)      // or let a C library write to `file.temporaryPath`
/// try file.commit()          // rename(2) onto out/answers.csv
/// ```
/// If `commit()` is never called, `abandon()` (or deinit) removes the temporary file.
/// The temporary name is `.<name>.<random>.tmp` in the same folder: same file system, so the
/// rename is atomic, and hidden, so a later input walk of the folder skips it.
public final class AtomicFile {
  /// The final path.
  public let path: String
  /// Where the bytes go until `commit()`.
  public let temporaryPath: String
  private var descriptor: Int32
  private var isDone = false
  /// Flushes the file on another thread every `BackgroundFlush.chunk` bytes while writing goes
  /// on: the fsync in `commit()` then waits for the last chunk at most.
  private let flusher: BackgroundFlush

  /// Creates the temporary file (exclusively, mode 0644 before umask). The folder must exist.
  public init(path: String) throws {
    self.path = path
    // By bytes: a slash followed by a combining mark is one Character with it, which
    // `lastIndex(of: "/")` does not find (a task named by a lone accent made its wide CSV's
    // temporary file a path in a folder that does not exist).
    let utf8 = Array(path.utf8)
    let slash = utf8.lastIndex(of: UInt8(ascii: "/"))
    let folder = slash.map { String(decoding: utf8[...$0], as: UTF8.self) } ?? ""
    let name = slash.map { String(decoding: utf8[($0 + 1)...], as: UTF8.self) } ?? path
    var attempt = 0
    while true {
      let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
      let candidate = "\(folder).\(name).\(token).tmp"
      let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if fd >= 0 {
        temporaryPath = candidate
        descriptor = fd
        flusher = BackgroundFlush(descriptor: fd)
        return
      }
      let code = errno
      attempt += 1
      if code != EEXIST || attempt >= 8 {
        throw WriteError.system(path: path, operation: .create, errorNumber: code)
      }
    }
  }

  deinit { abandon() }

  /// Appends bytes to the temporary file, retrying short writes and interrupted calls.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard !isDone, descriptor >= 0 else { throw WriteError.closed(path: path) }
    guard var base = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let written = systemWrite(descriptor, base, remaining)
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        throw WriteError.system(path: path, operation: .write, errorNumber: code)
      }
      remaining -= written
      base += written
    }
    flusher.wrote(bytes.count)
  }

  /// Starts flushing everything written so far to disk on another thread and returns at once:
  /// for a file that is complete (or nearly) but committed later, so that its wait for the
  /// disk overlaps other work. `commit()` waits for it.
  public func beginFlush() {
    guard !isDone, descriptor >= 0 else { return }
    flusher.request()
  }

  /// Appends bytes to the temporary file.
  public func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try write($0) }
  }

  /// Flushes to disk, closes and renames the temporary file onto `path`, replacing any old file.
  public func commit() throws {
    guard !isDone else { throw WriteError.closed(path: path) }
    if descriptor >= 0 {
      let fd = descriptor
      descriptor = -1
      // fsync before rename: after a crash the name points at complete bytes or the old file.
      // A background flush's error counts as the fsync's (see `BackgroundFlush.finish()`).
      let flushError = flusher.finish()
      if flushError != 0 || fsync(fd) != 0 {
        let code = flushError != 0 ? flushError : errno
        _ = close(fd)
        abandon()
        throw WriteError.system(path: path, operation: .write, errorNumber: code)
      }
      if close(fd) != 0 {
        let code = errno
        abandon()
        throw WriteError.system(path: path, operation: .close, errorNumber: code)
      }
    }
    if rename(temporaryPath, path) != 0 {
      let code = errno
      abandon()
      throw WriteError.system(path: path, operation: .rename, errorNumber: code)
    }
    isDone = true
  }

  /// Closes and removes the temporary file; the final path is left untouched. Safe to repeat.
  public func abandon() {
    guard !isDone else { return }
    isDone = true
    if descriptor >= 0 {
      _ = flusher.finish()
      _ = close(descriptor)
      descriptor = -1
    }
    _ = unlink(temporaryPath)
  }

  /// Closes the descriptor without renaming, for writers (libxlsxwriter) that reopen
  /// `temporaryPath` themselves; `commit()` still renames.
  public func closeDescriptor() throws {
    guard descriptor >= 0 else { return }
    let fd = descriptor
    descriptor = -1
    _ = flusher.finish()  // a flush still running must not outlive the descriptor
    if close(fd) != 0 {
      throw WriteError.system(path: path, operation: .close, errorNumber: errno)
    }
  }
}

/// POSIX write(2), named apart from our own `write` methods.
@inline(__always)
func systemWrite(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(fd, base, count)
  #else
    return Darwin.write(fd, base, count)
  #endif
}

/// POSIX close(2), named apart from our own `close` methods.
@inline(__always)
func systemClose(_ fd: Int32) -> Int32 {
  #if canImport(Glibc)
    return Glibc.close(fd)
  #else
    return Darwin.close(fd)
  #endif
}
