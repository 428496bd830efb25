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
  var questions: [StatisticsKey: QuestionAccumulator] = [:]
  var steps: [StepKey: [Double]] = [:]

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
    let order = RunOrder(source: run.source, runUUID: run.runUUID ?? "")
    // Mutating through the dictionary subscript keeps arrays unshared, so appends stay O(1).
    tasks[run.taskIdentifier, default: TaskAccumulator()].runCount += 1
    if !run.participantID.isEmpty {
      tasks[run.taskIdentifier, default: TaskAccumulator()].participants.insert(run.participantID)
    }
    if let duration = run.durationSeconds, duration.isFinite {
      tasks[run.taskIdentifier, default: TaskAccumulator()].durations.append(duration)
    }

    // A question may occur more than once in a run (a step revisited by a looping task):
    // presence, status and chosen options count once per run, values and durations each time.
    var thisRun: [StatisticsKey: RunQuestion] = [:]
    var position = 0
    for step in run.steps {
      if let duration = step.durationSeconds, duration.isFinite {
        steps[StepKey(task: run.taskIdentifier, step: step.identifier), default: []]
          .append(duration)
      }
      for result in step.results {
        let key = StatisticsKey(
          task: run.taskIdentifier, step: step.identifier, item: result.identifier,
          answerType: result.answerType)
        var seen = thisRun[key] ?? RunQuestion(position: position)
        position += 1
        seen.statuses.insert(AnswerStatus(result.answer))
        seen.options.formUnion(Self.chosenOptions(result.answer))
        thisRun[key] = seen
        let fresh = QuestionAccumulator(order: order, position: seen.position)
        if let value = Self.numericValue(result.answer) {
          questions[key, default: fresh].values.append(value)
        }
        if let duration = result.durationSeconds, duration.isFinite {
          questions[key, default: fresh].answerDurations.append(duration)
        }
        if questions[key] == nil { questions[key] = fresh }
      }
    }
    for (key, seen) in thisRun {
      questions[key]?.merge(seen, from: order)
    }
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

  /// The options an answer chose, as answers.csv writes them (`nil` for a null choice value).
  static func chosenOptions(_ answer: Answer) -> Set<String?> {
    switch answer {
    case .boolean(let value): return [value ? "true" : "false"]
    case .choices(let values): return Set(values.map(optionText))
    default: return []
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
}

/// What one run said about one question.
struct RunQuestion {
  var position: Int
  var statuses: Set<AnswerStatus> = []
  var options: Set<String?> = []
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
    if seen.statuses.contains(.answered) {
      answeredCount += 1
    } else if seen.statuses.contains(.dontKnow) {
      dontKnowCount += 1
    } else {
      skippedCount += 1
    }
    for option in seen.options { optionCounts[option, default: 0] += 1 }
  }
}
