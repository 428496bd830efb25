// Who took part, which runs they did, in which layout, and which file each run lands in.
import Foundation

/// One archive file of the study and the task runs it holds (two when its root is an NSArray).
struct PlannedFile {
  /// Path below the input root (`P001/pain-20160520-1412.archive`).
  var path: String
  var format: PropertyListSerialization.PropertyListFormat
  var runs: [RunSpec]
  var device: ORKDevice
}

enum StudyPlan {
  static let seed: UInt64 = 20_160_516

  /// 2016-05-16T00:00:00Z and 2024-03-04T00:00:00Z in microseconds since 2001.
  private static let legacyEpoch = Micros(value: 485_049_600 * 1_000_000)
  private static let currentEpoch = Micros(value: 731_203_200 * 1_000_000)

  private static let zones = [
    "America/Los_Angeles", "America/New_York", "Europe/Berlin", "Europe/London", "Asia/Tokyo",
    "Australia/Sydney", "America/Chicago", "America/Sao_Paulo", "Asia/Kolkata", "Pacific/Auckland",
  ]
  /// Edge cases each participant's runs must show (see samples/README.md).
  private static let flags: [Set<String>] = [
    [], ["dobSkipped"], ["emptySelection"], ["fever"], [], ["uncompactedDecimal", "fever"], [],
    ["dobDontKnow"], ["temperatureDontKnow", "fever"], [],
  ]
  /// Run order per participant; legacy-then-current participants switch after the fourth run.
  private static let runOrder = [
    "eligibility", "profile", "pain", "symptom", "fever", "pain", "symptom", "fever",
  ]

  static func files() -> [PlannedFile] {
    var rng = SeededRandom(seed: seed)
    var files: [PlannedFile] = []
    for index in 0..<10 {
      let id = String(format: "P%03d", index + 1)
      let profile = ParticipantProfile(
        id: id, zoneName: zones[index], flags: flags[index], age: rng.int(18...90),
        takesSupplements: index == 2 || (index != 0 && rng.chance(0.5)))
      let device = ORKDevice()
      device.product = rng.pick(["iPhone15,2", "iPhone14,5", "iPhone16,1"])
      var runs: [RunSpec] = []
      for (runIndex, taskID) in runOrder.enumerated() {
        // P001–P004 ResearchKit 1.4, P005–P007 both (app updated), P008–P010 ResearchKit 3.
        let layout: ArchiveLayout =
          index < 4 || (index < 7 && runIndex < 4) ? .legacy : .current
        let epoch = layout == .legacy ? legacyEpoch : currentEpoch
        let day = index + 2 * runIndex + rng.int(0...1)
        let start = epoch.adding(
          seconds: day * 86_400 + rng.int(6 * 3600...22 * 3600), micros: rng.subSecondMicros())
        var tasks = StudyTasks(
          clock: RunClock(now: start, rng: rng), participant: profile, layout: layout)
        let steps = tasks.steps(for: taskID)
        rng = tasks.clock.rng
        let end = tasks.clock.now.adding(seconds: 0, micros: Int64(rng.int(50_000...900_000)))
        let taskStart = start.adding(seconds: 0, micros: -Int64(rng.int(100_000...900_000)))
        runs.append(
          RunSpec(
            participantID: id, taskID: taskID, runUUID: rng.uuid(), layout: layout,
            start: taskStart, end: end, steps: steps))
      }
      files += group(runs, participantIndex: index, device: device)
    }
    return files
  }

  /// One file per run, except: one XML archive for P002 and P009, and one NSArray archive of
  /// two runs for P004 (legacy) and P010 (current).
  private static func group(_ runs: [RunSpec], participantIndex: Int, device: ORKDevice)
    -> [PlannedFile]
  {
    var files: [PlannedFile] = []
    var index = 0
    while index < runs.count {
      let run = runs[index]
      let folder = run.participantID + "/"
      let pairsHere = (participantIndex == 3 && index == 4) || (participantIndex == 9 && index == 6)
      if pairsHere, index + 1 < runs.count {
        let name = "daily-" + stamp(run.start) + ".archive"
        files.append(
          PlannedFile(
            path: folder + name, format: .binary, runs: [run, runs[index + 1]], device: device))
        index += 2
        continue
      }
      let xml = (participantIndex == 1 && index == 0) || (participantIndex == 8 && index == 1)
      let name = run.taskID + "-" + stamp(run.start) + (xml ? ".plist" : ".archive")
      files.append(
        PlannedFile(
          path: folder + name, format: xml ? .xml : .binary, runs: [run], device: device))
      index += 1
    }
    return files
  }

  /// `yyyyMMdd-HHmm` in UTC, for file names.
  private static func stamp(_ instant: Micros) -> String {
    let text = ISOText.utc(instant)
    let digits = text.filter { $0.isNumber }
    let date = digits.prefix(8)
    let time = digits.dropFirst(8).prefix(4)
    return date + "-" + time
  }
}
