// Opening input files by name within their folder: an export reads its inputs folder by
// folder, and the kernel's walk of every component of each full path was half of each `open`.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Each thread's descriptor of the folder it last opened a file in: a file in the
/// same folder is opened with `openat` and its name alone. Anything else (another folder, a
/// path without one, a folder that cannot be opened) is opened by its full path, as before:
/// errors and symlinks resolve the same way, since the folder's descriptor was opened by its
/// own path and `openat` resolves the name as the full path's last component. One difference:
/// a folder renamed away and made anew while its files are read is read in its old place until
/// the thread opens a file in another folder (as if those files had been read a moment before).
final class FolderOpener {
  /// The folder's path bytes (no trailing slash; empty before the first), and its descriptor
  /// (-1: none, or the folder could not be opened).
  private var folder: [UInt8] = []
  private var descriptor: Int32 = -1

  /// This thread's opener.
  static var current: FolderOpener { threadSlot.object { FolderOpener() } }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// `open(path, flags)`, by name within the folder when it is the last one opened in.
  func openFile(_ path: String, _ flags: Int32) -> Int32 {
    FileSystemName.withPath(path) { text -> Int32 in
      // The C string open(2) gets: up to the first NUL, as the full path's open reads it.
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
      // "/name" and "name" have no folder worth a descriptor; "folder/" no name.
      guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash > 0,
        slash + 1 < bytes.count, holdsFolder(UnsafeBufferPointer(rebasing: bytes[..<slash]))
      else {
        return open(text, flags)
      }
      return openat(descriptor, text + slash + 1, flags)
    }
  }

  /// Whether the descriptor is that of the folder at `path`, opening it when it is another.
  private func holdsFolder(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
    // A folder that could not be opened (read permission is needed) is not tried again.
    // (`path` is never empty: the caller passes the bytes before a slash past the first.)
    if folder.elementsEqual(path) { return descriptor >= 0 }
    if descriptor >= 0 { close(descriptor) }
    folder = Array(path)
    folder.append(0)
    descriptor = folder.withUnsafeBufferPointer { terminated in
      terminated.withMemoryRebound(to: CChar.self) {
        open($0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      }
    }
    folder.removeLast()
    return descriptor >= 0
  }
}

private let threadSlot = ThreadSlot<FolderOpener>()
