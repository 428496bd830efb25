// Keyed archive bytes → task runs: the archive layer plus the ResearchKit decoders.
import RKModel

/// Reads an NSKeyedArchiver archive (binary or XML plist) of an `ORKTaskResult` or an array of
/// them, as written by `NSKeyedArchiver archivedDataWithRootObject:` (ResearchKit 1.0 → 3.x).
public enum KeyedArchiveImporter {
  /// The task runs in `bytes`, in archive order.
  ///
  /// Throws an `ImportError` without a file name (the caller adds it) naming the object and
  /// key at fault, e.g. `object 17 (ORKChoiceQuestionResult) choiceAnswers: expected an
  /// array, found a string`. `participantID` and `source` are left empty. Only `ImportError`
  /// is thrown.
  public static func importRuns(from bytes: [UInt8]) throws -> [TaskRun] {
    let archive = try KeyedArchive(bytes: bytes)
    // `ArchivedObject`s hold the archive without reference counting: keep it alive here.
    return try withExtendedLifetime(archive) { () throws(ImportError) -> [TaskRun] in
      var decoder = ResearchKitDecoder<ArchivedObject>()
      let tasks = try rootTasks(archive)
      var runs = [TaskRun]()
      runs.reserveCapacity(tasks.count)
      for task in tasks {
        runs.append(try decoder.taskRun(from: task))
      }
      decoder.finish(&runs)
      return runs
    }
  }

  /// The root task result, or each element of a root array of task results.
  static func rootTasks(_ archive: KeyedArchive) throws(ImportError) -> [ArchivedObject] {
    let root = try archive.root()
    if case .object(let object) = root, object.isKind(of: .taskResult) { return [object] }
    guard let elements = try archive.elements(root, depth: 1) else {
      throw ImportError(
        location: "root",
        reason: "expected an ORKTaskResult or an array of them, found \(archive.describe(root))")
    }
    var tasks = [ArchivedObject]()
    tasks.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      guard case .object(let object) = element, object.isKind(of: .taskResult) else {
        throw ImportError(
          location: "root[\(index)]",
          reason: "expected an ORKTaskResult, found \(archive.describe(element))")
      }
      tasks.append(object)
    }
    return tasks
  }
}
