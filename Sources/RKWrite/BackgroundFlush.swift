// Flushing an output file to disk on another thread while it is still being written.
import Foundation

/// Runs `fdatasync` on one file descriptor on a shared background queue whenever asked, at most
/// one request waiting at a time, and keeps the first error for `finish()`.
///
/// Why: a disk, or a virtual machine's host, that caches writes makes a flush wait for all the
/// data written since the previous flush, however long ago the kernel handed it over. One
/// fsync at the end of a file therefore waited for the whole file (48 MB: ~90 ms here, after
/// every byte had already been written back). Flushed as it grows, the file's wait overlaps
/// the work that produces it, and the fsync in `AtomicFile.commit()` finds little left.
public final class BackgroundFlush: @unchecked Sendable {
  /// Bytes a writer lets pass between two requests: each flush then waits for about this much.
  public static let chunk = 8 << 20

  /// One flush at a time for all files: they share the disk.
  private static let queue = DispatchQueue(label: "rkexport.flush", qos: .utility)

  private let descriptor: Int32
  private let running = DispatchGroup()
  /// Guards `requestWaiting` and `firstError`.
  private let lock = NSLock()
  /// A request is queued and has not started: it will cover whatever is written meanwhile.
  private var requestWaiting = false
  private var firstError: Int32 = 0

  /// `descriptor` must stay open until `finish()` returns.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Asks for everything written so far to be flushed; returns at once.
  public func request() {
    lock.lock()
    defer { lock.unlock() }
    guard !requestWaiting else { return }
    requestWaiting = true
    running.enter()
    Self.queue.async { [self] in
      lock.withLock { requestWaiting = false }
      let code = fdatasync(descriptor) == 0 ? 0 : errno
      if code != 0 { lock.withLock { if firstError == 0 { firstError = code } } }
      running.leave()
    }
  }

  /// Waits for the flushes asked for; returns the first `errno` one of them met, or 0. After a
  /// failed flush the next fsync of the same descriptor may report success (Linux reports a
  /// write-back error once per open file), so the caller must treat this as the fsync's error.
  public func finish() -> Int32 {
    running.wait()
    return lock.withLock { firstError }
  }
}
