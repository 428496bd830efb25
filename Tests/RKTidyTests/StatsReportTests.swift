// The `rkexport stats` terminal report: content of the survey fixture, widths and formats.
import RKModel
import XCTest

@testable import RKTidy

final class StatsReportTests: XCTestCase {
  func testStatsReport_Survey_ShowsHeaderCountsNumbersAndOptions() {
    // Counts as worked out in StatisticsFixture.survey(); median run duration 100 s.
    let expected = """
      survey: 3 runs, 2 participants, median duration 1m40s
        item      type     answered  skipped  dk  n/p  mean  median  min  max  | top options
        q1        scale           2        0   1    0     4       4    3    5
        q2        choice          2        1   0    0  a 2 (100%), c 1 (50%)
        age       numeric         2        0   0    1    35      35   30   40
        mood      text            1        1   0    1

      dk = answered "don't know"; n/p = not presented (branched past or run ended).

      """
    XCTAssertEqual(StatsReport.render(statistics(StatisticsFixture.survey())), expected)
  }

  func testStatsReport_NoRuns_SaysSo() {
    XCTAssertEqual(StatsReport.render([]), "No task runs.\n")
  }

  func testStatsReport_LongItemsAndOptions_StayWithinWidth() {
    let options = (1...30).map { ChoiceValue.text("option number \($0)") }
    let run = StatisticsFixture.run(
      task: "a-task-with-a-rather-long-identifier-that-goes-on-and-on-and-on-and-on", source: "a",
      steps: [
        ("s", [(String(repeating: "long_item_", count: 8), .choice, .choices(options))]),
        (
          "t",
          [("x", .numeric, .numeric(NumberValue(123_456_789.125), unit: nil, displayUnit: nil))]
        ),
      ])
    for width in [40, 60, 100] {
      let lines = StatsReport.render(statistics([run]), width: width).split(separator: "\n")
      XCTAssertTrue(lines.allSatisfy { $0.count <= width }, "width \(width)")
      XCTAssertTrue(lines.contains { $0.hasSuffix("…") }, "width \(width)")
    }
  }

  func testStatsReportValueText_DatesTimesAndNumbers_ReadAsTheyWereAsked() {
    // 1463427265.846 s = 2016-05-16T19:34:25.846Z.
    XCTAssertEqual(StatsReport.valueText(1_463_427_265.846, type: .date), "2016-05-16")
    XCTAssertEqual(StatsReport.valueText(27_000, type: .timeOfDay), "07:30")
    XCTAssertEqual(StatsReport.valueText(2.0 / 3, type: .scale), "0.667")
    XCTAssertEqual(StatsReport.valueText(-12, type: .numeric), "-12")
  }

  func testStatsReportDurationText_Ranges_UseSecondsMinutesHours() {
    XCTAssertEqual(StatsReport.durationText(12.46), "12.5s")
    XCTAssertEqual(StatsReport.durationText(100), "1m40s")
    XCTAssertEqual(StatsReport.durationText(3600 * 2 + 5 * 60 + 10), "2h05m")
    // Beyond an Int's seconds (a damaged archive's end date; found by fuzzing, it trapped).
    XCTAssertEqual(StatsReport.durationText(1e19), "1e+19s")
    XCTAssertEqual(StatsReport.durationText(-1e300), "-1e+300s")
    XCTAssertEqual(StatsReport.valueText(1e300, type: .timeOfDay), "1e+300")
  }

  private func statistics(_ runs: [TaskRun]) -> [TaskStatistics] {
    var collector = StatisticsCollector()
    for run in runs { collector.add(run) }
    return collector.statistics()
  }
}
