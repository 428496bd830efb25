// Offsets of named zones, cached per UTC hour: an hour in which a zone's offset changes must
// not lend one instant's offset to another.
import Foundation
import RKTable
import XCTest

final class TimeZoneRuleTests: XCTestCase {
  /// Milliseconds since 1970 of a UTC wall-clock time.
  private func ms(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(
      from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    return Int64(date.timeIntervalSince1970 * 1000)
  }

  /// St. John's, Newfoundland left daylight time (UTC−2:30) for standard time (UTC−3:30) on
  /// Sunday 2023-11-05 at 02:00 local daylight time, 04:30 UTC: the UTC hour 04 holds both
  /// offsets. Each instant gets its own, whichever of them was asked for first.
  func testOffset_HalfHourZoneLeavingDaylightTime_EachSideOfTheHourItsOwnOffset() throws {
    let daylight = -(2 * 3600 + 1800)
    let standard = -(3 * 3600 + 1800)
    let before = ms(2023, 11, 5, 4, 10)
    let after = ms(2023, 11, 5, 4, 50)
    let earlierFirst = try XCTUnwrap(TimeZoneRule(identifier: "America/St_Johns"))
    XCTAssertEqual(earlierFirst.offsetSeconds(atMillisecondsSince1970: before), daylight)
    XCTAssertEqual(earlierFirst.offsetSeconds(atMillisecondsSince1970: after), standard)
    let laterFirst = try XCTUnwrap(TimeZoneRule(identifier: "America/St_Johns"))
    XCTAssertEqual(laterFirst.offsetSeconds(atMillisecondsSince1970: after), standard)
    XCTAssertEqual(laterFirst.offsetSeconds(atMillisecondsSince1970: before), daylight)
    // Asked again: the same (the hour is not cached with either offset).
    XCTAssertEqual(laterFirst.offsetSeconds(atMillisecondsSince1970: after), standard)
    XCTAssertEqual(laterFirst.offsetSeconds(atMillisecondsSince1970: before), daylight)
  }

  /// Lord Howe Island moves by half an hour: daylight time (UTC+11) began on Sunday
  /// 2023-10-01 at 02:00 local standard time (UTC+10:30), 15:30 UTC on 2023-09-30.
  func testOffset_HalfHourDaylightShift_EachSideOfTheHourItsOwnOffset() throws {
    let rule = try XCTUnwrap(TimeZoneRule(identifier: "Australia/Lord_Howe"))
    let after = ms(2023, 9, 30, 15, 45)
    let before = ms(2023, 9, 30, 15, 15)
    XCTAssertEqual(rule.offsetSeconds(atMillisecondsSince1970: after), 11 * 3600)
    XCTAssertEqual(rule.offsetSeconds(atMillisecondsSince1970: before), 10 * 3600 + 1800)
  }

  /// A zone that changes on the hour: every instant of a year as Foundation gives it, asked
  /// twice (the second answer comes from the hour's cached offset; the test sees only that
  /// both are right).
  func testOffset_OrdinaryHours_SameAsFoundation() throws {
    let zone = try XCTUnwrap(TimeZone(identifier: "Europe/Zurich"))
    let rule = try XCTUnwrap(TimeZoneRule(identifier: "Europe/Zurich"))
    // Every 37 minutes through 2023 (both transitions included), twice each.
    var instant = ms(2023, 1, 1, 0, 0)
    for _ in 0..<(365 * 24 * 60 / 37) {
      let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))
      XCTAssertEqual(rule.offsetSeconds(atMillisecondsSince1970: instant), expected)
      XCTAssertEqual(rule.offsetSeconds(atMillisecondsSince1970: instant), expected)
      instant += 37 * 60_000
    }
  }
}
