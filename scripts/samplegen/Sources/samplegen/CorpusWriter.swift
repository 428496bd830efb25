// A benchmark corpus: N realistic archives spread over participant folders, fast.
//
// How: 240 distinct templates are made with NSKeyedArchiver exactly like the sample study (all
// five tasks, both layouts). Each template is an NSArray root holding 3–6 runs of one
// participant's day, which puts files at 5–20 KB. Copy i of template t then gets fresh run UUIDs
// (the 16 `NS.uuidbytes` patched in place) and all its dates moved by a whole number of days
// (each `NS.time` real patched in place), so every file is a distinct, valid archive without
// re-running the archiver 100,000 times.
import Foundation

/// One template archive and where its UUIDs and dates sit in the bytes.
struct CorpusTemplate: Sendable {
  var bytes: [UInt8]
  /// Offsets of each run UUID's 16 bytes.
  var uuidOffsets: [Int]
  /// Offsets of the 8 big-endian bytes of each NSDate's `NS.time` (after the 0x23 marker).
  var timeOffsets: [Int]
}

enum CorpusWriter {
  static let templateCount = 240
  static let filesPerParticipant = 40

  static func write(directory: String, count: Int) throws {
    let started = Date()
    let templates = try makeTemplates()
    let root = URL(fileURLWithPath: directory)
    let participants = (count + filesPerParticipant - 1) / filesPerParticipant
    for participant in 0..<participants {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder(participant)), withIntermediateDirectories: true)
    }
    let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    let failures = FailureCount()
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in stride(from: worker, to: count, by: workers) {
        let bytes = variant(templates[index % templates.count], copy: index)
        let path = root.appendingPathComponent(folder(index / filesPerParticipant))
          .appendingPathComponent(String(format: "batch-%06d.archive", index)).path
        if !FileManager.default.createFile(atPath: path, contents: Data(bytes)) {
          failures.increment()
        }
      }
    }
    guard failures.value == 0 else {
      throw ArchiveError.unexpectedShape("\(failures.value) corpus files could not be written")
    }
    let sizes = templates.map(\.bytes.count)
    let seconds = Date().timeIntervalSince(started)
    print(
      "samplegen: \(count) archives (\(sizes.min() ?? 0)–\(sizes.max() ?? 0) bytes, "
        + "\(templates.count) templates) in \(participants) folders, "
        + String(format: "%.1f s", seconds))
  }

  private static func folder(_ participant: Int) -> String {
    String(format: "P%05d", participant + 1)
  }

  /// Copy `copy` of a template: new UUIDs, dates moved by whole days.
  private static func variant(_ template: CorpusTemplate, copy: Int) -> [UInt8] {
    var bytes = template.bytes
    var rng = SeededRandom(seed: StudyPlan.seed &+ UInt64(copy) &* 0x9E37_79B9)
    for offset in template.uuidOffsets {
      let uuid = rng.uuid().uuid
      withUnsafeBytes(of: uuid) { raw in
        for index in 0..<16 { bytes[offset + index] = raw[index] }
      }
    }
    let shift = Double((copy / templateCount) % 3000) * 86_400
    for offset in template.timeOffsets {
      let bits = readBigEndian(bytes, at: offset, width: 8)
      let moved = (Double(bitPattern: bits) + shift).bitPattern
      for index in 0..<8 {
        bytes[offset + index] = UInt8(truncatingIfNeeded: moved >> (56 - 8 * UInt64(index)))
      }
    }
    return bytes
  }

  private static func makeTemplates() throws -> [CorpusTemplate] {
    var rng = SeededRandom(seed: StudyPlan.seed ^ 0xC0_FFEE)
    let zones = ["America/Los_Angeles", "Europe/Berlin", "Asia/Tokyo", "America/New_York"]
    var templates: [CorpusTemplate] = []
    for index in 0..<templateCount {
      let layout: ArchiveLayout = index % 2 == 0 ? .legacy : .current
      let flags: Set<String> = rng.chance(0.3) ? ["dobDontKnow", "temperatureDontKnow"] : []
      let profile = ParticipantProfile(
        id: "T\(index)", zoneName: rng.pick(zones), flags: flags, age: rng.int(18...90),
        takesSupplements: rng.chance(0.5))
      var clock = RunClock(
        now: Micros(value: Int64(rng.int(485_000_000...740_000_000)) * 1_000_000), rng: rng)
      var runs: [RunSpec] = []
      for runIndex in 0..<clock.rng.int(3...6) {
        let taskID = StudyTasks.taskIDs[(index + runIndex) % StudyTasks.taskIDs.count]
        var tasks = StudyTasks(clock: clock, participant: profile, layout: layout)
        let start = clock.now
        let steps = tasks.steps(for: taskID)
        clock = tasks.clock
        runs.append(
          RunSpec(
            participantID: profile.id, taskID: taskID, runUUID: clock.rng.uuid(), layout: layout,
            start: start, end: clock.now.adding(seconds: 1), steps: steps))
        clock.now = clock.now.adding(seconds: clock.rng.int(600...7200))
      }
      rng = clock.rng
      let file = PlannedFile(path: "", format: .binary, runs: runs, device: ORKDevice())
      let bytes = [UInt8](try SampleWriter.archive(file))
      templates.append(locate(in: bytes, runs: runs))
    }
    return templates
  }

  /// Finds the UUID bytes and `NS.time` reals of `runs` inside their archive.
  private static func locate(in bytes: [UInt8], runs: [RunSpec]) -> CorpusTemplate {
    var instants = Set<Micros>()
    for run in runs {
      instants.formUnion([run.start, run.end])
      for step in run.steps {
        instants.formUnion([step.start, step.end])
        for question in step.questions {
          instants.formUnion([question.start, question.end])
          if case .date(let answer, _) = question.answer { instants.insert(answer) }
        }
      }
    }
    var timePatterns = Set<[UInt8]>()
    for instant in instants {
      var pattern: [UInt8] = [0x23]
      appendBigEndian(instant.referenceSeconds.bitPattern, width: 8, to: &pattern)
      timePatterns.insert(pattern)
    }
    let uuidPatterns = Set(
      runs.map { run in withUnsafeBytes(of: run.runUUID.uuid) { [UInt8]($0) } })
    let uuidFirstBytes = Set(uuidPatterns.compactMap(\.first))
    var uuidOffsets: [Int] = []
    var timeOffsets: [Int] = []
    for offset in 0..<bytes.count {
      if bytes[offset] == 0x23, offset + 9 <= bytes.count,
        timePatterns.contains(Array(bytes[offset..<(offset + 9)]))
      {
        timeOffsets.append(offset + 1)
      }
      if uuidFirstBytes.contains(bytes[offset]), offset + 16 <= bytes.count,
        uuidPatterns.contains(Array(bytes[offset..<(offset + 16)]))
      {
        uuidOffsets.append(offset)
      }
    }
    return CorpusTemplate(bytes: bytes, uuidOffsets: uuidOffsets, timeOffsets: timeOffsets)
  }
}

/// A thread-safe counter for write failures in the parallel loop.
final class FailureCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func increment() {
    lock.lock()
    count += 1
    lock.unlock()
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}
