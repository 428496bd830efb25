// Writes samples/study/P001…P010 and the ground truth next to rkexport's tests.
import Foundation

enum SampleWriter {
  static let inputRoot = "study"

  static func write(samplesDirectory: String, truthPath: String) throws {
    let files = StudyPlan.files()
    try checkCoverage(files)
    let root = URL(fileURLWithPath: samplesDirectory).appendingPathComponent(inputRoot)
    try? FileManager.default.removeItem(at: root)
    var total = 0
    for file in files {
      let data = try archive(file)
      let url = root.appendingPathComponent(file.path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url)
      total += data.count
    }
    let truth = Truth.document(files, inputRoot: inputRoot)
    let json = try JSONSerialization.data(
      withJSONObject: truth, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    try (json + Data("\n".utf8)).write(to: URL(fileURLWithPath: truthPath))
    let runs = files.reduce(0) { $0 + $1.runs.count }
    print("samplegen: \(files.count) archives, \(runs) task runs, \(total) bytes in \(root.path)")
  }

  /// The archive bytes of one planned file: an ORKTaskResult root, or an NSArray of them.
  static func archive(_ file: PlannedFile) throws -> Data {
    let encoder = RunEncoder()
    let results = file.runs.map { encoder.taskResult($0, device: file.device) }
    let root: NSObject = results.count == 1 ? results[0] : NSArray(array: results)
    return try KeyedArchive.data(root: root, format: file.format)
  }

  /// Fails unless the study shows every case the read-back test relies on.
  private static func checkCoverage(_ files: [PlannedFile]) throws {
    var seen = Set<String>()
    for file in files {
      if file.format == .xml { seen.insert("xml") }
      if file.runs.count > 1 { seen.insert("array-root") }
      for run in file.runs {
        seen.insert(run.layout.rawValue)
        let ids = Set(run.steps.map(\.stepID))
        if run.taskID == "fever", !ids.contains("temperature") { seen.insert("fever-no") }
        if run.taskID == "symptom" {
          seen.insert(ids.contains("headache_severity") ? "headache" : "other")
        }
        for question in run.steps.flatMap(\.questions) {
          switch question.answer {
          case .skipped: seen.insert("skipped")
          case .dontKnow: seen.insert("dont_know")
          case .choices(let values) where values.count > 1: seen.insert("multi")
          case .choices([]): seen.insert("empty-selection")
          default: break
          }
        }
      }
    }
    let needed: Set = [
      "xml", "array-root", "rk1.4", "rk3", "fever-no", "headache", "other", "skipped",
      "dont_know", "multi", "empty-selection",
    ]
    let missing = needed.subtracting(seen)
    guard missing.isEmpty else {
      throw ArchiveError.unexpectedShape("study lacks: \(missing.sorted().joined(separator: ", "))")
    }
  }
}
