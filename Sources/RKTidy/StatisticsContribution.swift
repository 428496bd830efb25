// One run's share of the statistics, read apart from the collector (on a parsing thread).
import RKModel
import RKTable

/// What `StatisticsCollector.add(_:)` reads of one task run: its identity, durations and, per
/// result, the question, status, summarised value and chosen options.
///
/// Making it walks the run's results and formats option texts; the collector's single thread
/// then only looks up questions and adds numbers.
public struct StatisticsContribution: Sendable {
  var taskIdentifier: String
  var participantID: String
  var order: RunOrder
  /// The run's duration when finite.
  var durationSeconds: Double?
  /// Steps with a finite duration, in run order.
  var stepDurations: [StepDuration]
  /// Each question of the run once, in order of first occurrence (a step revisited by a
  /// looping task repeats its questions).
  var questions: [RunQuestionEntry]
  /// Each time a question occurred with a numeric value or an answer duration: one array per
  /// run rather than two per question (or two per run).
  var occurrences: [QuestionOccurrence]

  public init(_ run: borrowing TaskRun) {
    // Built in locals and stored once at the end: filling `self`'s arrays in the loop makes the
    // compiler copy the whole contribution (and destroy the original) per run.
    var stepDurations: [StepDuration] = []
    stepDurations.reserveCapacity(run.steps.count)
    var questions: [RunQuestionEntry] = []
    var occurrences: [QuestionOccurrence] = []
    let resultCount = run.steps.reduce(0) { $0 + $1.results.count }
    questions.reserveCapacity(resultCount)
    // At most one occurrence per result: growing the array cost more than this.
    occurrences.reserveCapacity(resultCount)
    // Repeats are rare and runs short: a linear search, or a table for long runs.
    var indexByKey: [StatisticsKey: Int]? = resultCount > 32 ? [:] : nil
    var position = 0
    // By index and through a pointer: `for step in run.steps` or `let answer = …` would copy
    // each record (retaining all its fields).
    for stepIndex in run.steps.indices {
      let step = run.steps[stepIndex].identifier
      if let duration = run.steps[stepIndex].durationSeconds, duration.isFinite {
        stepDurations.append(StepDuration(step: step, seconds: duration))
      }
      run.steps[stepIndex].results.withUnsafeBufferPointer { records in
        for resultIndex in records.indices {
          let record = records.baseAddress! + resultIndex
          let key = StatisticsKey(
            task: run.taskIdentifier, step: step, item: record.pointee.identifier,
            answerType: record.pointee.answerType)
          let known = indexByKey.map { $0[key] } ?? questions.firstIndex { $0.key == key }
          let index = known ?? questions.count
          if known == nil {
            questions.append(RunQuestionEntry(key: key, seen: RunQuestion(position: position)))
            indexByKey?[key] = index
          }
          position += 1
          questions[index].seen.note(AnswerStatus(record.pointee.answer))
          StatisticsCollector.addChosenOptions(
            record.pointee.answer, to: &questions[index].seen.options)
          let value = StatisticsCollector.numericValue(record.pointee.answer)
          let duration = record.pointee.durationSeconds.flatMap { $0.isFinite ? $0 : nil }
          if value != nil || duration != nil {
            occurrences.append(
              QuestionOccurrence(question: index, value: value, duration: duration))
          }
        }
      }
    }
    taskIdentifier = run.taskIdentifier
    participantID = run.participantID
    order = RunOrder(source: run.source, runUUID: run.runUUID ?? "")
    durationSeconds = run.durationSeconds.flatMap { $0.isFinite ? $0 : nil }
    self.stepDurations = stepDurations
    self.questions = questions
    self.occurrences = occurrences
  }
}

struct StepDuration: Sendable {
  var step: String
  var seconds: Double
}

/// What one run said about one question: presence, status and chosen options count once per
/// run (its values and durations are in the contribution's flat arrays).
struct RunQuestionEntry: Sendable {
  var key: StatisticsKey
  var seen: RunQuestion
}

/// One occurrence of a run's question: `question` indexes `StatisticsContribution.questions`;
/// its numeric value and its answer duration, each when it has one.
struct QuestionOccurrence: Sendable {
  var question: Int
  var value: Double?
  var duration: Double?
}
