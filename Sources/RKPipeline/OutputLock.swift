// One run per output folder: an flock(2)-held lock file that names its holder.
import Foundation
import RKTable

#if canImport(Glibc)
  import Glibc
#endif

/// The lock `<out>/.rkexport.lock`, held with `flock(2)` for the whole run.
///
/// The kernel releases an flock when its holder dies however it dies, so a lock is live exactly
/// while some process holds it. The file also records the holder's PID, host and start time:
/// a second run prints them and exits with status 4; a file found without a holder (left by a
/// killed run) is stale and taken over with a warning. On file systems without working flock
/// (some old NFS setups), run one rkexport per output folder yourself.
public final class OutputLock {
  /// The lock file name inside the output folder.
  public static let fileName = ".rkexport.lock"

  /// Another live process holds the lock.
  public struct Busy: Error, CustomStringConvertible {
    public var directory: String
    public var holder: String
    public var description: String {
      "\(directory) is being written by \(holder); try again later"
    }
  }

  public let path: String
  /// What the previous, dead holder had written, when the lock was taken over.
  public private(set) var staleHolder: String?
  private var descriptor: Int32 = -1

  /// Takes the lock of `directory` (which must exist) or throws `Busy` at once.
  public init(directory: String, started: Date = Date()) throws {
    path = directory + "/" + OutputLock.fileName
    for _ in 0..<8 {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw OutputError(path: path, reason: "cannot create the lock file") }
      if flock(fd, LOCK_EX | LOCK_NB) != 0 {
        let holder = OutputLock.readHolder(fd) ?? "another process"
        _ = close(fd)
        throw Busy(directory: directory, holder: holder)
      }
      // The previous holder may have unlinked the file between our open and flock: then we
      // locked a file nobody else will see, so start again on the current one.
      var opened = stat()
      var current = stat()
      guard fstat(fd, &opened) == 0, stat(path, &current) == 0, opened.st_ino == current.st_ino
      else {
        _ = close(fd)
        continue
      }
      staleHolder = OutputLock.readHolder(fd)
      descriptor = fd
      let line =
        "process \(getpid()) on \(ProcessInfo.processInfo.hostName) "
        + "(started \(ISO8601.utcSeconds(started.timeIntervalSince1970)))\n"
      _ = ftruncate(fd, 0)
      _ = line.withCString { pwrite(fd, $0, strlen($0), 0) }
      return
    }
    throw OutputError(path: path, reason: "the lock file keeps being replaced")
  }

  deinit { release() }

  /// Removes the lock file and releases the lock. Safe to repeat.
  public func release() {
    guard descriptor >= 0 else { return }
    // Unlink while still holding the lock, so no one can lock this file after we let go.
    _ = unlink(path)
    _ = close(descriptor)
    descriptor = -1
  }

  /// The holder line of a lock file, nil when empty or unreadable.
  private static func readHolder(_ fd: Int32) -> String? {
    var buffer = [UInt8](repeating: 0, count: 512)
    let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 512, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[0..<count], as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? nil : text
  }
}
