// The ground truth: what answers.csv, steps.csv, task_runs.csv and inputs.csv must contain for
// the sample study, derived from the RunSpecs the archives were written from (design.md §4).
import Foundation

/// ISO 8601 text computed here, independently of rkexport's formatter.
enum ISOText {
  private static let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    return calendar
  }()

  /// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
  static func utc(_ instant: Micros) -> String {
    let ms = instant.unixMilliseconds
    let (seconds, millis) = floorDivide(ms, 1000)
    let date = Date(timeIntervalSince1970: Double(seconds))
    let parts = utcCalendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: date)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year ?? 0, parts.month ?? 0,
      parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, Int(millis))
  }

  /// The calendar date of `instant` in the named zone, `YYYY-MM-DD`.
  static func localDate(_ instant: Micros, zoneName: String) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zoneName) ?? calendar.timeZone
    let date = Date(timeIntervalSinceReferenceDate: instant.referenceSeconds)
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }
}

enum Truth {
  /// The JSON document written to Tests/RKExportTests/Fixtures/samples-truth.json.
  static func document(_ files: [PlannedFile], inputRoot: String) -> [String: Any] {
    var runs: [[String: Any]] = []
    var inputs: [[String: Any]] = []
    for file in files {
      var answerCount = 0
      for (index, run) in file.runs.enumerated() {
        let source = file.runs.count > 1 ? "\(file.path)#\(index + 1)" : file.path
        let answers = run.steps.flatMap { step in
          step.questions.flatMap { rows($0, stepID: step.stepID) }
        }
        answerCount += answers.count
        runs.append([
          "file": inputRoot + "/" + file.path, "source": source, "layout": run.layout.rawValue,
          "participant_id": run.participantID, "task_id": run.taskID,
          "task_run_uuid": run.runUUID.uuidString, "task_start": ISOText.utc(run.start),
          "task_end": ISOText.utc(run.end), "task_duration_s": seconds(run.start, run.end),
          "n_steps": run.steps.count,
          "steps": run.steps.enumerated().map { stepIndex, step in
            [
              "step_index": stepIndex + 1, "step_id": step.stepID,
              "step_start": ISOText.utc(step.start), "step_end": ISOText.utc(step.end),
              "step_duration_s": seconds(step.start, step.end),
            ] as [String: Any]
          },
          "answers": answers,
        ])
      }
      inputs.append([
        "path": file.path,
        "format": file.format == .xml ? "keyed-archive-xml" : "keyed-archive-binary",
        "status": "ok", "task_runs": file.runs.count, "answers": answerCount,
      ])
    }
    return [
      "about": "Ground truth for `rkexport samples/\(inputRoot)`, written by scripts/samplegen "
        + "from the same specs as the archives (seed \(StudyPlan.seed)). Values are as "
        + "design.md §4 says they appear in answers.csv; null = empty cell.",
      "input_root": inputRoot, "task_runs": runs, "inputs": inputs,
    ]
  }

  /// answers.csv rows of one question result (several for a multiple choice).
  private static func rows(_ question: QuestionSpec, stepID: String) -> [[String: Any]] {
    var base: [String: Any] = [
      "step_id": stepID, "item_id": question.itemID, "answer_type": question.kind.answerType,
      "status": "answered", "value_index": NSNull(), "value": NSNull(), "value_number": NSNull(),
      "value_datetime": NSNull(), "unit": NSNull(), "time_zone": NSNull(),
      "answer_start": ISOText.utc(question.start), "answer_end": ISOText.utc(question.end),
      "answer_duration_s": seconds(question.start, question.end),
    ]
    func with(_ changes: [String: Any]) -> [String: Any] {
      base.merging(changes) { _, new in new }
    }
    switch question.answer {
    case .skipped, .choices([]):
      return [with(["status": "skipped"])]
    case .dontKnow:
      return [with(["status": "dont_know"])]
    case .boolean(let value):
      return [with(["value": value ? "true" : "false", "value_number": value ? "1" : "0"])]
    case .choices(let values):
      return values.enumerated().map { index, value in
        switch value {
        case .text(let text): return with(["value_index": index + 1, "value": text])
        case .integer(let number):
          return with(["value_index": index + 1, "value": "\(number)", "value_number": "\(number)"])
        }
      }
    case .scale(let value):
      return [with(["value": "\(value)", "value_number": "\(value)"])]
    case .number(let decimal, let unit):
      let text = decimal.canonicalText
      return [with(["value": text, "value_number": text, "unit": unit])]
    case .text(let text):
      return [with(["value": text])]
    case .date(let instant, let zoneName):
      let iso = ISOText.utc(instant)
      let dateOnly = question.kind == .date
      base["time_zone"] = zoneName
      return [
        with([
          "value": dateOnly ? ISOText.localDate(instant, zoneName: zoneName) : iso,
          "value_datetime": iso,
        ])
      ]
    case .timeOfDay(let hour, let minute):
      return [
        with([
          "value": String(format: "%02d:%02d", hour, minute),
          "value_number": "\(hour * 3600 + minute * 60)",
        ])
      ]
    case .timeInterval(let seconds):
      return [with(["value": "\(seconds)", "value_number": "\(seconds)"])]
    }
  }

  /// Exact seconds between two instants (microsecond precision; outputs round to ms).
  private static func seconds(_ start: Micros, _ end: Micros) -> Double {
    Double(end.value - start.value) / 1_000_000
  }
}
