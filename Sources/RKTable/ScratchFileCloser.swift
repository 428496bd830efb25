// Closing unlinked scratch files on another thread: their last close frees their pages.
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Closes the descriptors of unlinked scratch files (the wide rows' and the statistics' spools)
/// on a background queue. The last close of such a file gives its page cache back there and
/// then: ~3 ms of system time for the ~15 MB of a 10,000-archive export's spools, which the
/// export's last steps (fsyncs, renames, the commit) need not wait for. A process that ends
/// first closes it as it would have.
public enum ScratchFileCloser {
  private static let queue = DispatchQueue(label: "rkexport.scratch-close", qos: .utility)

  /// Closes `descriptor` soon, on another thread; the caller must not use it again.
  public static func close(_ descriptor: Int32) {
    guard descriptor >= 0 else { return }
    queue.async {
      #if canImport(Glibc)
        _ = Glibc.close(descriptor)
      #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
      #endif
    }
  }
}
