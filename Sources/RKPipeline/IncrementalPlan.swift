// Which inputs a run must read, given what the --state file says earlier runs exported.
import Foundation
import RKImport

/// Sorts the walked inputs into work and unchanged ones.
///
/// Without a state every input is work. With one, an input whose size and modification time
/// match its entry is unchanged and not opened at all; any other is work, and its content hash
/// (computed by the worker) decides whether it was changed or only touched. With `--append`,
/// unchanged inputs are still read, but only to rebuild the wide tables and statistics, which
/// need every value (`Role.derivedOnly`).
struct IncrementalPlan: Sendable {
  enum Role: Sendable, Equatable {
    /// Read and export its rows.
    case export
    /// Read only for wide tables and statistics (--append); its rows are already written.
    case derivedOnly
  }

  /// One input to read.
  struct Work: Sendable {
    var item: InputItem
    var key: String
    var role: Role
    var fingerprint: InputFingerprint?
    var previous: ExportState.Entry?
  }

  let work: [Work]
  /// Inputs not read at all.
  let unchangedCount: Int
  /// State keys of inputs that are neither read for export now: their run UUIDs count as
  /// already exported when looking for duplicates.
  let keptKeys: Set<String>

  init(items: [InputItem], state: ExportState?, append: Bool) {
    var work: [Work] = []
    var unchanged = 0
    var kept = Set(state?.inputs.keys.map { $0 } ?? [])
    for item in items {
      let key = InputFingerprint.key(item)
      let fingerprint = InputFingerprint.of(item)
      let previous = state?.inputs[key]
      if let previous, let fingerprint, fingerprint.matches(previous) {
        if append {
          work.append(
            Work(
              item: item, key: key, role: .derivedOnly, fingerprint: fingerprint,
              previous: previous))
        } else {
          unchanged += 1
        }
        continue
      }
      kept.remove(key)
      work.append(
        Work(item: item, key: key, role: .export, fingerprint: fingerprint, previous: previous))
    }
    self.work = work
    unchangedCount = unchanged
    keptKeys = kept
  }

  /// True when there is nothing to export (only --append's re-reads, or nothing at all).
  var hasNothingToExport: Bool { !work.contains { $0.role == .export } }
}
