// Outputs as a set: written into a hidden staging folder, renamed into place only at the end.
import Foundation
import RKImport
import RKTable
import RKWrite

#if canImport(Glibc)
  import Glibc
#endif

/// The staging folder of one run and the journal that makes its final renames all-or-nothing.
///
/// Every output is written below `<out>/.rkexport-staging-<pid>/`. When the whole run has
/// completed, `commit(_:)` writes the list of renames to `<out>/.rkexport-commit` (fsynced,
/// itself renamed into place), performs them in that fixed order and removes the journal.
/// A run killed during the renames leaves the journal; the next run (under the lock) finishes
/// those renames before anything else (`recover`), so readers end up with the complete new set.
/// A run killed before the journal exists leaves only a staging folder, which the next run
/// removes: the previous outputs are untouched.
public final class OutputCommit {
  /// Prefix of staging folder names inside the output folder (hidden, so walks skip them).
  public static let stagingPrefix = ".rkexport-staging-"
  /// The journal's name inside the output folder.
  public static let journalName = ".rkexport-commit"

  public let outputDirectory: String
  /// Where this run writes; same file system as the outputs, so renames are atomic.
  public let stagingDirectory: String

  /// One rename of the commit: absolute or output-relative paths, as given.
  public struct Rename: Sendable, Equatable {
    public var from: String
    public var to: String
    public init(from: String, to: String) {
      self.from = from
      self.to = to
    }
  }

  /// Creates the staging folder. Call with the output lock held.
  public init(outputDirectory: String) throws {
    self.outputDirectory = outputDirectory
    stagingDirectory = outputDirectory + "/" + OutputCommit.stagingPrefix + String(getpid())
    try? FileManager.default.removeItem(atPath: stagingDirectory)
    try createFolder(stagingDirectory)
  }

  /// Drops the page cache of the files `names` (paths in `outputDirectory`) and of the wide
  /// tables (`wide/*.csv`) a previous export left: the commit renames this run's files over
  /// them, and the rename that frees a replaced file also frees its cached pages, ~60 MB for
  /// 10,000 archives, which took ~8 ms of the run's serial end. Called on another thread as
  /// the run starts, while a core is idle; the files stay whole and readable (their pages are
  /// read from disk again if anyone asks). Links are not followed.
  public static func releaseCachedPages(of names: [String], in outputDirectory: String) {
    var paths = names.map { outputDirectory + "/" + $0 }
    let wide = outputDirectory + "/wide"
    for name in (try? FileManager.default.contentsOfDirectory(atPath: wide)) ?? []
    where name.hasSuffix(".csv") && !name.hasPrefix(".") {
      paths.append(wide + "/" + name)
    }
    for path in paths {
      let descriptor = FileSystemName.openPath(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      var info = stat()
      if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
      }
      close(descriptor)
    }
  }

  /// Finishes a commit a killed run left half done and removes stale staging folders.
  /// Returns a line to log when something was recovered or removed.
  public static func recover(outputDirectory: String) -> [String] {
    var notes: [String] = []
    let journal = outputDirectory + "/" + journalName
    if let text = try? String(contentsOfFile: journal, encoding: .utf8) {
      var finished = 0
      for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard parts.count == 2 else { continue }
        let from = String(parts[0])
        let to = String(parts[1])
        if FileManager.default.fileExists(atPath: from) {
          makeParent(of: to)
          if Glibc.rename(from, to) == 0 { finished += 1 }
        }
      }
      unlink(journal)
      notes.append("finished the commit of an interrupted run (\(finished) files renamed)")
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: outputDirectory)) ?? []
    // Also an input list's file: the walk makes it in the output folder (the staging folder
    // does not exist yet) and unlinks it at once, so one is left only by a kill in between.
    for name in names.sorted()
    where name.hasPrefix(stagingPrefix) || (name.hasPrefix(".") && name.hasSuffix(".tmp"))
      || name.hasPrefix(InputItemList.scratchFilePrefix)
    {
      try? FileManager.default.removeItem(atPath: outputDirectory + "/" + name)
      notes.append("removed \(name) left by an interrupted run")
    }
    return notes
  }

  /// Writes the journal, performs `renames` in order, removes the journal and the staging
  /// folder. A failure part-way leaves the journal, so the next run completes the set.
  public func commit(_ renames: [Rename]) throws {
    let journal = outputDirectory + "/" + OutputCommit.journalName
    let text = renames.map { "\($0.from)\t\($0.to)\n" }.joined()
    try writeDurably(Array(text.utf8), to: journal)
    for rename in renames {
      OutputCommit.makeParent(of: rename.to)
      guard Glibc.rename(rename.from, rename.to) == 0 else {
        let reason = String(cString: strerror(errno))
        throw OutputError(path: rename.to, reason: "cannot rename the finished file: \(reason)")
      }
    }
    syncFolder(outputDirectory)
    unlink(journal)
    discard()
  }

  /// Removes the staging folder and everything in it. Safe to repeat.
  public func discard() {
    // Rename first, then delete: another thread still writing by path then fails instead of
    // recreating files in a folder being deleted (the name keeps the staging prefix, so a
    // leftover is cleaned by the next run's `recover`).
    let doomed = stagingDirectory + ".discarded"
    if Glibc.rename(stagingDirectory, doomed) == 0 {
      try? FileManager.default.removeItem(atPath: doomed)
    } else {
      try? FileManager.default.removeItem(atPath: stagingDirectory)
    }
  }

  private static func makeParent(of path: String) {
    let parent = PathText.parent(of: path)
    if !parent.isEmpty {
      try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    }
  }
}

/// Writes `bytes` to a temporary file beside `path`, fsyncs it and renames it onto `path`.
func writeDurably(_ bytes: [UInt8], to path: String) throws {
  try writeDurably(to: path) { write in try write(bytes) }
}

/// Writes what `produce` hands its `write` function, chunk by chunk, to a temporary file beside
/// `path`, fsyncs it and renames it onto `path`: a large file is never whole in memory.
func writeDurably(
  to path: String, _ produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
) throws {
  let temporary = path + ".\(getpid()).tmp"
  let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { throw OutputError(path: path, reason: "cannot create the file") }
  var closed = false
  // Flushed while it is written (see `BackgroundFlush`): a state of a million inputs is 455 MB.
  let flusher = BackgroundFlush(descriptor: fd)
  defer {
    if !closed {
      _ = flusher.finish()
      _ = close(fd)
      unlink(temporary)
    }
  }
  try produce { bytes in
    guard writeAll(fd, bytes) else {
      throw OutputError(path: path, reason: "cannot write the file")
    }
    flusher.wrote(bytes.count)
  }
  // A background flush's error counts as the fsync's (see `BackgroundFlush.finish()`).
  let synced = flusher.finish() == 0 && fsync(fd) == 0
  _ = close(fd)
  closed = true
  guard synced, Glibc.rename(temporary, path) == 0 else {
    unlink(temporary)
    throw OutputError(path: path, reason: "cannot write the file")
  }
}

/// fsyncs a folder so the renames in it survive a power cut.
func syncFolder(_ path: String) {
  let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  guard fd >= 0 else { return }
  _ = fsync(fd)
  _ = close(fd)
}
