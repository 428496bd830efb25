// ResearchKit's result hierarchy → RKModel: task, step and result records (formats.md §3).
import RKModel

/// Decodes `ORKTaskResult` trees from any syntax that implements `ResultObject`.
///
/// Usage: call `taskRun(from:)` for each root task result, then `finish(_:)` once with all
/// runs of the same input, which settles date-only answers from the archive-wide
/// `questionType` numbering.
struct ResearchKitDecoder<Object: ResultObject> {
  private var evidence = QuestionTypeEvidence()

  init() {}

  /// One `ORKTaskResult` (or subclass) → `TaskRun`; step results become steps, and a nested
  /// task result (`ORKPageResult`) contributes its steps in place.
  mutating func taskRun(from task: Object) throws(ImportError) -> TaskRun {
    // Read into locals and built once at the return: a `var` run filled in and returned is
    // copied and the original destroyed, per run.
    let identifier = try task.string(.identifier) ?? ""
    let runUUID = try task.uuidString(.taskRunUUID)
    let startDate = try task.instant(.startDate)
    let endDate = try task.instant(.endDate)
    var device: DeviceInfo?
    if let object = try task.object(.device) {
      evidence.noteNewLayout()
      device = DeviceInfo(
        product: try object.string(.product), platform: try object.string(.platform),
        osVersion: try object.string(.osVersion), osBuild: try object.string(.osBuild))
    }
    var metadata: [Field] = []
    if task.className != "ORKTaskResult" {
      metadata.append(Field("class", .string(task.className)))
    }
    if let directory = try task.filePath(.outputDirectory) {
      metadata.append(Field("outputDirectory", .string(directory)))
    }
    if case .dictionary(let entries)? = try task.keyedValue(.userInfo) {
      for entry in entries { metadata.append(Field("userInfo." + entry.name, entry.value)) }
    }
    metadata.appendFields(try task.otherFields(skipping: KeysRead.task))
    return TaskRun(
      taskIdentifier: identifier, runUUID: runUUID, startDate: startDate, endDate: endDate,
      device: device, metadata: metadata, steps: try steps(in: task))
  }

  private mutating func steps(in collection: Object) throws(ImportError) -> [StepRecord] {
    var steps = [StepRecord]()
    try collection.forEachObject(.results) { count in
      steps.reserveCapacity(count)
    } body: { child throws(ImportError) in
      if child.isKind(of: .stepResult) {
        steps.append(try stepRecord(from: child))
      } else if child.isKind(of: .taskResult) {
        steps += try self.steps(in: child)
      } else {
        // A result directly under the task: a step of its own, so nothing is lost.
        let record = try resultRecord(from: child)
        steps.append(
          StepRecord(
            identifier: record.identifier, startDate: record.startDate, endDate: record.endDate,
            results: [record]))
      }
    }
    return steps
  }

  /// One `ORKStepResult` → `StepRecord`.
  mutating func stepRecord(from step: Object) throws(ImportError) -> StepRecord {
    var record = StepRecord(
      identifier: try step.string(.identifier) ?? "",
      startDate: try step.instant(.startDate), endDate: try step.instant(.endDate))
    try step.forEachObject(.results) { count in
      record.results.reserveCapacity(count)
    } body: { child throws(ImportError) in
      record.results.append(try resultRecord(from: child))
    }
    if let technology = try step.string(.enabledAssistiveTechnology) {
      record.extra.append(Field("enabledAssistiveTechnology", .string(technology)))
    }
    if let userInfo = try step.keyedValue(.userInfo) {
      record.extra.append(Field("userInfo", userInfo))
    }
    record.extra.appendFields(try step.otherFields(skipping: KeysRead.step))
    return record
  }

  /// Any child `ORKResult` → `ResultRecord`, decoded by the family its class belongs to.
  mutating func resultRecord(from result: Object) throws(ImportError) -> ResultRecord {
    let kind = result.resultFamily
    let family = kind.type
    var familyExtra = [Field]()
    let answer = try kind.answer(of: result, extra: &familyExtra)
    // Read into locals in the order errors are reported, and built once at the return, as
    // `taskRun(from:)` is.
    let identifier = try result.string(.identifier) ?? ""
    let startDate = try result.instant(.startDate)
    let endDate = try result.instant(.endDate)
    var extra = [Field]()
    if let userInfo = try result.keyedValue(.userInfo) {
      extra.append(Field("userInfo", userInfo))
    }
    extra.appendFields(familyExtra)
    var questionType: Int?
    if !family.keepsAllKeys {
      questionType = try result.integer(.questionType)
      if family.isQuestion {
        evidence.note(family.answerType, questionType: questionType)
        if try result.hasKey(.typedAnswerOrNoAnswer) { evidence.noteNewLayout() }
      }
      extra.appendFields(try result.otherFields(skipping: KeysRead.result[kind]))
    }
    return ResultRecord(
      identifier: identifier, className: result.className, answerType: family.answerType,
      answer: answer, startDate: startDate, endDate: endDate, questionType: questionType,
      extra: extra)
  }

  /// Settles `DateAnswer.isDateOnly` once every run of the input has been seen, in place (a
  /// copy of `runs` would copy every run, step and result array it changes).
  func finish(_ runs: inout [TaskRun]) {
    guard let numbering = evidence.numbering else { return }
    for runIndex in runs.indices {
      for stepIndex in runs[runIndex].steps.indices {
        for resultIndex in runs[runIndex].steps[stepIndex].results.indices {
          guard
            case .date(var date) = runs[runIndex].steps[stepIndex].results[resultIndex].answer,
            let type = runs[runIndex].steps[stepIndex].results[resultIndex].questionType
          else { continue }
          date.isDateOnly = numbering.isDateOnly(questionType: type)
          runs[runIndex].steps[stepIndex].results[resultIndex].answer = .date(date)
        }
      }
    }
  }
}

extension Array where Element == Field {
  /// Appends `fields`, taking them whole when there is nothing yet. Most records have no
  /// extra fields, and `+=` of an empty array onto an empty one would allocate a buffer per
  /// record (the shared empty storage is never uniquely referenced).
  fileprivate mutating func appendFields(_ fields: [Field]) {
    if fields.isEmpty { return }
    if isEmpty { self = fields } else { self += fields }
  }
}

/// The keys the decoder reads from each kind of result: any other key of an object is listed
/// as an unknown field, decoded generically (app and fork additions such as `questionText`).
enum KeysRead {
  /// ORKResult's keys, which every result's decoding reads.
  static let base = FieldKeySet { $0.isBase }
  /// The keys a task result's decoding reads (ORKResult's and its own).
  static let task = FieldKeySet {
    $0.isBase || $0 == .results || $0 == .taskRunUUID || $0 == .outputDirectory
      || $0 == .device
  }
  /// The keys a step result's decoding reads.
  static let step = FieldKeySet {
    $0.isBase || $0 == .results || $0 == .enabledAssistiveTechnology
  }
  /// The keys each family's decoding reads (ORKResult's and `readsKey`'s).
  static let result = ResultFamilyKind.Table { kind in
    FieldKeySet { $0.isBase || kind.type.readsKey($0) }
  }
}
