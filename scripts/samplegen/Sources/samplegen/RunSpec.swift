// The plain description of a task run: what the archive encoder writes and what the ground truth
// says, both derived from this one value so they cannot disagree.
import Foundation

/// Which ResearchKit archive layout a run is written in (formats.md §3.2, §3.7).
enum ArchiveLayout: String {
  /// ResearchKit 1.4: answers under the legacy keys, 1.0–1.4 `questionType` numbering.
  case legacy = "rk1.4"
  /// ResearchKit 2.1.1 and later: `typedAnswerOrNoAnswer`, `ORKDevice`, `ORKDontKnowAnswer`.
  case current = "rk3"
}

/// An instant as whole microseconds since 2001-01-01T00:00:00Z (NSDate's reference date).
struct Micros: Comparable, Hashable {
  var value: Int64

  static func < (lhs: Micros, rhs: Micros) -> Bool { lhs.value < rhs.value }

  func adding(seconds: Int, micros: Int64 = 0) -> Micros {
    Micros(value: value + Int64(seconds) * 1_000_000 + micros)
  }

  /// `NSDate.NS.time`.
  var referenceSeconds: Double { Double(value) / 1_000_000 }

  /// Milliseconds since 1970, rounded to nearest (the generator keeps clear of the .5 boundary).
  var unixMilliseconds: Int64 {
    let unixMicros = value + 978_307_200 * 1_000_000
    let (quotient, remainder) = unixMicros.quotientAndRemainder(dividingBy: 1000)
    if remainder >= 500 { return quotient + 1 }
    if remainder <= -500 { return quotient - 1 }
    return quotient
  }
}

/// The kind of question, which fixes the result class and its `questionType` in each layout.
enum QuestionKind {
  case boolean, singleChoice, multipleChoice, scale, integer, decimal, text
  case date, dateAndTime, timeOfDay, timeInterval

  /// The ResearchKit result class.
  var className: String {
    switch self {
    case .boolean: return "ORKBooleanQuestionResult"
    case .singleChoice, .multipleChoice: return "ORKChoiceQuestionResult"
    case .scale: return "ORKScaleQuestionResult"
    case .integer, .decimal: return "ORKNumericQuestionResult"
    case .text: return "ORKTextQuestionResult"
    case .date, .dateAndTime: return "ORKDateQuestionResult"
    case .timeOfDay: return "ORKTimeOfDayQuestionResult"
    case .timeInterval: return "ORKTimeIntervalQuestionResult"
    }
  }

  /// The pre-2.1.1 answer key (formats.md §3.2).
  var legacyAnswerKey: String {
    switch self {
    case .boolean: return "booleanAnswer"
    case .singleChoice, .multipleChoice: return "choiceAnswers"
    case .scale: return "scaleAnswer"
    case .integer, .decimal: return "numericAnswer"
    case .text: return "textAnswer"
    case .date, .dateAndTime: return "dateAnswer"
    case .timeOfDay: return "dateComponentsAnswer"
    case .timeInterval: return "intervalAnswer"
    }
  }

  /// `ORKQuestionType` as compiled in each layout's ResearchKit version (formats.md §3.3:
  /// 1.0–1.4 numbering for the legacy layout, 2.1.0–3.0.1 numbering for the current one).
  func questionType(_ layout: ArchiveLayout) -> Int {
    let legacy: Int
    switch self {
    case .scale: legacy = 1
    case .singleChoice: legacy = 2
    case .multipleChoice: legacy = 3
    case .decimal: legacy = 4
    case .integer: legacy = 5
    case .boolean: legacy = 6
    case .text: legacy = 7
    case .timeOfDay: legacy = 8
    case .dateAndTime: legacy = 9
    case .date: legacy = 10
    case .timeInterval: legacy = 11
    }
    // MultiplePicker was inserted at 4 in 1.5, so every value from Decimal on moved up by one.
    if layout == .current, legacy >= 4 { return legacy + 1 }
    return legacy
  }

  /// RKModel's `AnswerType` raw value: the `answer_type` column.
  var answerType: String {
    switch self {
    case .boolean: return "boolean"
    case .singleChoice, .multipleChoice: return "choice"
    case .scale: return "scale"
    case .integer, .decimal: return "numeric"
    case .text: return "text"
    case .date, .dateAndTime: return "date"
    case .timeOfDay: return "time_of_day"
    case .timeInterval: return "time_interval"
    }
  }
}

/// A decimal number as `NSDecimalNumber` holds it: (−1)^negative × mantissa × 10^exponent.
struct DecimalSpec {
  var mantissa: UInt64
  var exponent: Int
  var negative = false
  /// False archives the mantissa uncompacted (trailing zeros kept, e.g. 3850 × 10^-2).
  var compact = true

  /// The number as answers.csv must show it: shortest exact decimal, no trailing zeros.
  var canonicalText: String {
    var digits = String(mantissa)
    var exp = exponent
    while exp < 0, digits.count > 1, digits.hasSuffix("0") {
      digits.removeLast()
      exp += 1
    }
    var text: String
    if mantissa == 0 {
      text = "0"
    } else if exp >= 0 {
      text = digits + String(repeating: "0", count: exp)
    } else {
      let places = -exp
      if digits.count <= places {
        digits = String(repeating: "0", count: places - digits.count + 1) + digits
      }
      let split = digits.index(digits.endIndex, offsetBy: -places)
      text = digits[..<split] + "." + digits[split...]
    }
    return negative && mantissa != 0 ? "-" + text : text
  }
}

/// One chosen value of a choice question.
enum ChoiceSpec: Equatable {
  case text(String)
  case integer(Int)
}

/// The answer of one question result.
enum AnswerSpec {
  /// The result exists with a nil answer (an optional question left blank).
  case skipped
  /// `ORKDontKnowAnswer` (current layout only).
  case dontKnow
  case boolean(Bool)
  case choices([ChoiceSpec])
  case scale(Int)
  case number(DecimalSpec, unit: String)
  case text(String)
  /// An instant with the zone the device used; `kind` says date-only or date and time.
  case date(Micros, zoneName: String)
  case timeOfDay(hour: Int, minute: Int)
  case timeInterval(seconds: Int)
}

/// One question result inside a step.
struct QuestionSpec {
  var itemID: String
  var kind: QuestionKind
  var answer: AnswerSpec
  var start: Micros
  var end: Micros
}

/// One step result: an instruction step has no questions, a form step several.
struct StepSpec {
  var stepID: String
  var start: Micros
  var end: Micros
  var questions: [QuestionSpec] = []
}

/// One task run, and where it is written.
struct RunSpec {
  var participantID: String
  var taskID: String
  var runUUID: UUID
  var layout: ArchiveLayout
  var start: Micros
  var end: Micros
  var steps: [StepSpec]
}
