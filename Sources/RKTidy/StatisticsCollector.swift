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
  /// Per question number: the last run (`runSerial`) that had it, and where in that run's
  /// `RunQuestion` list it sits; replaces a per-run dictionary.
  var lastRunOfSlot: [Int] = []
  var seenIndexOfSlot: [Int] = []
  var runSerial = 0
  /// Per task, the questions of its recent runs by position, with their numbers: runs mostly
  /// repeat their questions in order, and comparing two keys costs less than hashing one.
  var recentSlots: [String: [(key: StatisticsKey, slot: Int)]] = [:]

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
    runSerial += 1
    for step in run.stepDurations {
      steps[StepKey(task: run.taskIdentifier, step: step.step), default: []].append(step.seconds)
    }

    // A question may occur more than once in a run (a step revisited by a looping task):
    // presence, status and chosen options count once per run, values and durations each time.
    var thisRun: [(slot: Int, seen: RunQuestion)] = []
    thisRun.reserveCapacity(run.results.count)
    var recent = recentSlots[run.taskIdentifier] ?? []
    for (position, result) in run.results.enumerated() {
      let slot: Int
      if position < recent.count && recent[position].key == result.key {
        slot = recent[position].slot
      } else {
        slot = self.slot(result.key, order: order, position: position)
        if position < recent.count {
          recent[position] = (result.key, slot)
        } else if position == recent.count {
          recent.append((result.key, slot))
        }
      }
      if lastRunOfSlot[slot] != runSerial {
        lastRunOfSlot[slot] = runSerial
        seenIndexOfSlot[slot] = thisRun.count
        thisRun.append((slot, RunQuestion(position: position)))
      }
      let seenIndex = seenIndexOfSlot[slot]
      thisRun[seenIndex].seen.note(result.status)
      for option in result.options where !thisRun[seenIndex].seen.options.contains(option) {
        thisRun[seenIndex].seen.options.append(option)
      }
      if let value = result.value {
        accumulators[slot].values.append(value)
      }
      if let duration = result.durationSeconds {
        accumulators[slot].answerDurations.append(duration)
      }
    }
    for (slot, seen) in thisRun {
      accumulators[slot].merge(seen, from: order)
    }
    recentSlots[run.taskIdentifier] = recent
  }

  /// The number of question `key`, adding it (first seen in run `order` at `position`) if new.
  private mutating func slot(_ key: StatisticsKey, order: RunOrder, position: Int) -> Int {
    if let slot = questionSlots[key] { return slot }
    let slot = accumulators.count
    questionSlots[key] = slot
    questionKeys.append(key)
    accumulators.append(QuestionAccumulator(order: order, position: position))
    lastRunOfSlot.append(0)
    seenIndexOfSlot.append(0)
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
