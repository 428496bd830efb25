// One run of a task: the root of ResearchKit's result hierarchy (ORKTaskResult).

/// One run of one task by one participant, with its step results in presentation order.
public struct TaskRun: Sendable, Equatable {
  /// The task's identifier (`ORKTaskResult.identifier`).
  public var taskIdentifier: String
  /// The run's UUID, upper-case and hyphenated (`ORKTaskResult.taskRunUUID`), if recorded.
  public var runUUID: String?
  public var startDate: Instant?
  public var endDate: Instant?
  /// `ORKDevice` (ResearchKit ≥ 2.1.1) when archived.
  public var device: DeviceInfo?
  /// Facts about the run that are not ResearchKit results, in input order
  /// (e.g. Bridge `appVersion`, `phoneInfo`; `outputDirectory`; `userInfo` entries).
  public var metadata: [Field]
  /// The participant, derived from the input path (archives do not record one).
  public var participantID: String
  /// Where the run came from: the input file's path relative to its input root
  /// (zip entries as `upload.zip!/a/b.json`), plus `#N` (1-based) when a file holds several runs.
  public var source: String
  /// Step results in the order they appear in the input (`ORKTaskResult.results`). Declared
  /// last, so that the synthesized memberwise initializer, which `init` calls, has other labels.
  public var steps: [StepRecord]

  /// Seconds from start to end, or nil when either is missing.
  public var durationSeconds: Double? { RKModel.durationSeconds(from: startDate, to: endDate) }
}

extension TaskRun {
  /// Builds the run through the synthesized memberwise initializer: an initializer that sets
  /// the properties one by one has the optimizer copy the finished value once and destroy the
  /// original (it does not pair the retains of a value holding an optional reference), ~450
  /// instructions and a dozen reference counts per run.
  public init(
    taskIdentifier: String, runUUID: String? = nil, startDate: Instant? = nil,
    endDate: Instant? = nil, device: DeviceInfo? = nil, metadata: [Field] = [],
    steps: [StepRecord] = [], participantID: String = "", source: String = ""
  ) {
    self.init(
      taskIdentifier: taskIdentifier, runUUID: runUUID, startDate: startDate, endDate: endDate,
      device: device, metadata: metadata, participantID: participantID, source: source,
      steps: steps)
  }
}

/// `ORKDevice`: the hardware and OS that ran the task.
public struct DeviceInfo: Sendable, Equatable {
  public var product: String?
  public var platform: String?
  public var osVersion: String?
  public var osBuild: String?

  public init(
    product: String? = nil, platform: String? = nil, osVersion: String? = nil,
    osBuild: String? = nil
  ) {
    self.product = product
    self.platform = platform
    self.osVersion = osVersion
    self.osBuild = osBuild
  }
}

/// A named value, order preserved (inputs may repeat names; nothing is merged or dropped).
public struct Field: Sendable, Equatable {
  public var name: String
  public var value: KeyedValue

  public init(_ name: String, _ value: KeyedValue) {
    self.name = name
    self.value = value
  }
}
