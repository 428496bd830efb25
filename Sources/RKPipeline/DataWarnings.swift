// Suspicious but readable data: each run is checked and a warning names the file and the reason.
import Foundation
import RKModel

/// Checks each exported task run for dates that cannot be right and for run UUIDs seen before.
///
/// - end before start;
/// - a task start or end later than the run's clock plus `futureTolerance` (10 minutes, for
///   phones whose clocks run a little ahead);
/// - a task start or end before 2014-01-01 (ResearchKit appeared in 2015: such dates come from
///   a reset clock);
/// - a task run UUID already exported from another file, in this run or an earlier one known
///   to `--state`. Both runs are kept everywhere (long tables and wide tables, one row each):
///   dropping either would lose data silently, and which copy is right is the study's call.
///
/// At most `limitPerKind` warnings of each kind are reported; the rest are counted.
struct DataWarnings {
  static let earliestPlausible = Instant(secondsSince1970: 1_388_534_400)  // 2014-01-01Z
  static let futureTolerance = 600.0
  static let limitPerKind = 50

  let latestPlausible: Instant
  /// Where each run UUID was first seen, by the UUID's 128 bits, mostly on disk (see
  /// `RunUUIDIndex`); file names come back through `fileName`. This is the only per-run state.
  private let seenUUIDs: RunUUIDIndex
  /// UUID texts that are not RFC 4122 UUIDs (rare), by their text.
  private var seenOtherIDs: [String: FirstSeen] = [:]
  /// The display path of an input file by its number (its place in the export's work list).
  private let fileName: (Int) -> String
  /// The display path of a file exported earlier, by its place in the state (`KnownFile`).
  private let knownFileName: (Int) -> String
  /// Sources kept as text, numbered from -1 down: files of runs exported earlier that the state
  /// gives as text, and sources that are not `input` or `input#N` (pseudonymised ones).
  private var otherFiles: [String] = []

  /// The file a run came from, by number (see `FirstSeen.file`), and the run's number in it (0
  /// when the file holds one run; `source` is then the file itself, else `file#number`).
  struct FirstSeen {
    /// With `number` ≥ 0: ≥ 0, the input's number given to `check`; < 0,
    /// `otherFiles[-file - 1]`. With `number` -1: a file exported earlier, `knownFileName(file)`.
    var file: Int32
    var number: Int32
  }

  /// Where a run UUID exported earlier came from: a file named by the state, or its text.
  enum KnownFile {
    /// Resolved through `knownFileName` only when a warning names it: a state of a million
    /// inputs then keeps no million names in memory.
    case stored(Int)
    case text(String)
  }
  private var counts: [String: Int] = [:]

  /// `knownUUIDs` gives run UUIDs exported earlier (from the state file) with their source
  /// file, one pair at a time (a state of 100,000 inputs holds 450,000: they go straight to the
  /// index, not through a dictionary); `fileName` gives the display path of the input numbered
  /// as in `check`. With `spoolDirectory` (the staging folder) the UUIDs seen wait in an
  /// unlinked file there.
  init<Known: Sequence<(String, KnownFile)>>(
    now: Date, knownUUIDs: Known, knownFileName: @escaping (Int) -> String = { _ in "" },
    spoolDirectory: String? = nil, fileName: @escaping (Int) -> String
  ) {
    latestPlausible = Instant(
      secondsSince1970: now.timeIntervalSince1970 + DataWarnings.futureTolerance)
    seenUUIDs = RunUUIDIndex(directory: spoolDirectory)
    self.fileName = fileName
    self.knownFileName = knownFileName
    for (uuid, file) in knownUUIDs {
      switch file {
      case .stored(let position):
        remember(uuid, FirstSeen(file: Int32(clamping: position), number: -1))
      case .text(let text):
        // A file's UUIDs come together: its text is kept once.
        let number = otherFiles.last == text ? -Int32(otherFiles.count) : keepText(text)
        remember(uuid, FirstSeen(file: number, number: 0))
      }
    }
  }

  /// The warnings for one run, each naming its source; `inputNumber` is the number of the
  /// run's input file (for `fileName`).
  mutating func check(_ run: CheckedRun, inputNumber: Int) -> [LogEvent] {
    var events: [LogEvent] = []
    let file = run.source
    if let start = run.startDate, let end = run.endDate, end < start {
      events += event("end_before_start", file, "task run ends before it starts")
    }
    if run.hasDate(where: { $0 > latestPlausible }) {
      events += event("date_in_future", file, "task run dated in the future")
    }
    if run.hasDate(where: { $0 < DataWarnings.earliestPlausible }) {
      events += event("date_before_2014", file, "task run dated before 2014 (a reset clock?)")
    }
    if let uuid = run.runUUID, !uuid.isEmpty {
      let first = run.uuidBits.map { seenUUIDs.firstSeen($0) } ?? seenOtherIDs[uuid]
      if let first, source(first) != file {
        events += event(
          "duplicate_task_run", file,
          "task run \(uuid) was already exported from \(source(first)); both are kept")
      } else if first == nil {
        // `file` is the input or `input#N`: keep the input's number and N (else the text).
        let entry: FirstSeen
        if file == run.file || run.number > 0 {
          entry = FirstSeen(file: Int32(clamping: inputNumber), number: run.number)
        } else {
          let text = otherFiles.last == file ? -Int32(otherFiles.count) : keepText(file)
          entry = FirstSeen(file: text, number: 0)
        }
        if let bits = run.uuidBits {
          seenUUIDs.insert(bits, entry)
        } else {
          seenOtherIDs[uuid] = entry
        }
      }
    }
    return events
  }

  /// The source (`file` or `file#N`) of a run seen before.
  private func source(_ first: FirstSeen) -> String {
    if first.number < 0 { return knownFileName(Int(first.file)) }
    let other = Int(-first.file - 1)
    let file =
      first.file >= 0
      ? fileName(Int(first.file)) : otherFiles.indices.contains(other) ? otherFiles[other] : ""
    return first.number == 0 ? file : "\(file)#\(first.number)"
  }

  /// Keeps a source as text; its (negative) file number.
  private mutating func keepText(_ file: String) -> Int32 {
    otherFiles.append(file)
    return -Int32(clamping: otherFiles.count)
  }

  /// Notes where `uuid` was first seen, unless it was seen before.
  private mutating func remember(_ uuid: String, _ entry: FirstSeen) {
    if let bits = UUIDBits(uuid) {
      if seenUUIDs.firstSeen(bits) == nil { seenUUIDs.insert(bits, entry) }
    } else if seenOtherIDs[uuid] == nil {
      seenOtherIDs[uuid] = entry
    }
  }

  /// One line per kind that went over the limit: how many were not printed.
  func omitted() -> [LogEvent] {
    counts.sorted { $0.key < $1.key }.compactMap { kind, count in
      guard count > DataWarnings.limitPerKind else { return nil }
      let more = count - DataWarnings.limitPerKind
      return LogEvent(
        kind, level: .warning, message: "\(grouped(more)) more \(kind) warnings not shown",
        fields: [("omitted", .integer(more))])
    }
  }

  private mutating func event(_ kind: String, _ file: String, _ text: String) -> [LogEvent] {
    counts[kind, default: 0] += 1
    guard counts[kind, default: 0] <= DataWarnings.limitPerKind else { return [] }
    return [
      LogEvent(
        "warning", level: .warning, message: "\(file): \(text)",
        fields: [("kind", .text(kind)), ("path", .text(file))])
    ]
  }
}

/// What the checks and the state file read of a task run, taken on the parsing thread so the
/// run itself need not reach the writing thread.
struct CheckedRun: Sendable {
  var source: String
  var runUUID: String?
  var startDate: Instant?
  var endDate: Instant?
  /// The run's input file (a string shared by all its runs) and the run's number in it: 0
  /// when `source` is the file itself, else N of `file#N`.
  var file: String
  var number: Int32
  /// The run UUID's bits when it is an RFC 4122 UUID.
  var uuidBits: UUIDBits?

  init(_ run: borrowing TaskRun, file: String) {
    source = run.source
    runUUID = run.runUUID
    startDate = run.startDate
    endDate = run.endDate
    self.file = file
    number = CheckedRun.runNumber(source: run.source, file: file)
    uuidBits = run.runUUID.flatMap(UUIDBits.init)
  }

  /// N when `source` is `file#N`, else 0. Reads bytes when `file` is plain ASCII without CR
  /// (one Character per byte) and N is digits; otherwise counts Characters.
  static func runNumber(source: String, file: String) -> Int32 {
    if source == file { return 0 }
    var source = source
    var file = file
    let fromBytes: Int32? = source.withUTF8 { sourceBytes in
      file.withUTF8 { fileBytes -> Int32? in
        let prefix = fileBytes.count
        guard sourceBytes.count > prefix + 1, sourceBytes[prefix] == UInt8(ascii: "#") else {
          return nil
        }
        // One pass: `file` is ASCII without CR, and `source` starts with it.
        for index in 0..<prefix {
          let byte = fileBytes[index]
          guard byte < 0x80, byte != 0x0D, sourceBytes[index] == byte else { return nil }
        }
        var value: Int64 = 0
        for byte in sourceBytes[(prefix + 1)...] {
          guard byte >= 0x30 && byte <= 0x39 else { return nil }
          value = value * 10 + Int64(byte - 0x30)
          // Beyond Int32 the text is no Int32: no number.
          if value > Int64(Int32.max) { return 0 }
        }
        return Int32(value)
      }
    }
    return fromBytes ?? Int32(source.dropFirst(file.count + 1)) ?? 0
  }

  /// True when the start or end date is recorded and passes `test`.
  func hasDate(where test: (Instant) -> Bool) -> Bool {
    startDate.map(test) == true || endDate.map(test) == true
  }
}

/// The 128 bits of a UUID written as 32 hex digits with or without hyphens (any case).
struct UUIDBits: Hashable {
  var high: UInt64
  var low: UInt64

  init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  init?(_ text: String) {
    var text = text
    // Over the contiguous UTF-8 bytes: iterating `text.utf8` costs ~40 instructions a byte.
    guard let bits = text.withUTF8({ UUIDBits.parse($0) }) else { return nil }
    self = bits
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UUIDBits? {
    var high: UInt64 = 0
    var low: UInt64 = 0
    var digits = 0
    for byte in bytes {
      if byte == UInt8(ascii: "-") { continue }
      let value: UInt8
      switch byte {
      case 48...57: value = byte - 48
      case 65...70: value = byte - 55
      case 97...102: value = byte - 87
      default: return nil
      }
      if digits < 16 {
        high = high << 4 | UInt64(value)
      } else if digits < 32 {
        low = low << 4 | UInt64(value)
      } else {
        return nil
      }
      digits += 1
    }
    guard digits == 32 else { return nil }
    return UUIDBits(high: high, low: low)
  }
}
