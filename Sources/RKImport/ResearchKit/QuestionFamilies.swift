// One decoder per ResearchKit question-result class (formats.md §3.2 table).
import RKModel

/// `ORKBooleanQuestionResult`: NSNumber; any nonzero number is true.
enum BooleanQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.boolean
  static let legacyKey = FieldKey.booleanAnswer

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    try object.bool(key).map { .boolean($0) }
  }
}

/// `ORKChoiceQuestionResult`: an array of strings, numbers, dates or nulls, in archive order.
enum ChoiceQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.choice
  static let legacyKey = FieldKey.choiceAnswers

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    try object.choiceValues(key).map { .choices($0) }
  }
}

/// `ORKScaleQuestionResult`: NSNumber.
enum ScaleQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.scale
  static let legacyKey = FieldKey.scaleAnswer

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    try object.number(key).map { .scale($0) }
  }
}

/// `ORKTextQuestionResult`: the text exactly as typed.
enum TextQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.text
  static let legacyKey = FieldKey.textAnswer

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    try object.string(key).map { .text($0) }
  }
}

/// `ORKNumericQuestionResult`: usually an NSDecimalNumber (what iOS creates from typed text),
/// with `unit` and (≥ 2.2.9) `displayUnit`.
enum NumericQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.numeric
  static let legacyKey = FieldKey.numericAnswer
  static let detailKeys: [FieldKey] = [.unit, .displayUnit]

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    guard let number = try object.number(key) else { return nil }
    return .numeric(
      number, unit: try object.string(.unit), displayUnit: try object.string(.displayUnit))
  }
}

/// `ORKTimeOfDayQuestionResult`: NSDateComponents with hour and minute.
enum TimeOfDayQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.timeOfDay
  static let legacyKey = FieldKey.dateComponentsAnswer

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    try object.timeOfDay(key).map { .timeOfDay($0) }
  }
}

/// `ORKTimeIntervalQuestionResult`: seconds.
enum TimeIntervalQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.timeInterval
  static let legacyKey = FieldKey.intervalAnswer

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    try object.number(key).map { .timeInterval($0.double) }
  }
}

/// `ORKDateQuestionResult`: NSDate with `calendar` and `timeZone`. Like ResearchKit's decoder it
/// tolerates other values and treats them as no date, keeping them in `extra`. Whether the
/// question was date-only is settled later from the archive's `questionType` numbering.
enum DateQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.date
  static let legacyKey = FieldKey.dateAnswer
  static let detailKeys: [FieldKey] = [.calendar, .timeZone]

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    let instant: Instant?
    do {
      instant = try object.instant(key)
    } catch {
      extra.append(Field(key.name, try object.keyedValue(key) ?? .null))
      return nil
    }
    guard let instant else { return nil }
    return .date(
      DateAnswer(
        instant: instant, timeZone: try object.timeZone(.timeZone),
        calendar: try object.calendarIdentifier(.calendar)))
  }
}

/// `ORKMultipleComponentQuestionResult` (≥ 1.5): one value per picker component.
enum MultipleComponentQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.multipleComponent
  static let legacyKey = FieldKey.componentsAnswer
  static let detailKeys: [FieldKey] = [.separator]

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    guard let values = try object.choiceValues(key) else { return nil }
    return .components(values, separator: try object.string(.separator))
  }
}

/// `ORKSESQuestionResult` (≥ 2.1.0): the rung picked on the ladder.
enum SESQuestionFamily: QuestionFamily {
  static let answerType = AnswerType.ses
  static let legacyKey = FieldKey.rungPicked

  static func value<Object: ResultObject>(
    of object: Object, key: FieldKey, extra: inout [Field]
  ) throws(ImportError) -> Answer? {
    try object.number(key).map { .sesRung($0) }
  }
}
