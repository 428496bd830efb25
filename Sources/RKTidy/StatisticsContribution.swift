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
  /// Every result, in run order.
  var results: [StatisticsResultEntry]

  public init(_ run: TaskRun) {
    taskIdentifier = run.taskIdentifier
    participantID = run.participantID
    order = RunOrder(source: run.source, runUUID: run.runUUID ?? "")
    durationSeconds = run.durationSeconds.flatMap { $0.isFinite ? $0 : nil }
    stepDurations = []
    stepDurations.reserveCapacity(run.steps.count)
    results = []
    results.reserveCapacity(run.steps.reduce(0) { $0 + $1.results.count })
    for step in run.steps {
      if let duration = step.durationSeconds, duration.isFinite {
        stepDurations.append(StepDuration(step: step.identifier, seconds: duration))
      }
      for result in step.results {
        var options: [String?] = []
        StatisticsCollector.addChosenOptions(result.answer, to: &options)
        results.append(
          StatisticsResultEntry(
            key: StatisticsKey(
              task: run.taskIdentifier, step: step.identifier, item: result.identifier,
              answerType: result.answerType),
            status: AnswerStatus(result.answer),
            value: StatisticsCollector.numericValue(result.answer),
            durationSeconds: result.durationSeconds.flatMap { $0.isFinite ? $0 : nil },
            options: options))
      }
    }
  }
}

struct StepDuration: Sendable {
  var step: String
  var seconds: Double
}

/// One result as the statistics see it.
struct StatisticsResultEntry: Sendable {
  var key: StatisticsKey
  var status: AnswerStatus
  /// `StatisticsCollector.numericValue` of the answer.
  var value: Double?
  /// The answer's duration when finite.
  var durationSeconds: Double?
  /// The options it chose, each once (`StatisticsCollector.addChosenOptions`).
  var options: [String?]
}
