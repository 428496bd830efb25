// Flushing an output file to disk on another thread while it is still being written.
import Foundation

/// Runs `fdatasync` on one file descriptor on a shared background queue: each time its writer
/// reports `chunk` more bytes written (`wrote(_:)`), or when asked (`request()`); at most one
/// request waits at a time, and the first error is kept for `finish()`.
///
/// Why: a disk, or a virtual machine's host, that caches writes makes a flush wait for all the
/// data written since the previous flush, however long ago the kernel handed it over. One
/// fsync at the end of a file therefore waited for the whole file (48 MB: ~90 ms here, after
/// every byte had already been written back). Flushed as it grows, the file's wait overlaps
/// the work that produces it, and the fsync in `AtomicFile.commit()` finds little left.
public final class BackgroundFlush: @unchecked Sendable {
  /// Bytes written between two flushes asked for by `wrote(_:)`: each waits for about this much.
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
  /// Bytes written since the last request; kept by the writing thread alone.
  private var unflushed = 0

  /// `descriptor` must stay open until `finish()` returns.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Counts `count` bytes just written to the descriptor, and asks for a flush once `chunk` of
  /// them have accumulated. Called by the writing thread.
  public func wrote(_ count: Int) {
    unflushed += count
    if unflushed >= Self.chunk { request() }
  }

  /// Asks for everything written so far to be flushed and returns at once; nothing when no
  /// byte was reported written since the last request. Called by the writing thread.
  public func request() {
    guard unflushed > 0 else { return }
    unflushed = 0
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
