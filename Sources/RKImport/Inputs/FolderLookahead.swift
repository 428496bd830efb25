// Subfolders looked at ahead, on another core: the walk runs before any parsing starts, and
// most of its time is the kernel's (a folder opened, its entries read and sorted by hash, a
// `stat`, a look for a Bridge `info.json`), folder after folder, while the other core waits.
import Dispatch
import Foundation

/// What the walk asks of a subfolder before going into it.
struct FolderLook {
  /// Its device and inode (nil when `stat` failed), so a loop is entered once.
  var identity: InputWalker.FolderIdentity?
  /// It is one Bridge upload (an item, not walked).
  var isBridge: Bool
  /// Its entries; nil when it cannot be listed (not asked for an upload).
  var listing: FolderListing?
}

/// The looks of a folder's subfolders, made in order on background threads a few chunks
/// ahead of the walk, which takes them in the same order (`next()`). At most the current chunk
/// and `chunksAhead` more, of `chunkSize` listings each, wait at once: memory stays flat in
/// wide trees.
final class FolderLookahead: @unchecked Sendable {
  static let chunkSize = 8
  static let chunksAhead = 4
  /// Chunks are looked at on all cores (the kernel's part of a folder's listing, a single
  /// thread's, was slower than the walk that waited for it). No chunk waits for anything,
  /// so nested folders' lookaheads cannot block their parents'.
  private static let queue = DispatchQueue(label: "rkexport.walk-ahead", attributes: .concurrent)

  private let paths: [String]
  private let look: @Sendable (String) -> FolderLook
  /// Each chunk's slots written by the thread that looks at that chunk, before the chunk's
  /// signal; read (and moved out) by the walk after waiting for that signal.
  private let looks: UnsafeMutablePointer<FolderLook?>
  private let chunkDone: [DispatchSemaphore]
  private var taken = 0
  private var started = 0

  init(paths: [String], look: @escaping @Sendable (String) -> FolderLook) {
    self.paths = paths
    self.look = look
    looks = .allocate(capacity: paths.count)
    looks.initialize(repeating: nil, count: paths.count)
    let chunks = (paths.count + Self.chunkSize - 1) / Self.chunkSize
    chunkDone = (0..<chunks).map { _ in DispatchSemaphore(value: 0) }
    while started < min(chunks, Self.chunksAhead) { startNextChunk() }
  }

  deinit {
    // Every started chunk holds this object until it is done; untaken looks are dropped.
    looks.deinitialize(count: paths.count)
    looks.deallocate()
  }

  private func startNextChunk() {
    let chunk = started
    started += 1
    let range = chunk * Self.chunkSize..<min((chunk + 1) * Self.chunkSize, paths.count)
    Self.queue.async { [self] in
      for index in range { looks[index] = look(paths[index]) }
      chunkDone[chunk].signal()
    }
  }

  /// The look of the next subfolder, in the order of `paths`.
  func next() -> FolderLook {
    precondition(taken < paths.count, "more folders taken than looked at")
    let index = taken
    taken += 1
    if index % Self.chunkSize == 0 {
      chunkDone[index / Self.chunkSize].wait()
      if started < chunkDone.count { startNextChunk() }
    }
    defer { looks[index] = nil }
    return looks[index]!
  }
}
