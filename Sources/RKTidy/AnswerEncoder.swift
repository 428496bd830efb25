// Answer → cells, per design.md §4 "Answer encoding": shared by answers.csv and the wide tables.
import RKModel
import RKTable

/// The value columns of one answers row (everything but the run, step and timing columns).
struct AnswerValue: Equatable {
  var value: Cell = .empty
  var number: Cell = .empty
  var datetime: Cell = .empty
  var unit: Cell = .empty
  var timeZone: Cell = .empty
  var latitude: Cell = .empty
  var longitude: Cell = .empty
  var contentType: Cell = .empty
}

/// Turns answers into value cells. Date-only answers need a zone to name their local day: the
/// zone archived with the answer, else the output zone (`--tz`, UTC by default).
struct AnswerEncoder: Sendable {
  let outputZone: TimeZoneRule
  let zones: ZoneCache

  init(outputZone: TimeZoneRule) {
    self.outputZone = outputZone
    zones = ZoneCache()
  }

  /// One entry per answers row; skipped and don't-know answers give one empty entry.
  /// `className` labels generic fields in their JSON (`"_class"`), so the result kind is kept.
  func values(of answer: Answer, className: String? = nil) -> [AnswerValue] {
    var values: [AnswerValue] = []
    withUnsafePointer(to: answer) { answer in
      forEachValue(of: answer, className: className) { values.append($0) }
    }
    return values
  }

  /// Calls `body` with each entry `values(of:className:)` returns, in order, without an array.
  /// The answer is read where it is (through a pointer): passed as a value from a result in
  /// an array, it was copied whole first for `body`'s sake.
  func forEachValue(
    of answer: UnsafePointer<Answer>, className: String? = nil, _ body: (AnswerValue) -> Void
  ) {
    switch answer.pointee {
    case .skipped, .dontKnow:
      body(AnswerValue())
    case .boolean(let flag):
      body(AnswerValue(value: .bool(flag), number: .integer(flag ? 1 : 0)))
    case .choices(let choices), .components(let choices, _):
      guard !choices.isEmpty else { return body(AnswerValue()) }
      for choice in choices { body(choiceValue(choice)) }
    case .scale(let number), .sesRung(let number):
      body(AnswerValue(value: Self.cell(number), number: Self.cell(number)))
    case .numeric(let number, let unit, let displayUnit):
      let unitText = unit ?? displayUnit
      body(
        AnswerValue(
          value: Self.cell(number), number: Self.cell(number),
          unit: unitText.map { .text($0) } ?? .empty))
    case .text(let text):
      body(AnswerValue(value: .text(text)))
    case .date(let date):
      body(dateValue(date))
    case .timeOfDay(let time):
      body(
        AnswerValue(
          value: .text(Self.clockText(time)),
          number: time.secondsSinceMidnight.map { .integer(Int64($0)) } ?? .empty))
    case .timeInterval(let seconds):
      let number = Self.cell(NumberValue(seconds))
      body(AnswerValue(value: number, number: number))
    case .location(let location):
      body(locationValue(location))
    case .file(let file):
      body(
        AnswerValue(
          value: file.path.map { .text($0) } ?? .empty,
          contentType: file.contentType.map { .text($0) } ?? .empty))
    case .fields(let fields):
      let object: KeyedValue =
        className.map { .object(className: $0, fields: fields) } ?? .dictionary(fields)
      body(AnswerValue(value: .text(object.jsonText)))
    }
  }

  private func choiceValue(_ choice: ChoiceValue) -> AnswerValue {
    switch choice {
    case .text(let text): return AnswerValue(value: .text(text))
    case .number(let number):
      return AnswerValue(value: Self.cell(number), number: Self.cell(number))
    case .date(let instant):
      let cell = Self.cell(instant)
      return AnswerValue(value: cell, datetime: cell)
    case .null: return AnswerValue()
    }
  }

  private func dateValue(_ date: DateAnswer) -> AnswerValue {
    let instant = Self.cell(date.instant)
    var result = AnswerValue(value: instant, datetime: instant)
    result.timeZone = date.timeZone.flatMap(Self.zoneText).map { .text($0) } ?? .empty
    if date.isDateOnly == true, let ms = date.instant.millisecondsSince1970 {
      let offset = offsetSeconds(of: date.timeZone, atMillisecondsSince1970: ms)
      result.value = .text(ISO8601.localDate(millisecondsSince1970: ms, offsetSeconds: offset))
    }
    return result
  }

  private func locationValue(_ location: LocationAnswer) -> AnswerValue {
    var result = AnswerValue()
    if let text = location.address ?? location.userInput { result.value = .text(text) }
    if let latitude = location.latitude { result.latitude = Self.cell(NumberValue(latitude)) }
    if let longitude = location.longitude { result.longitude = Self.cell(NumberValue(longitude)) }
    return result
  }

  /// Offset east of UTC of an archived zone: a named zone from the tz database, else the
  /// archived offset, else the output zone.
  func offsetSeconds(of zone: TimeZoneInfo?, atMillisecondsSince1970 ms: Int64) -> Int {
    if let name = zone?.name, let rule = zones.rule(named: name) {
      return rule.offsetSeconds(atMillisecondsSince1970: ms)
    }
    if let seconds = zone?.secondsFromGMT, abs(seconds) <= 18 * 3600 { return seconds }
    return outputZone.offsetSeconds(atMillisecondsSince1970: ms)
  }

  // MARK: - Cell helpers

  static func cell(_ number: NumberValue) -> Cell {
    .number(text: number.text, value: number.double)
  }

  /// An instant cell, or empty when the instant is beyond what outputs can write.
  static func cell(_ instant: Instant) -> Cell {
    instant.millisecondsSince1970.map { .instant(millisecondsSince1970: $0) } ?? .empty
  }

  /// `HH:MM`, or `HH:MM:SS` when seconds were set (24-hour clock, as archived).
  static func clockText(_ time: TimeOfDay) -> String {
    var text = pad2(time.hour) + ":" + pad2(time.minute)
    if let second = time.second { text += ":" + pad2(second) }
    return text
  }

  /// The zone's name, else its offset as `±HH:MM` (ISO 8601).
  static func zoneText(_ zone: TimeZoneInfo) -> String? {
    if let name = zone.name { return name }
    guard let seconds = zone.secondsFromGMT else { return nil }
    let minutes = abs(seconds) / 60
    return (seconds < 0 ? "-" : "+") + pad2(minutes / 60) + ":" + pad2(minutes % 60)
  }

  private static func pad2(_ value: Int) -> String {
    value >= 0 && value < 10 ? "0\(value)" : "\(value)"
  }
}
