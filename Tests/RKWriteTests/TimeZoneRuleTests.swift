// Offsets of named zones, worked out per block from the zone's transitions: every instant must
// get the offset Foundation gives it, on both sides of every change.
import Foundation
import RKTable
import RKTestSupport
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

  /// Every zone the system knows, at seeded random instants from 1850 to 2150 and at both
  /// sides of each transition found there: the offset and the span's two ends agree with
  /// Foundation. The hours around each transition are asked too, so that its block is worked
  /// out from the zone's transitions (after `blockAfterMisses` hours), and every instant is
  /// asked twice: the first time mostly by the hour, the second by the block.
  func testOffset_EveryKnownZone_SameAsFoundation() throws {
    var random = SplitMix(seed: 20_261_127)
    let earliest: Int64 = -3_786_825_600_000  // 1850-01-01
    let latest: Int64 = 5_680_281_600_000  // 2150-01-01
    func foundation(_ zone: TimeZone, _ ms: Int64) -> Int {
      zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
    var zonesChecked = 0
    var transitionsChecked = 0
    for identifier in TimeZone.knownTimeZoneIdentifiers {
      let zone = try XCTUnwrap(TimeZone(identifier: identifier))
      let rule = try XCTUnwrap(TimeZoneRule(identifier: identifier), identifier)
      zonesChecked += 1
      var instants = (0..<60).map { _ in Int64.random(in: earliest...latest, using: &random) }
      // Both sides of the transitions between two of those instants.
      var cursor = Date(timeIntervalSince1970: Double(instants[0]) / 1000)
      for _ in 0..<8 {
        guard let next = zone.nextDaylightSavingTimeTransition(after: cursor) else { break }
        let ms = Int64((next.timeIntervalSince1970 * 1000).rounded(.up))
        instants += [ms - 1, ms, ms + 1]
        instants += (1...12).flatMap { [ms - $0 * 3_600_000, ms + $0 * 3_600_000] }
        transitionsChecked += 1
        cursor = next
      }
      instants.shuffle(using: &random)
      for ms in instants + instants {
        let span = rule.span(containing: ms)
        let expected = foundation(zone, ms)
        XCTAssertEqual(span.offsetSeconds, expected, "\(identifier) at \(ms)")
        XCTAssertTrue(span.contains(ms), "\(identifier) at \(ms)")
        XCTAssertEqual(foundation(zone, span.first), expected, "\(identifier) span from \(ms)")
        XCTAssertEqual(foundation(zone, span.last), expected, "\(identifier) span to \(ms)")
        XCTAssertEqual(rule.offsetSeconds(atMillisecondsSince1970: ms), expected)
      }
    }
    XCTAssertGreaterThan(zonesChecked, 300)
    XCTAssertGreaterThan(transitionsChecked, 1_000)
  }

  /// A span ends where the offset changes: Zurich's last span of winter 2023 ends the
  /// millisecond before 01:00 UTC on 26 March, and the next begins there.
  func testSpan_EndsAtTheTransition() throws {
    let rule = try XCTUnwrap(TimeZoneRule(identifier: "Europe/Zurich"))
    let change = ms(2023, 3, 26, 1, 0)
    let winter = rule.span(containing: change - 3_600_000)
    XCTAssertEqual(winter.offsetSeconds, 3600)
    XCTAssertEqual(winter.last, change - 1)
    let summer = rule.span(containing: change)
    XCTAssertEqual(summer.offsetSeconds, 7200)
    XCTAssertEqual(summer.first, change)
    XCTAssertEqual(TimeZoneRule.utc.span(containing: change).offsetSeconds, 0)
    XCTAssertTrue(TimeZoneRule.utc.span(containing: change).contains(.max))
  }
}
