// Scratch files nobody else sees: made without a name, and closed on another thread (their
// last close frees their pages).
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scratch files for what must not wait in memory (spools of rows, values, run UUIDs, the list
/// of inputs): each lives as long as its descriptor and has no name in its folder.
public enum ScratchFile {
  /// A new file in `directory`, open for reading and writing, without a name: made unnamed
  /// (Linux's `O_TMPFILE`) where the file system can, so that no signal or crash can leave it
  /// behind; elsewhere `prefix` and six random characters from `mkstemp`, unlinked at once (a
  /// process killed in between leaves that name: in the staging folder, which the next run
  /// removes, or for the list of inputs in the output folder, which `OutputCommit.recover`
  /// cleans). -1 when the file cannot be made.
  public static func openUnnamed(in directory: String, prefix: String) -> Int32 {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      // `O_TMPFILE` is `__O_TMPFILE | O_DIRECTORY`, a macro Swift does not import;
      // `__O_TMPFILE` is 0o20000000 on these architectures. A kernel or file system without
      // it fails the call (EISDIR, EOPNOTSUPP): the named way follows.
      let unnamed = open(directory, 0o20_000_000 | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o600)
      if unnamed >= 0 { return unnamed }
    #endif
    var path = Array((directory + "/" + prefix + "XXXXXX").utf8CString)
    let descriptor = path.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else { return -1 }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    path.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { _ = unlink(base) }
    }
    return descriptor
  }

  private static let closing = DispatchQueue(label: "rkexport.scratch-close", qos: .utility)

  /// Closes `descriptor` soon, on a background queue; the caller must not use it again. The
  /// last close of an unnamed file gives its page cache back there and then: ~3 ms of system
  /// time for the ~15 MB of a 10,000-archive export's spools, which the export's last steps
  /// (fsyncs, renames, the commit) need not wait for. A process that ends first closes it as
  /// it would have.
  public static func closeInBackground(_ descriptor: Int32) {
    guard descriptor >= 0 else { return }
    closing.async {
      #if canImport(Glibc)
        _ = Glibc.close(descriptor)
      #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
      #endif
    }
  }
}
