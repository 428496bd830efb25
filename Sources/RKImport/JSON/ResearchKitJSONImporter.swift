// ORKESerializer JSON → task runs: the JSON syntax plus the shared ResearchKit decoders.
import RKModel

/// What an ORKESerializer document holds.
public enum ResearchKitJSONContent: Sendable, Equatable {
  /// Task runs in document order, and notes on objects that were read but not exported.
  case runs([TaskRun], notes: [String])
  /// Nothing to export (only value objects such as `ORKLocation`), with the reason.
  case noResults(reason: String)
}

/// Reads ResearchKit's own JSON format (`ORKESerializer`, formats.md §4): one object per
/// file, or an array of them, each with `"_class"`.
///
/// What each top-level object becomes:
/// - `ORKTaskResult` (and `ORKPageResult`, a bare `ORKCollectionResult`): one task run.
/// - `ORKStepResult`: one task run with an empty task identifier, no run UUID or times, and
///   that one step.
/// - any other `ORKResult` (a lone question, file or active-task result): one task run with an
///   empty task identifier holding one step named and timed like the result (as a result
///   directly under a task is treated), so its answer is exported.
///   Wrapped runs carry the object's class in their metadata (`class`).
/// - a value object that is not a result (`ORKLocation`, `ORKDevice`, `ORKConsentSignature`,
///   `ORKDontKnowAnswer`, task samples…): nothing to export. Alone it makes the file skipped
///   with a reason; in an array with results it is named in a note.
///
/// Errors are `ImportError`s located by JSON path, e.g. `$.results[2].results[0]
/// (ORKChoiceQuestionResult) choiceAnswers: expected an array, found a string`.
public enum ResearchKitJSONImporter {
  /// Objects and arrays nested deeper than this are refused (real documents stay under 15).
  public static let maximumNesting = 128

  /// The task runs in `document`, in document order; empty when it holds only value objects.
  /// Only `ImportError` is thrown; `participantID` and `source` are left empty.
  public static func importRuns(from document: JSONDocument) throws -> [TaskRun] {
    switch try read(document) {
    case .runs(let runs, _): runs
    case .noResults: []
    }
  }

  /// The task runs in `document`, or why there are none. Only `ImportError` is thrown.
  public static func read(_ document: JSONDocument) throws -> ResearchKitJSONContent {
    // The decoders recurse: documents nested deeper than this never reach them.
    guard document.nesting <= maximumNesting else {
      throw ImportError(
        reason: "objects and arrays nested more than \(maximumNesting) levels deep")
    }
    let value = document.root
    let roots: [(value: JSONItem, trail: JSONPathTrail)]
    if let elements = value.arrayValue {
      roots = elements.enumerated().map { ($1, JSONPathTrail.root(index: $0)) }
    } else {
      roots = [(value, JSONPathTrail.root())]
    }
    var decoder = ResearchKitDecoder<ResearchKitJSONObject>()
    var runs = [TaskRun]()
    var valueObjects = [ResearchKitJSONObject]()
    for root in roots {
      guard let object = ResearchKitJSONObject(root.value, trail: root.trail),
        !object.className.isEmpty
      else {
        let found =
          !root.value.isObject
          ? root.value.kindDescription : "an object without \"_class\""
        throw ImportError(
          location: root.trail.text, reason: "expected a ResearchKit object, found \(found)")
      }
      switch ResearchKitJSONClasses.role(of: object.classChain) {
      case .task:
        runs.append(try decoder.taskRun(from: object))
      case .step:
        runs.append(wrapped(object, steps: [try decoder.stepRecord(from: object)]))
      case .result:
        let record = try decoder.resultRecord(from: object)
        let step = StepRecord(
          identifier: record.identifier, startDate: record.startDate, endDate: record.endDate,
          results: [record])
        runs.append(wrapped(object, steps: [step]))
      case .valueObject:
        valueObjects.append(object)
      }
    }
    guard !runs.isEmpty else { return .noResults(reason: noResultsReason(valueObjects)) }
    let notes = valueObjects.map { "\($0.location): not a ResearchKit result, not exported" }
    decoder.finish(&runs)
    return .runs(runs, notes: notes)
  }

  /// A run around a step or result found at the top level: no task identifier, UUID or
  /// times are invented.
  private static func wrapped(_ object: ResearchKitJSONObject, steps: [StepRecord]) -> TaskRun {
    TaskRun(
      taskIdentifier: "", metadata: [Field("class", .string(object.className))], steps: steps)
  }

  private static func noResultsReason(_ objects: [ResearchKitJSONObject]) -> String {
    var names = [String]()
    for object in objects where !names.contains(object.className) {
      names.append(object.className)
    }
    if names.isEmpty { return "an empty array: no ResearchKit results" }
    if objects.count == 1 {
      return "\(names[0]) is a ResearchKit value object, not a result: nothing to export"
    }
    let list = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
    return "only ResearchKit value objects (\(list)), no results: nothing to export"
  }
}
