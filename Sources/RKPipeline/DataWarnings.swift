// Suspicious but readable data: each run is checked and a warning names the file and the reason.
import Foundation
import RKModel
import RKTable

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
/// At most `limitPerKind` warnings of each kind are reported; the rest are counted. The date
/// warnings come from `check`, run by run; the duplicates from `duplicates()`, once every run
/// was checked, in the order the runs came (one merge of the UUIDs seen, see `RunUUIDSpool`).
struct DataWarnings {
  static let earliestPlausible = Instant(secondsSince1970: 1_388_534_400)  // 2014-01-01Z
  static let futureTolerance = 600.0
  static let limitPerKind = 50

  let latestPlausible: Instant
  /// Every run UUID seen, by its 128 bits, with where it was seen, mostly on disk (see
  /// `RunUUIDSpool`); file names come back through `fileName`. This is the only per-run state.
  private let seenUUIDs: RunUUIDSpool
  /// Runs with a UUID so far, the state's first: the order duplicates are reported in.
  private var arrivals: Int64 = 0
  /// How many of the arrivals are the state's (runs exported earlier, never reported).
  private var knownArrivals: Int64 = 0
  /// UUIDs written in no form `UUIDTextForm` can restore (mixed case, hyphens elsewhere: rare),
  /// by arrival: a warning names a UUID as its input wrote it.
  private(set) var otherFormTexts: [Int64: String] = [:]
  /// UUID texts that are not RFC 4122 UUIDs (rare), by their text, and their repeats found.
  private var seenOtherIDs: [String: FirstSeen] = [:]
  private var otherRepeats: [Repeat] = []
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

  /// A run whose UUID was exported before from another source, found by `check` (texts that
  /// are no UUIDs) or by `duplicates()`.
  private struct Repeat {
    var order: Int64
    /// The UUID as text, or its bits (written out only when the warning is shown).
    var uuid: String?
    var bits: UUIDBits?
    var form = UUIDTextForm.canonical
    var source: String
    var firstSource: String
  }

  static let duplicateKind = "duplicate_task_run"
  static let incompleteKind = "duplicate_check_incomplete"

  /// Every warning found so far, shown or not.
  var found: Int { counts.values.reduce(0, +) }

  /// `knownUUIDs` gives run UUIDs exported earlier (from the state file) with their source
  /// file, one pair at a time (a state of 100,000 inputs holds 450,000: they go straight to the
  /// spool, not through a dictionary); `fileName` gives the display path of the input numbered
  /// as in `check`. With `spoolDirectory` (the staging folder) the UUIDs seen wait in an
  /// unlinked file there.
  init<Known: Sequence<(String, KnownFile)>>(
    now: Date, knownUUIDs: Known, knownFileName: @escaping (Int) -> String = { _ in "" },
    spoolDirectory: String? = nil, fileName: @escaping (Int) -> String
  ) {
    latestPlausible = Instant(
      secondsSince1970: now.timeIntervalSince1970 + DataWarnings.futureTolerance)
    seenUUIDs = RunUUIDSpool(directory: spoolDirectory)
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
    knownArrivals = arrivals
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
    guard let uuid = run.runUUID, !uuid.isEmpty else { return events }
    let order = arrivals
    arrivals += 1
    if let bits = run.uuidBits {
      seenUUIDs.append(
        bits, order: order, form: run.uuidForm, entry(for: run, inputNumber: inputNumber))
      if run.uuidForm == .other { otherFormTexts[order] = uuid }
    } else if let first = seenOtherIDs[uuid] {
      let firstSource = source(first)
      if firstSource != file {
        otherRepeats.append(
          Repeat(order: order, uuid: uuid, source: file, firstSource: firstSource))
      }
    } else {
      seenOtherIDs[uuid] = entry(for: run, inputNumber: inputNumber)
    }
    return events
  }

  /// Where `run` was seen: `run.source` is the input or `input#N`, kept as the input's number
  /// and N, else as text.
  private mutating func entry(for run: CheckedRun, inputNumber: Int) -> FirstSeen {
    let file = run.source
    if file == run.file || run.number > 0 {
      return FirstSeen(file: Int32(clamping: inputNumber), number: run.number)
    }
    let text = otherFiles.last == file ? -Int32(otherFiles.count) : keepText(file)
    return FirstSeen(file: text, number: 0)
  }

  /// The duplicate-run warnings, in the order their runs were checked: each run whose UUID was
  /// exported before (in this run or an earlier one) from another source, naming the first.
  /// Call once, after the last `check`.
  mutating func duplicates() -> [LogEvent] {
    // The first `limitPerKind` by arrival are shown: the merge finds them in UUID order, and
    // the earliest so far are kept sorted by arrival.
    var shown: [Repeat] = []
    var total = 0
    func note(_ found: Repeat) {
      total += 1
      if shown.count == DataWarnings.limitPerKind {
        guard let latest = shown.last, found.order < latest.order else { return }
        shown.removeLast()
      }
      let place = shown.firstIndex { $0.order > found.order } ?? shown.endIndex
      shown.insert(found, at: place)
    }
    for found in otherRepeats { note(found) }
    otherRepeats = []
    let knownArrivals = knownArrivals
    // The first source of the UUID being merged, looked up once for all its repeats.
    var firstSource = (order: Int64(-1), path: "")
    let complete = seenUUIDs.forEachRepeat { first, later in
      // Runs exported earlier are only ever first; the state's own repeats are no news.
      guard later.order >= knownArrivals else { return }
      // The same input and run number is the same source; anything else compares paths (two
      // inputs can show the same path, from two roots).
      if first.file == later.file && first.number == later.number { return }
      if firstSource.order != first.order { firstSource = (first.order, source(first.seen)) }
      let laterSource = source(later.seen)
      guard firstSource.path != laterSource else { return }
      note(
        Repeat(
          order: later.order, bits: UUIDBits(high: later.high, low: later.low),
          form: later.form, source: laterSource, firstSource: firstSource.path))
    }
    counts[DataWarnings.duplicateKind, default: 0] += total
    var events = shown.map { found in
      let uuid =
        found.uuid ?? found.bits.flatMap { $0.text(in: found.form) }
        ?? otherFormTexts[found.order] ?? ""
      return LogEvent(
        "warning", level: .warning,
        message: "\(found.source): task run \(uuid) was already exported from "
          + "\(found.firstSource); both are kept",
        fields: [("kind", .text(DataWarnings.duplicateKind)), ("path", .text(found.source))])
    }
    if !complete {
      // The exported data is whole; only this check's answer is not. Said, and counted, so a
      // night without duplicate warnings is not taken for a night without duplicates.
      counts[DataWarnings.incompleteKind, default: 0] += 1
      events.append(
        LogEvent(
          "warning", level: .warning,
          message: "the duplicate task run check could not read back the run UUIDs it kept in "
            + "its scratch file; duplicates may be missing from the warnings (the exported "
            + "data is complete)",
          fields: [("kind", .text(DataWarnings.incompleteKind))]))
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

  /// Notes where `uuid` was seen by an earlier export (the first place counts).
  private mutating func remember(_ uuid: String, _ entry: FirstSeen) {
    if let bits = UUIDBits(uuid) {
      seenUUIDs.append(bits, order: arrivals, entry)
      arrivals += 1
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
  /// How the UUID is written.
  var uuidForm = UUIDTextForm.canonical
}

extension CheckedRun {
  /// Built through the memberwise initializer (see `TaskRun.init`): set field by field, the
  /// finished value was copied once and the original destroyed.
  init(_ run: borrowing TaskRun, file: String) {
    let parsed = run.runUUID.flatMap(UUIDBits.parse)
    self.init(
      source: run.source, runUUID: run.runUUID, startDate: run.startDate, endDate: run.endDate,
      file: file, number: CheckedRun.runNumber(source: run.source, file: file),
      uuidBits: parsed?.bits, uuidForm: parsed?.form ?? .canonical)
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
        // `file` is ASCII without CR, and `source` starts with it (a word at a time and
        // memcmp: a byte loop cost ~11 instructions a byte, ~300 a run).
        guard let sourceBase = sourceBytes.baseAddress, let fileBase = fileBytes.baseAddress,
          ByteWord.isASCIIWithoutCarriageReturn(fileBytes),
          memcmp(sourceBase, fileBase, prefix) == 0
        else { return nil }
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
    guard let parsed = UUIDBits.parse(text) else { return nil }
    self = parsed.bits
  }

  /// `parse(_:)` of the text's UTF-8.
  static func parse(_ text: String) -> (bits: UUIDBits, form: UUIDTextForm)? {
    var text = text
    // Over the contiguous UTF-8 bytes: iterating `text.utf8` costs ~40 instructions a byte.
    return text.withUTF8 { UUIDBits.parse($0) }
  }

  /// The bits of 32 hex digits, hyphens anywhere skipped, and how the text is written.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (bits: UUIDBits, form: UUIDTextForm)? {
    guard bytes.count >= 32, let base = bytes.baseAddress else { return nil }
    return byteClasses.withUnsafeBufferPointer { classes in
      var high: UInt64 = 0
      var low: UInt64 = 0
      var seen: UInt8 = 0
      let hyphen = UInt8(ascii: "-")
      if bytes.count == 36 && base[8] == hyphen && base[13] == hyphen && base[18] == hyphen
        && base[23] == hyphen
      {
        // The usual 8-4-4-4-12 text: its digits where they must be, no test per byte.
        func read(_ range: Range<Int>, into value: inout UInt64) {
          for index in range {
            let byteClass = classes[Int(base[index])]
            seen |= byteClass
            value = value << 4 | UInt64(byteClass & Self.digitMask)
          }
        }
        read(0..<8, into: &high)
        read(9..<13, into: &high)
        read(14..<18, into: &high)
        read(19..<23, into: &low)
        read(24..<36, into: &low)
        guard seen & (Self.invalidFlag | Self.hyphenFlag) == 0 else { return nil }
        return (UUIDBits(high: high, low: low), Self.form(seen, hyphenated: true))
      }
      var digits = 0
      // 32 bytes without hyphens, or hyphens elsewhere (`.other`).
      for index in 0..<bytes.count {
        let byteClass = classes[Int(base[index])]
        seen |= byteClass
        if byteClass & Self.hyphenFlag != 0 { continue }
        if digits < 16 {
          high = high << 4 | UInt64(byteClass & Self.digitMask)
        } else {
          low = low << 4 | UInt64(byteClass & Self.digitMask)
        }
        digits += 1
      }
      guard seen & Self.invalidFlag == 0, digits == 32 else { return nil }
      // Hyphens here are not at 8, 13, 18 and 23 (that text took the path above).
      let form = seen & Self.hyphenFlag != 0 ? .other : Self.form(seen, hyphenated: false)
      return (UUIDBits(high: high, low: low), form)
    }
  }

  /// The form of 32 digits whose byte classes `seen` gathered, hyphenated 8-4-4-4-12 or not at
  /// all: mixed case is `.other`; digits alone count as upper case.
  private static func form(_ seen: UInt8, hyphenated: Bool) -> UUIDTextForm {
    switch (seen & upperFlag != 0, seen & lowerFlag != 0) {
    case (true, true): .other
    case (_, false): hyphenated ? .canonical : .upperPlain
    case (false, true): hyphenated ? .lowerHyphenated : .lowerPlain
    }
  }

  /// Per byte value: a hex digit's value in the low four bits, with `upperFlag` or `lowerFlag`
  /// for a letter; `hyphenFlag` for `-`; `invalidFlag` for anything else. (A table: the range
  /// tests per byte cost ~22 instructions a byte, 800 a run.)
  private static let digitMask: UInt8 = 0x0F
  private static let upperFlag: UInt8 = 0x10
  private static let lowerFlag: UInt8 = 0x20
  private static let hyphenFlag: UInt8 = 0x40
  private static let invalidFlag: UInt8 = 0x80
  private static let byteClasses: [UInt8] = (0..<256).map { byte -> UInt8 in
    switch byte {
    case 48...57: UInt8(byte - 48)
    case 65...70: UInt8(byte - 55) | upperFlag
    case 97...102: UInt8(byte - 87) | lowerFlag
    case 45: hyphenFlag
    default: invalidFlag
    }
  }

  /// The UUID written in `form`, or nil for `.other` (whose text only the input has).
  func text(in form: UUIDTextForm) -> String? {
    switch form {
    case .canonical: canonicalText
    case .lowerHyphenated: canonicalText.lowercased()
    case .upperPlain: canonicalText.filter { $0 != "-" }
    case .lowerPlain: canonicalText.lowercased().filter { $0 != "-" }
    case .other: nil
    }
  }

  /// The UUID as Foundation writes it (`UUID.uuidString`): upper-case hex digits, hyphenated
  /// 8-4-4-4-12. Its 16 bytes are the two words, most significant byte first.
  var canonicalText: String {
    withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { bytes in
      UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }.uuidString
  }
}

/// How a UUID's 32 hex digits are written: the forms a warning can write back from the bits
/// alone (so no text is kept per run), and `.other`.
enum UUIDTextForm: UInt8 {
  /// Upper case, hyphenated 8-4-4-4-12, as Foundation's `UUID.uuidString` (digits alone count
  /// as upper case).
  case canonical = 0
  case lowerHyphenated = 1
  /// 32 digits without hyphens.
  case upperPlain = 2
  case lowerPlain = 3
  /// Mixed case, or hyphens elsewhere.
  case other = 4
}
