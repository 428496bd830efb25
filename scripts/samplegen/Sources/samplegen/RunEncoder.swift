// Turns a RunSpec into the ResearchKit object graph NSKeyedArchiver writes.
import Foundation

/// Builds `ORKTaskResult` trees; one encoder per archive so shared objects (the empty results
/// array, time zones, the don't-know singleton) are stored once, as on a device.
final class RunEncoder {
  private let emptyResults = NSArray()
  private let dontKnow = ORKDontKnowAnswer()
  private let locale = LocaleRecord(identifier: "en_US")
  private var zones: [String: TimeZoneRecord] = [:]
  private var calendars: [String: CalendarRecord] = [:]

  func taskResult(_ run: RunSpec, device: ORKDevice?) -> ORKTaskResult {
    let task = ORKTaskResult()
    task.identifier = run.taskID
    task.startDate = date(run.start)
    task.endDate = date(run.end)
    task.taskRunUUID = NSUUID(uuidString: run.runUUID.uuidString)
    task.writesDevice = run.layout == .current
    task.device = device
    task.results = NSArray(array: run.steps.map { stepResult($0, layout: run.layout) })
    return task
  }

  private func stepResult(_ step: StepSpec, layout: ArchiveLayout) -> ORKStepResult {
    let result = ORKStepResult()
    result.identifier = step.stepID
    result.startDate = date(step.start)
    result.endDate = date(step.end)
    if step.questions.isEmpty {
      result.results = emptyResults
    } else {
      result.results = NSArray(array: step.questions.map { questionResult($0, layout: layout) })
    }
    return result
  }

  private func questionResult(_ question: QuestionSpec, layout: ArchiveLayout)
    -> ORKQuestionResult
  {
    let result = makeQuestionResult(question.kind)
    result.identifier = question.itemID
    let start = date(question.start)
    result.startDate = start
    // ResearchKit 1.x question results often share one NSDate for both (formats.md §1.2).
    result.endDate = question.end == question.start ? start : date(question.end)
    result.questionType = question.kind.questionType(layout)
    result.legacyAnswerKey = layout == .legacy ? question.kind.legacyAnswerKey : nil
    result.answer = answerObject(question.answer)
    if case .number(_, let unit) = question.answer {
      result.extraKeys.append(("unit", unit as NSString))
      if layout == .current { result.extraKeys.append(("displayUnit", unit as NSString)) }
    }
    if case .date(_, let zoneName) = question.answer {
      let zone = timeZone(zoneName)
      result.extraKeys.append(("calendar", calendar(zoneName, zone: zone)))
      result.extraKeys.append(("timeZone", zone))
    }
    return result
  }

  private func answerObject(_ answer: AnswerSpec) -> Any? {
    switch answer {
    case .skipped: return nil
    case .dontKnow: return dontKnow
    case .boolean(let value): return NSNumber(value: value)
    case .choices(let values):
      return NSArray(
        array: values.map { value -> NSObject in
          switch value {
          case .text(let text): return text as NSString
          case .integer(let number): return NSNumber(value: number)
          }
        })
    case .scale(let value): return NSNumber(value: value)
    case .number(let decimal, _): return DecimalNumberRecord(decimal)
    case .text(let text): return text as NSString
    case .date(let instant, _): return date(instant)
    case .timeOfDay(let hour, let minute): return DateComponentsRecord(hour: hour, minute: minute)
    case .timeInterval(let seconds): return NSNumber(value: Double(seconds))
    }
  }

  private func date(_ instant: Micros) -> NSDate {
    NSDate(timeIntervalSinceReferenceDate: instant.referenceSeconds)
  }

  private func timeZone(_ name: String) -> TimeZoneRecord {
    if let zone = zones[name] { return zone }
    let zone = TimeZoneRecord(name: name)
    zones[name] = zone
    return zone
  }

  private func calendar(_ name: String, zone: TimeZoneRecord) -> CalendarRecord {
    if let calendar = calendars[name] { return calendar }
    let calendar = CalendarRecord(timeZone: zone, locale: locale)
    calendars[name] = calendar
    return calendar
  }
}
