// Which `questionType` numbering an archive uses, inferred from evidence inside it (§3.3).
import RKModel

/// The two numberings that matter for telling Date from DateAndTime: ResearchKit ≤ 1.4
/// (DateAndTime 9, Date 10) and ≥ 1.5, where MultiplePicker was inserted at 4 (DateAndTime 10,
/// Date 11). Later insertions (Height, Weight, SES…) happened above Date.
enum QuestionTypeNumbering: Sendable, Equatable {
  case throughVersion1Point4
  case fromVersion1Point5

  /// True for a date-only question, false for date-and-time, nil for other values.
  func isDateOnly(questionType: Int) -> Bool? {
    switch (self, questionType) {
    case (.throughVersion1Point4, 9), (.fromVersion1Point5, 10): false
    case (.throughVersion1Point4, 10), (.fromVersion1Point5, 11): true
    default: nil
    }
  }
}

/// Collects evidence for the numbering while an archive is decoded.
///
/// Evidence (formats.md §3.3, §3.7): `typedAnswerOrNoAnswer` or an ORKDevice exist only from
/// 2.1.1; MultipleComponent and SES results only from 1.5 and 2.1.0; and several classes
/// carry a `questionType` that differs between the numberings (Boolean 6 vs 7, Text 7 vs 8,
/// TimeOfDay 8 vs 9, TimeInterval 11 vs 12, Location 12/13 vs 14/15, Numeric Decimal 4 vs
/// Integer 6 and Height 12 vs 13+, Date 9 vs 11). Conflicting evidence decides nothing.
struct QuestionTypeEvidence: Sendable {
  private var sawOld = false
  private var sawNew = false

  /// The numbering all evidence agrees on, or nil.
  var numbering: QuestionTypeNumbering? {
    switch (sawOld, sawNew) {
    case (true, false): .throughVersion1Point4
    case (false, true): .fromVersion1Point5
    default: nil
    }
  }

  /// Records a fact that only ResearchKit ≥ 1.5 archives show.
  mutating func noteNewLayout() { sawNew = true }

  /// Records one question result's class family and `questionType`.
  mutating func note(_ answerType: AnswerType, questionType: Int?) {
    if answerType == .multipleComponent || answerType == .ses {
      sawNew = true
      return
    }
    guard let questionType, (0..<32).contains(questionType),
      let (old, new) = Self.values(answerType)
    else { return }
    let isOld = old & 1 << questionType != 0
    let isNew = new & 1 << questionType != 0
    if isOld && !isNew { sawOld = true }
    if isNew && !isOld { sawNew = true }
  }

  /// Per class family: `questionType` values possible with the ≤ 1.4 and ≥ 1.5 numberings,
  /// as bit sets (bit n for value n) in a switch, not sets in a dictionary: this runs for
  /// every question result.
  private static func values(_ answerType: AnswerType) -> (old: UInt32, new: UInt32)? {
    switch answerType {
    case .boolean: (1 << 6, 1 << 7)
    case .text: (1 << 7, 1 << 8)
    case .timeOfDay: (1 << 8, 1 << 9)
    case .timeInterval: (1 << 11, 1 << 12)
    case .location: (1 << 12 | 1 << 13, 1 << 14 | 1 << 15)
    case .numeric:
      (1 << 4 | 1 << 5 | 1 << 12, 1 << 5 | 1 << 6 | 1 << 13 | 1 << 14 | 1 << 17 | 1 << 18)
    case .date: (1 << 9 | 1 << 10, 1 << 10 | 1 << 11)
    default: nil
    }
  }
}
