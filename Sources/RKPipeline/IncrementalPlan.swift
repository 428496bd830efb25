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
    /// The entry an earlier run recorded; looked up for `.export` work only (nothing reads it
    /// for `.derivedOnly`, and each lookup parses the entry from the state file).
    var previous: ExportState.Entry?
  }

  /// The inputs to read, in path order.
  let work: WorkList
  /// Inputs not read at all.
  let unchangedCount: Int
  /// State keys of inputs read for export now (changed since the state was written). Every
  /// other state entry is kept: its run UUIDs count as already exported when looking for
  /// duplicates. (Held this way round: a nightly run changes few of many inputs.)
  let replacedKeys: Set<String>

  /// Without `recordsState` (no --state) every item is work and nothing is looked up or
  /// stat'ed: the work list is the walked list itself.
  init(items: InputItemList, state: ExportState?, append: Bool, recordsState: Bool = true) {
    guard recordsState || state != nil else {
      work = WorkList(items: items, planned: nil, state: nil)
      unchangedCount = 0
      replacedKeys = []
      return
    }
    var planned: [Planned] = []
    var unchanged = 0
    var replaced = Set<String>()
    for (index, item) in items.enumerated() {
      let key = InputFingerprint.key(item)
      let fingerprint = InputFingerprint.of(item)
      let previous = state?.inputs.fingerprint(forKey: key)
      if let previous, let fingerprint, fingerprint == previous {
        if append {
          planned.append(Planned(item: index, role: .derivedOnly, fingerprint: fingerprint))
        } else {
          unchanged += 1
        }
        continue
      }
      if previous != nil { replaced.insert(key) }
      planned.append(Planned(item: index, role: .export, fingerprint: fingerprint))
    }
    work = WorkList(items: items, planned: planned, state: state)
    unchangedCount = unchanged
    replacedKeys = replaced
  }

  /// One input to read, as the plan keeps it: which walked item, what for, and its fingerprint.
  /// Its key and previous entry are looked up again when its `Work` is asked for, so a plan of
  /// 100,000 inputs holds 100,000 of these (32 bytes each), not their items and entries.
  struct Planned: Sendable {
    var item: Int
    var role: Role
    var fingerprint: InputFingerprint?
  }

  /// The work of a plan, each `Work` made from its walked item when asked for: a plan of
  /// 100,000 inputs costs little memory beyond the walked list (which waits on disk).
  struct WorkList: RandomAccessCollection, Sendable {
    let items: InputItemList
    /// With a state: the inputs to read; nil: every item, to export.
    let planned: [Planned]?
    /// The previous state, for the entries (shared with the caller's, not copied).
    let state: ExportState?
    /// Without `planned`: the zip found at import whose items these are, when the run keeps
    /// a state (their keys are made, and their fingerprint is the zip's).
    var zip: Work? = nil

    var startIndex: Int { 0 }
    var endIndex: Int { planned?.count ?? items.count }

    /// The number of the walked item that work `position` reads.
    func itemNumber(_ position: Int) -> Int {
      planned?[position].item ?? position
    }

    subscript(position: Int) -> Work {
      guard let planned else {
        if let zip { return Work(items[position], foundIn: zip) }
        return Work(item: items[position], key: "", role: .export, fingerprint: nil, previous: nil)
      }
      let entry = planned[position]
      let item = items[entry.item]
      let key = InputFingerprint.key(item)
      return Work(
        item: item, key: key, role: entry.role, fingerprint: entry.fingerprint,
        previous: entry.role == .export ? state?.inputs[key] : nil)
    }
  }

  /// True when there is nothing to export (only --append's re-reads, or nothing at all).
  var hasNothingToExport: Bool {
    guard let planned = work.planned else { return work.isEmpty }
    return !planned.contains { $0.role == .export }
  }
}
