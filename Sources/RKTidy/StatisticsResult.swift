// The statistics of a whole export: what summary.csv, choices.csv and `rkexport stats` show.
import RKModel

/// Statistics of one task: its runs and, in row order, its questions.
public struct TaskStatistics: Sendable, Equatable {
  public var taskIdentifier: String
  /// Runs of this task that were added.
  public var runCount: Int
  /// Distinct non-empty participant ids among those runs; nil when no run had one.
  public var participantCount: Int?
  /// Median of the run durations (end − start, seconds) of runs that recorded both.
  public var medianDurationSeconds: Double?
  /// Questions in row order: definition order, then first-seen order (see `StatisticsCollector`).
  public var questions: [QuestionStatistics]
}

/// Statistics of one question (a result identified by task, step, item and answer type).
public struct QuestionStatistics: Sendable, Equatable {
  public var taskIdentifier: String
  public var stepIdentifier: String
  public var itemIdentifier: String
  public var answerType: AnswerType
  /// Runs of the task (the same for every question of a task).
  public var runCount: Int
  /// Runs in which the question has a result; `runCount − presentedCount` were not presented.
  public var presentedCount: Int
  public var answeredCount: Int
  public var skippedCount: Int
  public var dontKnowCount: Int
  /// Numeric answers (numeric, scale, SES, time interval, time of day, date), else nil.
  public var numbers: NumericSummary?
  /// Median of the answer's own duration (result end − start, seconds).
  public var answerDurationMedianSeconds: Double?
  /// Median and 90th percentile of the durations of the step holding the question (seconds).
  public var stepDurationMedianSeconds: Double?
  public var stepDurationP90Seconds: Double?
  /// Counts per option for choice and boolean questions, in option order; empty otherwise.
  public var options: [OptionCount]

  /// `answeredCount / runCount`: the share of all runs of the task with an answer, so questions
  /// skipped by navigation lower it too; nil when the task has no runs.
  public var completeRate: Double? {
    runCount > 0 ? Double(answeredCount) / Double(runCount) : nil
  }

  /// Runs not presented with the question (branched over, or the run ended before it).
  public var notPresentedCount: Int { runCount - presentedCount }

  /// True for choice and boolean questions, whose options choices.csv lists.
  public var hasOptions: Bool { answerType == .choice || answerType == .boolean }
}

/// Mean, spread and type-7 quantiles of the finite numeric answers of a question.
///
/// Units: the answer's own for numeric, scale and SES; seconds for time intervals; seconds since
/// midnight for times of day; seconds since 1970-01-01T00:00:00Z for dates.
public struct NumericSummary: Sendable, Equatable {
  /// Values summarised (non-finite answers such as NaN are left out).
  public var count: Int
  public var mean: Double?
  /// Sample standard deviation (n − 1); nil for fewer than two values.
  public var standardDeviation: Double?
  public var minimum: Double
  public var p25: Double
  public var median: Double
  public var p75: Double
  public var maximum: Double

  /// Summarises a non-empty sample; nil when `values` is empty.
  public init?(values: [Double]) {
    self.init(sorted: values.sorted())
  }

  /// Summarises a sample through its order statistics (selected, not sorted); nil when it is
  /// empty. The same figures as `init(sorted:)` on the sorted sample, to the bit.
  init?(_ order: consuming OrderStatistics) {
    guard let extremes = order.extremes,
      let p25 = Quantile.type7(&order, probability: 0.25),
      let median = Quantile.type7(&order, probability: 0.5),
      let p75 = Quantile.type7(&order, probability: 0.75)
    else { return nil }
    let sample = order.sample
    count = sample.count
    let mean = Statistics.mean(sample)
    self.mean = mean
    standardDeviation = Statistics.standardDeviation(sample, mean: mean)
    minimum = extremes.minimum
    self.p25 = p25
    self.median = median
    self.p75 = p75
    maximum = extremes.maximum
  }

  /// Summarises a sample already in ascending order (no copy); nil when it is empty.
  init?(sorted: [Double]) {
    self.init(OrderStatistics(sorted: sorted))
  }
}

/// How many runs chose one option of a choice question.
public struct OptionCount: Sendable, Equatable {
  /// The option as answers.csv writes the chosen value; nil for a null choice value (`NSNull`).
  public var value: String?
  /// The option's text from the task definition, when known.
  public var label: String?
  /// Runs that chose the option (a run counts once even if the value repeats).
  public var count: Int
  /// `100 × count / answered runs`; nil when nobody answered. Multiple choice can exceed 100 in
  /// total.
  public var percent: Double?

  public init(value: String?, label: String? = nil, count: Int, percent: Double?) {
    self.value = value
    self.label = label
    self.count = count
    self.percent = percent
  }
}
