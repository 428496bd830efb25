// Turning the accumulated counts and values into ordered task and question statistics.
import RKModel

extension StatisticsCollector {
  /// The statistics of everything added so far: tasks by identifier, questions in row order.
  public func statistics() -> [TaskStatistics] {
    // Each task's questions as their slots, each with its sort key worked out once: a
    // dictionary of (key, accumulator) copies held a task of very many questions twice more
    // (~0.75 KB a question), and its sort looked the definition up in every comparison.
    var questionsByTask: [String: [(slot: Int, order: RowOrder)]] = [:]
    for (slot, key) in questionKeys.enumerated() {
      questionsByTask[key.task, default: []].append((slot, rowOrder(key, accumulators[slot])))
    }
    // Step durations summarised once per step (every question of the step shows them).
    var stepSummaries: [StepKey: (median: Double?, p90: Double?)] = [:]
    for (step, variable) in steps {
      var order = orderStatistics(variable)
      stepSummaries[step] = (
        Quantile.type7(&order, probability: 0.5), Quantile.type7(&order, probability: 0.9)
      )
    }
    let tasks = self.tasks
    return tasks.keys.sorted().compactMap { taskIdentifier in
      guard let task = tasks[taskIdentifier] else { return nil }
      let ordered = (questionsByTask.removeValue(forKey: taskIdentifier) ?? []).sorted {
        $0.order < $1.order
      }
      return TaskStatistics(
        taskIdentifier: taskIdentifier,
        runCount: task.runCount,
        participantCount: task.participants.isEmpty ? nil : task.participants.count,
        medianDurationSeconds: median(task.durations),
        questions: ordered.map { question in
          let key = questionKeys[question.slot]
          let step = stepSummaries[StepKey(task: key.task, step: key.step)]
          return self.question(
            key, accumulators[question.slot], runCount: task.runCount,
            stepDurations: step ?? (nil, nil))
        })
    }
  }

  /// The values of a spool variable, ready for quantiles (one array: the variable's values at
  /// a time).
  private func orderStatistics(_ variable: Int) -> OrderStatistics {
    OrderStatistics(spool.values(of: variable))
  }

  /// The median of a spool variable's values; nil when it has none.
  private func median(_ variable: Int) -> Double? {
    var order = orderStatistics(variable)
    return Quantile.type7(&order, probability: 0.5)
  }

  private func question(
    _ key: StatisticsKey, _ value: QuestionAccumulator, runCount: Int,
    stepDurations: (median: Double?, p90: Double?)
  ) -> QuestionStatistics {
    let isChoice = key.answerType == .choice || key.answerType == .boolean
    return QuestionStatistics(
      taskIdentifier: key.task,
      stepIdentifier: key.step,
      itemIdentifier: key.item,
      answerType: key.answerType,
      runCount: runCount,
      presentedCount: value.presentedCount,
      answeredCount: value.answeredCount,
      skippedCount: value.skippedCount,
      dontKnowCount: value.dontKnowCount,
      numbers: NumericSummary(orderStatistics(value.values)),
      answerDurationMedianSeconds: median(value.answerDurations),
      stepDurationMedianSeconds: stepDurations.median,
      stepDurationP90Seconds: stepDurations.p90,
      options: isChoice ? options(key, value) : [])
  }

  /// Definition order first (with text), then `true`, `false` for booleans, then options only
  /// seen in answers: numerically when all are numbers, else by text; a null value last.
  private func options(_ key: StatisticsKey, _ value: QuestionAccumulator) -> [OptionCount] {
    var listed: [(value: String?, label: String?)] = []
    func list(_ value: String, label: String?) {
      if !listed.contains(where: { $0.value == value }) { listed.append((value, label)) }
    }
    let definition = definitions[DefinitionKey(task: key.task, step: key.step, item: key.item)]
    for option in definition?.question.options ?? [] { list(option.value, label: option.text) }
    if key.answerType == .boolean {
      list("true", label: nil)
      list("false", label: nil)
    }
    let known = Set(listed.map(\.value))
    let others = value.optionCounts.keys.filter { !known.contains($0) }
    let texts = others.compactMap { $0 }
    let numbers = texts.map { Double($0).flatMap { $0.isFinite ? $0 : nil } }
    let sortedOthers: [String]
    if numbers.allSatisfy({ $0 != nil }) {
      sortedOthers = zip(texts, numbers).sorted { lhs, rhs in
        (lhs.1 ?? 0, lhs.0) < (rhs.1 ?? 0, rhs.0)
      }.map(\.0)
    } else {
      sortedOthers = texts.sorted()
    }
    listed += sortedOthers.map { ($0, nil) }
    if others.contains(where: { $0 == nil }) { listed.append((nil, nil)) }
    return listed.map { option in
      let count = value.optionCounts[option.value]?.count ?? 0
      let percent =
        value.answeredCount > 0
        ? Double(count * 100) / Double(value.answeredCount) : nil
      return OptionCount(value: option.value, label: option.label, count: count, percent: percent)
    }
  }

  /// Sort key of a question row: definition index (undefined questions after all defined ones),
  /// then the earliest run that has it and the position in that run.
  private func rowOrder(_ key: StatisticsKey, _ value: QuestionAccumulator) -> RowOrder {
    let definition = definitions[DefinitionKey(task: key.task, step: key.step, item: key.item)]
    return RowOrder(
      definitionIndex: definition?.index ?? Int.max, run: value.order, position: value.position,
      answerType: key.answerType.rawValue)
  }
}

/// Sort key of question rows within a task.
struct RowOrder: Comparable {
  var definitionIndex: Int
  var run: RunOrder
  var position: Int
  var answerType: String

  static func < (lhs: RowOrder, rhs: RowOrder) -> Bool {
    (lhs.definitionIndex, lhs.run, lhs.position, lhs.answerType)
      < (rhs.definitionIndex, rhs.run, rhs.position, rhs.answerType)
  }
}
