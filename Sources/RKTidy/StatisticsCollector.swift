// Streaming accumulation of per-question statistics: one pass over task runs, any order.
import RKModel
import RKTable

/// Collects what summary.csv, choices.csv and `rkexport stats` need, one run at a time.
///
/// Memory is per question, not per run: counts and one counter per option. The Doubles that
/// exact medians and quantiles need (numeric answers, answer, step and run durations) go to a
/// `ValueSpool`, a temporary file in `spoolDirectory` when one is given, and are read back one
/// variable at a time at the end. Runs may be added in any order; the result is the same.
///
/// Row order: tasks by identifier; within a task, questions of the task definition in its order,
/// then the others in first-seen order, where "first" means the run with the smallest
/// (source, run UUID), so parallel parsing cannot change it.
///
/// ```swift
/// var collector = StatisticsCollector(definitions: definitions)
/// for run in runs { collector.add(run) }
/// let tasks = collector.statistics()
/// let rows = SummaryTable.rows(for: tasks)
/// ```
public struct StatisticsCollector: Sendable {
  var definitions: [DefinitionKey: DefinitionEntry] = [:]
  /// Each task's number: its place in `taskAccumulators` and `recentRuns`.
  var taskNumbers: [String: Int] = [:]
  var taskAccumulators: [TaskAccumulator] = []
  /// The tasks of the last few runs, compared by id before `taskNumbers` is asked.
  var recentTasks = RecentLookups<Int>()
  /// Step durations: the spool variable of each step.
  var steps: [StepKey: Int] = [:]
  /// Shared by copies of the collector: add to one copy only.
  let spool: ValueSpool
  /// Each question's number: its place in `questionKeys` and `accumulators`. Hashing the key
  /// once per result, then working by number, keeps `add` cheap.
  var questionSlots: [StatisticsKey: Int] = [:]
  var questionKeys: [StatisticsKey] = []
  var accumulators: [QuestionAccumulator] = []
  /// Per task (by number), where the questions and steps of its last run were found.
  var recentRuns: [RecentRun] = []
  /// The latest (greatest) `RunOrder` added so far. Runs mostly arrive in that order, and a
  /// run after every other cannot be any question's earliest, so `add` then skips comparing
  /// it with each question's (two string comparisons per result).
  var latestOrder: RunOrder?
  /// Runs added so far: the current run's number, which marks what a run has counted already.
  var runsAdded = 0

  /// Every task seen so far with its accumulated counts.
  var tasks: [String: TaskAccumulator] { taskNumbers.mapValues { taskAccumulators[$0] } }

  /// A collector; `definitions` give question order and the option sets of choice questions.
  /// With `spoolDirectory` (an existing folder, such as the export's staging folder) the values
  /// wait in an unlinked temporary file there instead of memory.
  public init(definitions: [TaskDefinition] = [], spoolDirectory: String? = nil) {
    spool = ValueSpool(directory: spoolDirectory)
    for definition in definitions {
      for (index, question) in definition.questions.enumerated() {
        let key = DefinitionKey(
          task: definition.taskIdentifier, step: question.stepIdentifier,
          item: question.itemIdentifier)
        // The first definition of a question wins, as it does in the codebook.
        if self.definitions[key] != nil { continue }
        self.definitions[key] = DefinitionEntry(index: index, question: question)
      }
    }
  }

  /// Adds one task run.
  public mutating func add(_ run: TaskRun) {
    add(RunContribution(statisticsOf: run))
  }

  /// Adds one task run, read beforehand (possibly on another thread).
  public mutating func add(_ run: RunContribution) {
    let order = run.order
    let isLatest = latestOrder.map { $0 < order } ?? true
    if isLatest { latestOrder = order }
    runsAdded += 1
    let runNumber = runsAdded
    let spool = self.spool
    let task = taskNumber(run.taskID)
    taskAccumulators[task].count(run, spool: spool)
    // Taken out (and put back below) so that appending to its arrays copies nothing.
    var recent = RecentRun()
    swap(&recent, &recentRuns[task])
    recent.slots.startRun()
    recent.steps.startRun()
    addStepDurations(run, recent: &recent)
    // Fields are read in place: copying each result would retain all its strings and arrays.
    run.results.withUnsafeBufferPointer { results in
      for index in results.indices {
        let result = results.baseAddress! + index
        let slot: Int
        if let noted = recent.slot(
          at: index, matching: result.pointee.key, answerType: result.pointee.answerType)
        {
          slot = noted
        } else {
          let key = StatisticsKey(
            task: run.taskID, step: result.pointee.key.step, item: result.pointee.key.item,
            answerType: result.pointee.answerType)
          // A question's position in a run is the index of its first result there.
          slot = self.slot(key, order: order, position: index)
          recent.note(slot, key: result.pointee.key, answerType: key.answerType, at: index)
        }
        // A question a run repeats (a looping task) counts once per run, its options too.
        accumulators[slot].note(
          result.pointee.status, position: index, run: order, runNumber: runNumber,
          isLatest: isLatest)
        accumulators[slot].count(
          result.pointee.options, other: result.pointee.otherOptions, runNumber: runNumber)
        // Each variable gets its values in run order, as the statistics' quantiles need.
        if let value = result.pointee.numericValue {
          spool.append(value, to: accumulators[slot].values)
        }
        if let duration = result.pointee.duration {
          spool.append(duration, to: accumulators[slot].answerDurations)
        }
      }
    }
    swap(&recent, &recentRuns[task])
  }

  /// The number of task `taskID`; a new task gets its accumulator and `recentRuns` entry.
  private mutating func taskNumber(_ taskID: String) -> Int {
    if let recent = recentTasks.value(for: taskID) { return recent }
    let number: Int
    if let known = taskNumbers[taskID] {
      number = known
    } else {
      number = taskAccumulators.count
      taskNumbers[taskID] = number
      taskAccumulators.append(TaskAccumulator(durations: spool.makeVariable()))
      recentRuns.append(RecentRun())
    }
    recentTasks.note(taskID, number)
    return number
  }

  /// Appends the run's step durations, finding each step's spool variable through `recent`
  /// when the step sits where it sat in the task's last run.
  private mutating func addStepDurations(_ run: RunContribution, recent: inout RecentRun) {
    for (index, step) in run.stepDurations.enumerated() {
      let variable: Int
      if let noted = recent.stepVariable(at: index, step: step.step) {
        variable = noted
      } else {
        variable = stepVariable(task: run.taskID, step: step.step)
        recent.noteStep(step.step, variable: variable, at: index)
      }
      spool.append(step.seconds, to: variable)
    }
  }

  /// The spool variable of a step's durations, made when the step is first seen.
  private mutating func stepVariable(task: String, step: String) -> Int {
    let key = StepKey(task: task, step: step)
    if let variable = steps[key] { return variable }
    let variable = spool.makeVariable()
    steps[key] = variable
    return variable
  }

  /// Why the statistics are incomplete (the spool file could not be read back), if they are.
  public var spoolFailure: String? { spool.failure }

  /// Drops the numbers kept for the statistics (their scratch file is closed on another
  /// thread) once `statistics()` will not be asked again; afterwards `spoolFailure` says so.
  public func discardValues() { spool.discard() }

  /// The number of question `key`, adding it (first seen in run `order` at `position`) if new.
  private mutating func slot(_ key: StatisticsKey, order: RunOrder, position: Int) -> Int {
    if let slot = questionSlots[key] { return slot }
    let slot = accumulators.count
    questionSlots[key] = slot
    questionKeys.append(key)
    accumulators.append(
      QuestionAccumulator(
        order: order, position: position, values: spool.makeVariable(),
        answerDurations: spool.makeVariable()))
    return slot
  }

  /// The value summarised for numeric answer kinds (see `NumericSummary` for units); nil for
  /// other kinds and for non-finite numbers.
  static func numericValue(_ answer: borrowing Answer) -> Double? {
    let value: Double
    switch answer {
    case .scale(let number), .sesRung(let number), .numeric(let number, _, _):
      value = number.double
    case .timeInterval(let seconds): value = seconds
    case .timeOfDay(let time):
      guard let seconds = time.secondsSinceMidnight else { return nil }
      value = Double(seconds)
    case .date(let date): value = date.instant.secondsSince1970
    default: return nil
    }
    return value.isFinite ? value : nil
  }
}

// MARK: - Accumulators

struct DefinitionKey: Hashable {
  var task: String
  var step: String
  var item: String
}

struct DefinitionEntry: Sendable {
  var index: Int
  var question: QuestionDefinition
}

struct StatisticsKey: Hashable {
  var task: String
  var step: String
  var item: String
  var answerType: AnswerType
}

struct StepKey: Hashable {
  var task: String
  var step: String
}

/// Orders runs independently of the order they were added in.
struct RunOrder: Comparable, Sendable {
  var source: String
  var runUUID: String

  static func < (lhs: RunOrder, rhs: RunOrder) -> Bool {
    (lhs.source, lhs.runUUID) < (rhs.source, rhs.runUUID)
  }
}

struct TaskAccumulator: Sendable {
  var runCount = 0
  var participants: Set<String> = []
  /// The participant of the task's last run (already in `participants`).
  var lastParticipant = ""
  /// The spool variable of the run durations.
  var durations: Int

  init(durations: Int) { self.durations = durations }

  /// Counts one run of the task: the run, its participant and its (finite) duration.
  mutating func count(_ run: RunContribution, spool: ValueSpool) {
    runCount += 1
    // Runs of a participant mostly come together: a compare instead of hashing the id.
    if !run.participantID.isEmpty && run.participantID != lastParticipant {
      participants.insert(run.participantID)
      lastParticipant = run.participantID
    }
    if let duration = run.durationSeconds { spool.append(duration, to: durations) }
  }
}

/// Where the questions and steps of a task's last run were found: runs of a task mostly
/// repeat them in order, and comparing keys costs less than hashing them.
struct RecentRun: Sendable {
  var slots = RecentPlaces<(key: QuestionKey, answerType: AnswerType, slot: Int)>()
  var steps = RecentPlaces<(step: String, variable: Int)>()

  /// The slot noted for `key` and `answerType` (of this run's task: the task is not compared)
  /// at the result's place or a few places on.
  @inline(__always)
  mutating func slot(at index: Int, matching key: QuestionKey, answerType: AnswerType) -> Int? {
    slots.find(at: index, key: key) { noted, key in
      noted.pointee.answerType == answerType && noted.pointee.key.item == key.item
        && noted.pointee.key.step == key.step ? noted.pointee.slot : nil
    }
  }

  /// The spool variable noted for step `step` at the step's place or a few places on.
  @inline(__always)
  mutating func stepVariable(at index: Int, step: String) -> Int? {
    steps.find(at: index, key: step) { noted, step in
      noted.pointee.step == step ? noted.pointee.variable : nil
    }
  }

  mutating func note(_ slot: Int, key: QuestionKey, answerType: AnswerType, at index: Int) {
    slots.note((key, answerType, slot), at: index)
  }

  mutating func noteStep(_ step: String, variable: Int, at index: Int) {
    steps.note((step, variable), at: index)
  }
}

struct QuestionAccumulator: Sendable {
  /// The earliest run (by `RunOrder`) that has the question, and its position there.
  var order: RunOrder
  var position: Int
  var presentedCount = 0
  var answeredCount = 0
  var skippedCount = 0
  var dontKnowCount = 0
  /// Spool variables of the numeric values and of the answer durations.
  var values: Int
  var answerDurations: Int
  /// Per option, the runs that chose it.
  var optionCounts = OptionCounts()
  /// The number of the last run that had the question, and its status there so far.
  var lastRun = 0
  var runStatus = AnswerStatus.skipped

  init(order: RunOrder, position: Int, values: Int, answerDurations: Int) {
    self.order = order
    self.position = position
    self.values = values
    self.answerDurations = answerDurations
  }

  /// Notes one result's status. The first result of a run counts the run's presence; one
  /// status counts per run: answered beats don't know beats skipped. `isLatest`: the run comes
  /// after every run counted before, so it is not the question's earliest (a question new in
  /// this run was made with this run's order and the position it first has).
  mutating func note(
    _ status: AnswerStatus, position: Int, run: RunOrder, runNumber: Int, isLatest: Bool
  ) {
    guard lastRun == runNumber else {
      lastRun = runNumber
      if !isLatest, (run, position) < (order, self.position) {
        order = run
        self.position = position
      }
      presentedCount += 1
      runStatus = status
      tally(status, by: 1)
      return
    }
    guard status.rank > runStatus.rank else { return }
    tally(runStatus, by: -1)
    tally(status, by: 1)
    runStatus = status
  }

  private mutating func tally(_ status: AnswerStatus, by change: Int) {
    switch status {
    case .answered: answeredCount += change
    case .dontKnow: dontKnowCount += change
    case .skipped: skippedCount += change
    }
  }

  /// Counts the options a result chose, each once per run (as answers.csv writes them: `nil`
  /// for a null choice value).
  mutating func count(
    _ options: [WideOption], other: ResultContribution.OtherOptions, runNumber: Int
  ) {
    for option in options { optionCounts.count(option.text, runNumber: runNumber) }
    guard !other.isEmpty else { return }
    if other.contains(.booleanTrue) { optionCounts.count("true", runNumber: runNumber) }
    if other.contains(.booleanFalse) { optionCounts.count("false", runNumber: runNumber) }
    if other.contains(.null) { optionCounts.count(nil, runNumber: runNumber) }
  }
}

/// Per option (its text; nil for a null choice value), the runs that chose it, in the order
/// first chosen. While a question has few options they are found by comparing texts, which
/// costs less than hashing one: every answered choice and boolean counts its options, and a
/// dictionary lookup cost ~350 instructions.
struct OptionCounts: Sendable {
  /// Options searched in order; past this many, through `indices`.
  static let linearLimit = 16
  private(set) var keys: [String?] = []
  private var tallies: [OptionTally] = []
  /// Each option's index, once there are more than `linearLimit` (else empty).
  private var indices: [String?: Int] = [:]

  /// Counts run `runNumber` for `text` (once per run).
  mutating func count(_ text: String?, runNumber: Int) {
    tallies[index(of: text)].count(runNumber)
  }

  /// The tally of `text`, nil when no run chose it.
  subscript(text: String?) -> OptionTally? {
    let found = indices.isEmpty ? keys.firstIndex(of: text) : indices[text]
    return found.map { tallies[$0] }
  }

  /// The index of `text`, added if new.
  private mutating func index(of text: String?) -> Int {
    if indices.isEmpty {
      if let found = keys.firstIndex(of: text) { return found }
    } else if let found = indices[text] {
      return found
    }
    let index = keys.count
    keys.append(text)
    tallies.append(OptionTally())
    if !indices.isEmpty {
      indices[text] = index
    } else if keys.count > Self.linearLimit {
      for (position, key) in keys.enumerated() { indices[key] = position }
    }
    return index
  }
}

/// How many runs chose an option, and the last of them (so a run counts once).
struct OptionTally: Sendable {
  var count = 0
  var lastRun = 0

  mutating func count(_ runNumber: Int) {
    guard lastRun != runNumber else { return }
    lastRun = runNumber
    count += 1
  }
}

extension AnswerStatus {
  /// Which status a run keeps for a question it answered several times.
  fileprivate var rank: Int {
    switch self {
    case .skipped: 0
    case .dontKnow: 1
    case .answered: 2
    }
  }
}
