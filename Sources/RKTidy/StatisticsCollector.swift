// Streaming accumulation of per-question statistics: one pass over task runs, any order.
import RKModel
import RKTable

/// Collects what summary.csv, choices.csv and `rkexport stats` need, one run at a time.
///
/// Memory is per question, not per run: counts, one Double per numeric answer and per duration,
/// and one counter per option. Runs may be added in any order; the result is the same.
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
  var tasks: [String: TaskAccumulator] = [:]
  var steps: [StepKey: [Double]] = [:]
  /// Each question's number: its place in `questionKeys` and `accumulators`. Hashing the key
  /// once per result, then working by number, keeps `add` cheap.
  var questionSlots: [StatisticsKey: Int] = [:]
  var questionKeys: [StatisticsKey] = []
  var accumulators: [QuestionAccumulator] = []
  /// Per task (`recentRunIndexes`), where the questions and steps of its last run were found.
  var recentRuns: [RecentRun] = []
  var recentRunIndexes: [String: Int] = [:]
  /// Counts insertions into `steps`, which move the positions `RecentRun` remembers.
  var stepsVersion = 0

  /// Every question seen so far with its accumulated counts and values.
  var questions: [StatisticsKey: QuestionAccumulator] {
    Dictionary(uniqueKeysWithValues: zip(questionKeys, accumulators))
  }

  /// A collector; `definitions` give question order and the option sets of choice questions.
  public init(definitions: [TaskDefinition] = []) {
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
    add(StatisticsContribution(run))
  }

  /// Adds one task run, read beforehand (possibly on another thread).
  public mutating func add(_ run: StatisticsContribution) {
    let order = run.order
    // Mutating through the dictionary subscript keeps arrays unshared, so appends stay O(1).
    tasks[run.taskIdentifier, default: TaskAccumulator()].count(run)
    let recentIndex = recentRunIndex(of: run.taskIdentifier)
    // Taken out (and put back below) so that appending to its arrays copies nothing.
    var recent = RecentRun()
    swap(&recent, &recentRuns[recentIndex])
    addStepDurations(run, recent: &recent)
    let questions = run.questions
    // Fields are read in place: copying each entry would retain all its strings and arrays.
    for index in questions.indices {
      let slot: Int
      if index < recent.slots.count && recent.slots[index].key == questions[index].key {
        slot = recent.slots[index].slot
      } else {
        slot = self.slot(
          questions[index].key, order: order, position: questions[index].seen.position)
        recent.note(slot, key: questions[index].key, at: index)
      }
      accumulators[slot].values.append(contentsOf: questions[index].values)
      accumulators[slot].answerDurations.append(contentsOf: questions[index].answerDurations)
      accumulators[slot].merge(questions[index].seen, from: order)
    }
    swap(&recent, &recentRuns[recentIndex])
  }

  /// The index in `recentRuns` of a task's entry, added if new.
  private mutating func recentRunIndex(of taskIdentifier: String) -> Int {
    if let index = recentRunIndexes[taskIdentifier] { return index }
    recentRuns.append(RecentRun())
    recentRunIndexes[taskIdentifier] = recentRuns.count - 1
    return recentRuns.count - 1
  }

  /// Appends the run's step durations, finding each step's list through `recent` when the
  /// step sits where it sat in the task's last run.
  private mutating func addStepDurations(_ run: StatisticsContribution, recent: inout RecentRun) {
    if recent.stepsVersion != stepsVersion {
      // A step was added since: positions in `steps` may have moved.
      recent.steps = []
      recent.stepsVersion = stepsVersion
    }
    for (index, step) in run.stepDurations.enumerated() {
      if index < recent.steps.count && recent.steps[index].step == step.step {
        steps.values[recent.steps[index].position].append(step.seconds)
        continue
      }
      let key = StepKey(task: run.taskIdentifier, step: step.step)
      if let position = steps.index(forKey: key) {
        steps.values[position].append(step.seconds)
        recent.noteStep(step.step, position: position, at: index)
      } else {
        steps[key] = [step.seconds]
        stepsVersion += 1
        recent.steps = []
        recent.stepsVersion = stepsVersion
      }
    }
  }

  /// The number of question `key`, adding it (first seen in run `order` at `position`) if new.
  private mutating func slot(_ key: StatisticsKey, order: RunOrder, position: Int) -> Int {
    if let slot = questionSlots[key] { return slot }
    let slot = accumulators.count
    questionSlots[key] = slot
    questionKeys.append(key)
    accumulators.append(QuestionAccumulator(order: order, position: position))
    return slot
  }

  /// The value summarised for numeric answer kinds (see `NumericSummary` for units); nil for
  /// other kinds and for non-finite numbers.
  static func numericValue(_ answer: Answer) -> Double? {
    let value: Double
    switch answer {
    case .scale(let number), .sesRung(let number), .numeric(let number, _, _):
      value = number.double
    case .timeInterval(let seconds): value = seconds
    case .timeOfDay(let time): value = Double(time.secondsSinceMidnight)
    case .date(let date): value = date.instant.secondsSince1970
    default: return nil
    }
    return value.isFinite ? value : nil
  }

  /// Adds the options `answer` chose, as answers.csv writes them (`nil` for a null choice
  /// value), to `options`.
  static func addChosenOptions(_ answer: Answer, to options: inout [String?]) {
    func add(_ option: String?) {
      if !options.contains(option) { options.append(option) }
    }
    switch answer {
    case .boolean(let value): add(value ? "true" : "false")
    case .choices(let values): for value in values { add(optionText(value)) }
    default: break
    }
  }

  /// The text of a choice value: text as is, numbers canonical, dates ISO 8601 UTC.
  static func optionText(_ value: ChoiceValue) -> String? {
    switch value {
    case .text(let text): return text
    case .number(let number): return number.text
    case .date(let instant): return instant.millisecondsSince1970.map(ISO8601.utcMilliseconds)
    case .null: return nil
    }
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
  var durations: [Double] = []

  /// Counts one run of the task: the run, its participant and its duration.
  mutating func count(_ run: StatisticsContribution) {
    runCount += 1
    if !run.participantID.isEmpty { participants.insert(run.participantID) }
    if let duration = run.durationSeconds { durations.append(duration) }
  }
}

/// Where the questions and steps of a task's last run were found: runs of a task mostly
/// repeat them in order, and comparing keys costs less than hashing them.
struct RecentRun: Sendable {
  var slots: [(key: StatisticsKey, slot: Int)] = []
  var steps: [(step: String, position: Dictionary<StepKey, [Double]>.Index)] = []
  /// The `stepsVersion` the step positions belong to.
  var stepsVersion = 0

  mutating func note(_ slot: Int, key: StatisticsKey, at index: Int) {
    if index < slots.count {
      slots[index] = (key, slot)
    } else if index == slots.count {
      slots.append((key, slot))
    }
  }

  mutating func noteStep(
    _ step: String, position: Dictionary<StepKey, [Double]>.Index, at index: Int
  ) {
    if index < steps.count {
      steps[index] = (step, position)
    } else if index == steps.count {
      steps.append((step, position))
    }
  }
}

/// What one run said about one question.
struct RunQuestion {
  var position: Int
  var wasAnswered = false
  var wasDontKnow = false
  /// Chosen options, each once (a handful: a list beats hashing).
  var options: [String?] = []

  init(position: Int) { self.position = position }

  /// Notes one occurrence's status (skipped needs no mark: it is what remains).
  mutating func note(_ status: AnswerStatus) {
    switch status {
    case .answered: wasAnswered = true
    case .dontKnow: wasDontKnow = true
    case .skipped: break
    }
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
  var values: [Double] = []
  var answerDurations: [Double] = []
  var optionCounts: [String?: Int] = [:]

  init(order: RunOrder, position: Int) {
    self.order = order
    self.position = position
  }

  /// Counts one run's presence, status and chosen options.
  mutating func merge(_ seen: RunQuestion, from run: RunOrder) {
    if (run, seen.position) < (order, position) {
      order = run
      position = seen.position
    }
    presentedCount += 1
    // One status per run: answered beats don't know beats skipped.
    if seen.wasAnswered {
      answeredCount += 1
    } else if seen.wasDontKnow {
      dontKnowCount += 1
    } else {
      skippedCount += 1
    }
    for option in seen.options { optionCounts[option, default: 0] += 1 }
  }
}
