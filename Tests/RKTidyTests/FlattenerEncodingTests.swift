// design.md §4 "Answer encoding", one answer kind per test, expected cells worked out by hand.
import RKModel
import RKTable
import XCTest

@testable import RKTidy

final class FlattenerEncodingTests: XCTestCase {
  /// The answers columns that depend on the answer, by name; empty cells left out.
  private func encoded(
    _ answer: Answer, _ type: AnswerType, zone: TimeZoneRule = .utc, className: String? = nil
  ) -> [[String: Cell]] {
    var record = result("q", type, answer)
    if let className { record.className = className }
    let names = [
      "status", "value_index", "value", "value_number", "value_datetime", "unit", "time_zone",
      "latitude", "longitude", "content_type",
    ]
    return Flattener(timeZone: zone).answerRows(makeRun([record])).map { row in
      var byName: [String: Cell] = [:]
      for name in names {
        if let value = cell(row, name, in: ExportSchemas.answers), value != .empty {
          byName[name] = value
        }
      }
      return byName
    }
  }

  private let answered: [String: Cell] = ["status": .text("answered"), "value_index": .integer(1)]

  private func merged(_ extra: [String: Cell], index: Int64 = 1) -> [String: Cell] {
    var row = answered.merging(extra) { $1 }
    row["value_index"] = .integer(index)
    return row
  }

  func testEncoding_MultipleChoice_OneRowPerValueInArchiveOrder() {
    let rows = encoded(
      .choices([.text("walk"), .number(NumberValue(2)), .null, .date(t0)]), .choice)
    XCTAssertEqual(
      rows,
      [
        merged(["value": .text("walk")], index: 1),
        merged(["value": num("2", 2), "value_number": num("2", 2)], index: 2),
        merged([:], index: 3),
        merged(["value": ms(0), "value_datetime": ms(0)], index: 4),
      ])
  }

  func testEncoding_EmptyChoice_OneSkippedRow() {
    XCTAssertEqual(
      encoded(.choices([]), .choice), [["status": .text("skipped"), "value_index": .integer(1)]])
  }

  func testEncoding_SkippedAndDontKnow_OneRowWithoutValues() {
    XCTAssertEqual(
      encoded(.skipped, .numeric), [["status": .text("skipped"), "value_index": .integer(1)]])
    XCTAssertEqual(
      encoded(.dontKnow, .numeric), [["status": .text("dont_know"), "value_index": .integer(1)]])
  }

  func testEncoding_NumericWithUnit_NumberAndUnit() {
    let weight = NumberValue(text: "72.5", double: 72.5, isInteger: false)
    XCTAssertEqual(
      encoded(.numeric(weight, unit: "kg", displayUnit: "lb"), .numeric),
      [
        merged(["value": num("72.5", 72.5), "value_number": num("72.5", 72.5), "unit": .text("kg")])
      ])
    XCTAssertEqual(
      encoded(.numeric(weight, unit: nil, displayUnit: "lb"), .numeric)[0]["unit"], .text("lb"))
  }

  func testEncoding_ScaleAndSES_Number() {
    XCTAssertEqual(
      encoded(.scale(NumberValue(7)), .scale),
      [merged(["value": num("7", 7), "value_number": num("7", 7)])])
    XCTAssertEqual(
      encoded(.sesRung(NumberValue(3)), .ses),
      [merged(["value": num("3", 3), "value_number": num("3", 3)])])
  }

  func testEncoding_Text_ExactlyAsTyped() {
    let typed = "  Hello, \"world\"\r\nsecond line\t "
    XCTAssertEqual(encoded(.text(typed), .text), [merged(["value": .text(typed)])])
  }

  func testEncoding_DateOnlyNamedZone_LocalDayInThatZone() {
    // 2016-05-16T22:00:00Z is 2016-05-17 00:00 in Zurich (CEST, UTC+2).
    let instant = Instant(secondsSince1970: 1_463_436_000)
    let date = DateAnswer(
      instant: instant, timeZone: TimeZoneInfo(name: "Europe/Zurich"), isDateOnly: true)
    XCTAssertEqual(
      encoded(.date(date), .date),
      [
        merged([
          "value": .text("2016-05-17"),
          "value_datetime": .instant(millisecondsSince1970: 1_463_436_000_000),
          "time_zone": .text("Europe/Zurich"),
        ])
      ])
  }

  func testEncoding_DateOnlyOffsetZone_LocalDayAtOffset() {
    // 22:00Z at UTC−7 is 15:00 the same day.
    let date = DateAnswer(
      instant: Instant(secondsSince1970: 1_463_436_000),
      timeZone: TimeZoneInfo(secondsFromGMT: -25_200), isDateOnly: true)
    let row = encoded(.date(date), .date)[0]
    XCTAssertEqual(row["value"], .text("2016-05-16"))
    XCTAssertEqual(row["time_zone"], .text("-07:00"))
  }

  func testEncoding_DateOnlyWithoutZone_DayInOutputZone() {
    let date = DateAnswer(instant: Instant(secondsSince1970: 1_463_436_000), isDateOnly: true)
    XCTAssertEqual(encoded(.date(date), .date)[0]["value"], .text("2016-05-16"))
    let zurich = TimeZoneRule(identifier: "Europe/Zurich") ?? .utc
    XCTAssertEqual(encoded(.date(date), .date, zone: zurich)[0]["value"], .text("2016-05-17"))
    XCTAssertNil(encoded(.date(date), .date)[0]["time_zone"])
  }

  func testEncoding_DateAndTime_InstantInBothColumns() {
    let date = DateAnswer(
      instant: t0, timeZone: TimeZoneInfo(name: "GMT-0700"), isDateOnly: false)
    XCTAssertEqual(
      encoded(.date(date), .date),
      [merged(["value": ms(0), "value_datetime": ms(0), "time_zone": .text("GMT-0700")])])
  }

  func testEncoding_TimeOfDay_ClockTextAndSecondsSinceMidnight() {
    XCTAssertEqual(
      encoded(.timeOfDay(TimeOfDay(hour: 7, minute: 5)), .timeOfDay),
      [merged(["value": .text("07:05"), "value_number": .integer(25_500)])])
    XCTAssertEqual(
      encoded(.timeOfDay(TimeOfDay(hour: 23, minute: 59, second: 9)), .timeOfDay),
      [merged(["value": .text("23:59:09"), "value_number": .integer(86_349)])])
  }

  /// Components beyond a clock's range are kept as recorded; seconds that do not fit an Int
  /// (a damaged archive: found by fuzzing, the sum trapped) leave value_number empty.
  func testEncoding_TimeOfDay_HugeComponents_TextKeptNumberEmpty() {
    let huge = TimeOfDay(hour: 2_562_047_788_015_216, minute: 0)
    XCTAssertNil(huge.secondsSinceMidnight)
    XCTAssertEqual(
      encoded(.timeOfDay(huge), .timeOfDay),
      [merged(["value": .text("2562047788015216:00")])])
    XCTAssertNil(TimeOfDay(hour: 0, minute: Int.min).secondsSinceMidnight)
    XCTAssertEqual(TimeOfDay(hour: 25, minute: -1, second: 2).secondsSinceMidnight, 89_942)
  }

  func testEncoding_TimeInterval_Seconds() {
    XCTAssertEqual(
      encoded(.timeInterval(5400.5), .timeInterval),
      [merged(["value": num("5400.5", 5400.5), "value_number": num("5400.5", 5400.5)])])
  }

  func testEncoding_Location_AddressThenCoordinates() {
    let location = LocationAnswer(
      latitude: 47.3769, longitude: 8.5417, userInput: "Zuri", address: "Bahnhofplatz, Zürich")
    XCTAssertEqual(
      encoded(.location(location), .location),
      [
        merged([
          "value": .text("Bahnhofplatz, Zürich"), "latitude": num("47.3769", 47.3769),
          "longitude": num("8.5417", 8.5417),
        ])
      ])
    let typedOnly = LocationAnswer(userInput: "Zuri")
    XCTAssertEqual(encoded(.location(typedOnly), .location), [merged(["value": .text("Zuri")])])
  }

  func testEncoding_MultipleComponent_OneRowPerComponent() {
    XCTAssertEqual(
      encoded(
        .components([.number(NumberValue(5)), .text("10 in")], separator: "'"),
        .multipleComponent),
      [
        merged(["value": num("5", 5), "value_number": num("5", 5)], index: 1),
        merged(["value": .text("10 in")], index: 2),
      ])
  }

  func testEncoding_File_PathAndContentType() {
    let file = FileAnswer(path: "Documents/audio 1.m4a", contentType: "audio/x-m4a")
    XCTAssertEqual(
      encoded(.file(file), .file),
      [merged(["value": .text("Documents/audio 1.m4a"), "content_type": .text("audio/x-m4a")])])
  }

  func testEncoding_GenericFields_JSONWithClass() {
    let fields = [
      Field("tapCount", .number(NumberValue(12))),
      Field("samples", .array([.bool(true), .null, .string("a\"b")])),
    ]
    XCTAssertEqual(
      encoded(.fields(fields), .other, className: "ORKTappingIntervalResult"),
      [
        merged([
          "value": .text(
            #"{"_class":"ORKTappingIntervalResult","tapCount":12,"samples":[true,null,"a\"b"]}"#)
        ])
      ])
  }
}
