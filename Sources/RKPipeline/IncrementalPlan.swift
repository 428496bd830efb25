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
    /// The state-file key; "" when the run keeps no state.
    var key: String
    var role: Role
    /// Size and modification time; nil without --state (and for a missing file).
    var fingerprint: InputFingerprint?
    var previous: ExportState.Entry?
  }

  /// The inputs to read, in path order.
  let work: WorkList
  /// Inputs not read at all.
  let unchangedCount: Int
  /// State keys of inputs that are neither read for export now: their run UUIDs count as
  /// already exported when looking for duplicates.
  let keptKeys: Set<String>

  /// Without `recordsState` (no --state) every item is work and nothing is looked up or
  /// stat'ed: the work list is the walked list itself.
  init(items: InputItemList, state: ExportState?, append: Bool, recordsState: Bool = true) {
    guard recordsState || state != nil else {
      work = WorkList(items: items, planned: nil)
      unchangedCount = 0
      keptKeys = []
      return
    }
    var planned: [Work] = []
    var unchanged = 0
    var kept = Set(state?.inputs.keys.map { $0 } ?? [])
    for item in items {
      let key = InputFingerprint.key(item)
      let fingerprint = InputFingerprint.of(item)
      let previous = state?.inputs[key]
      if let previous, let fingerprint, fingerprint.matches(previous) {
        if append {
          planned.append(
            Work(
              item: item, key: key, role: .derivedOnly, fingerprint: fingerprint,
              previous: previous))
        } else {
          unchanged += 1
        }
        continue
      }
      kept.remove(key)
      planned.append(
        Work(item: item, key: key, role: .export, fingerprint: fingerprint, previous: previous))
    }
    work = WorkList(items: InputItemList(), planned: planned)
    unchangedCount = unchanged
    keptKeys = kept
  }

  /// The work of a plan. Without a state each `Work` is made from its walked item when asked
  /// for, so a plan of 100,000 inputs costs no memory beyond the walked list.
  struct WorkList: RandomAccessCollection, Sendable {
    let items: InputItemList
    /// With a state: the work worked out per input; nil: every item, to export.
    let planned: [Work]?

    var startIndex: Int { 0 }
    var endIndex: Int { planned?.count ?? items.count }

    subscript(position: Int) -> Work {
      if let planned { return planned[position] }
      return Work(item: items[position], key: "", role: .export, fingerprint: nil, previous: nil)
    }
  }

  /// True when there is nothing to export (only --append's re-reads, or nothing at all).
  var hasNothingToExport: Bool { !work.contains { $0.role == .export } }
}
