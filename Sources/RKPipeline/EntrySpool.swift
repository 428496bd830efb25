// This run's --state entries, waiting on disk until the state file is written.
import Foundation
import RKTable

/// The state entries of the inputs a run reads, written as they come to an unlinked file in
/// the staging folder, in the state file's own JSON; in memory stay only the keys and where
/// each entry lies (about 100 bytes an input: a first run over a million inputs held about
/// 1 GB of entries). `finish()` hands them over, sorted by key, to `ExportState.writeJSON`.
///
/// When the file cannot be made, the entries stay in memory. When it cannot be written (a full
/// disk), `add` throws, as writing any output would.
final class EntrySpool {
  private var descriptor: Int32 = -1
  private let spoolPath: String
  private var writer: StateJSONWriter?
  private var stored = StoredInputs.Builder()
  private var inMemory: [String: ExportState.Entry] = [:]

  init(directory: String?) {
    spoolPath = (directory ?? "") + "/.state-entries"
    guard let directory else { return }
    descriptor = ScratchFile.openUnnamed(in: directory, prefix: ".state-entries-")
    guard descriptor >= 0 else { return }
    let fd = descriptor
    let spoolPath = spoolPath
    writer = StateJSONWriter { bytes in
      guard writeAll(fd, bytes) else {
        throw OutputError(
          path: spoolPath,
          reason: "cannot write this run's state entries: \(String(cString: strerror(errno)))")
      }
    }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Records `entry` for `key` (a later entry for the same key replaces an earlier one).
  func add(key: String, entry: ExportState.Entry) throws {
    guard var writer else {
      inMemory[key] = entry
      return
    }
    // Taken out while it grows: with a second reference to its buffer, each entry appended
    // copied the whole buffer (up to 64 KiB) first.
    self.writer = nil
    defer { self.writer = writer }
    let start = writer.position
    try writer.appendEntry(entry)
    stored.append(key: key, entry: entry, span: start..<writer.position)
  }

  /// Every entry added, sorted by key. The spool file stays mapped as long as they are used.
  func finish() throws -> ExportState.Inputs {
    guard var writer else { return ExportState.Inputs(inMemory) }
    try writer.flush()
    self.writer = nil
    guard let file = MappedFile(descriptor: descriptor) else {
      throw OutputError(path: spoolPath, reason: "cannot read back this run's state entries")
    }
    return ExportState.Inputs(
      stored: StoredInputs(file: file, builder: stored, isVerbatim: true))
  }
}
