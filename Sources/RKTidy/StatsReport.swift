// The terminal report of `rkexport stats`: one aligned block per task, no line wider than asked.
import RKModel
import RKTable

/// Renders task statistics as plain text for a terminal.
///
/// Each task block opens with a header (runs, participants, median run duration), then one line
/// per question: item, type, answered, skipped, don't know, not presented, then mean, median,
/// min and max for numeric answers or the most chosen options for choice questions. Lines never
/// exceed `width` characters: long item ids and option lists are cut with `…`.
///
/// ```text
/// survey: 3 runs, 2 participants, median duration 1m40s
///   item      type     answered  skipped  dk  n/p  mean  median  min  max  | top options
///   q1        scale           2        0   1    0     4       4    3    5
///   q2        choice          2        1   0    0  a 2 (100%), c 1 (50%)
/// ```
public enum StatsReport {
  /// The report of `tasks`; `width` is the terminal width in characters (at least 40 is used).
  public static func render(_ tasks: [TaskStatistics], width: Int = 100) -> String {
    let width = max(width, 40)
    if tasks.isEmpty { return "No task runs.\n" }
    var lines: [String] = []
    for (index, task) in tasks.enumerated() {
      if index > 0 { lines.append("") }
      lines.append(fit(header(task), width))
      lines += block(task.questions).map { fit($0, width) }
    }
    if tasks.contains(where: { !$0.questions.isEmpty }) {
      lines.append("")
      lines.append(fit(legend, width))
    }
    return lines.map { trimTrailingSpaces($0) }.joined(separator: "\n") + "\n"
  }

  static let legend =
    "dk = answered \"don't know\"; n/p = not presented (branched past or run ended)."

  private static let countHeaders = ["item", "type", "answered", "skipped", "dk", "n/p"]
  private static let numberHeaders = ["mean", "median", "min", "max"]

  /// The column header and one line per question, columns sized to their longest cell; the
  /// item column shrinks (to 8) when the numbers would not fit in 100 columns otherwise.
  private static func block(_ questions: [QuestionStatistics]) -> [String] {
    guard !questions.isEmpty else { return [] }
    let rows = questions.map { question in
      (counts: countCells(question), numbers: numberCells(question), options: options(question))
    }
    var countWidths = countHeaders.map(\.count)
    var numberWidths = numberHeaders.map(\.count)
    for row in rows {
      for (index, cell) in row.counts.enumerated() {
        countWidths[index] = max(countWidths[index], cell.count)
      }
      for (index, cell) in (row.numbers ?? []).enumerated() {
        numberWidths[index] = max(numberWidths[index], cell.count)
      }
    }
    let others = countWidths.dropFirst().reduce(0, +) + numberWidths.reduce(0, +) + 2 * 10 + 2
    countWidths[0] = max(8, min(countWidths[0], 100 - others))
    let hasNumbers = rows.contains { $0.numbers != nil }
    let hasOptions = rows.contains { !$0.options.isEmpty }
    var tailHeader = hasNumbers ? aligned(numberHeaders, numberWidths) : ""
    if hasOptions { tailHeader += hasNumbers ? "  | top options" : "top options" }
    var lines = ["  " + aligned(countHeaders, countWidths, leftColumns: 2) + "  " + tailHeader]
    for row in rows {
      let tail = row.numbers.map { aligned($0, numberWidths) } ?? row.options
      lines.append("  " + aligned(row.counts, countWidths, leftColumns: 2) + "  " + tail)
    }
    return lines
  }

  /// Cells padded to their widths: the first `leftColumns` left-aligned, the rest right-aligned.
  private static func aligned(_ cells: [String], _ widths: [Int], leftColumns: Int = 0) -> String {
    zip(cells, widths).enumerated().map { index, pair in
      let (cell, width) = pair
      let cut = cell.count > width ? String(cell.prefix(max(width - 1, 0))) + "…" : cell
      let padding = String(repeating: " ", count: max(width - cut.count, 0))
      return index < leftColumns ? cut + padding : padding + cut
    }.joined(separator: "  ")
  }

  private static func header(_ task: TaskStatistics) -> String {
    var parts = ["\(task.runCount) run\(task.runCount == 1 ? "" : "s")"]
    if let participants = task.participantCount {
      parts.append("\(participants) participant\(participants == 1 ? "" : "s")")
    }
    if let duration = task.medianDurationSeconds {
      parts.append("median duration \(durationText(duration))")
    }
    return "\(task.taskIdentifier): " + parts.joined(separator: ", ")
  }

  private static func countCells(_ question: QuestionStatistics) -> [String] {
    [
      question.itemIdentifier, question.answerType.rawValue,
      String(question.answeredCount), String(question.skippedCount),
      String(question.dontKnowCount), String(question.notPresentedCount),
    ]
  }

  /// Mean, median, min and max, or nil when the question has no numeric answers.
  private static func numberCells(_ question: QuestionStatistics) -> [String]? {
    guard let numbers = question.numbers else { return nil }
    return [numbers.mean, numbers.median, numbers.minimum, numbers.maximum].map { value in
      value.map { valueText($0, type: question.answerType) } ?? ""
    }
  }

  /// The most chosen options first (ties in option order), as `value n (p%)`.
  private static func options(_ question: QuestionStatistics) -> String {
    let ranked = question.options.enumerated().sorted { lhs, rhs in
      (-lhs.element.count, lhs.offset) < (-rhs.element.count, rhs.offset)
    }.map(\.element)
    return ranked.filter { $0.count > 0 }.map { option in
      let percent = option.percent.map { " (\(Int($0.rounded()))%)" } ?? ""
      return "\(option.value ?? "null") \(option.count)\(percent)"
    }.joined(separator: ", ")
  }

  /// Dates as `YYYY-MM-DD` (UTC), times of day as `HH:MM`, other numbers to 3 decimals.
  static func valueText(_ value: Double, type: AnswerType) -> String {
    switch type {
    case .date:
      guard let instant = Instant(secondsSince1970: value).millisecondsSince1970 else { return "" }
      return String(ISO8601.utcMilliseconds(instant).prefix(10))
    case .timeOfDay:
      // Beyond this the minutes do not fit an Int (a damaged archive's components).
      guard abs(value) < 1e15 else { return NumberValue(value).text }
      let minutes = Int((value / 60).rounded())
      let hour = minutes / 60
      let minute = minutes % 60
      return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    default:
      let rounded = (value * 1000).rounded() / 1000
      guard rounded.isFinite, abs(rounded) < 1e12 else { return NumberValue(value).text }
      return NumberValue(rounded).text
    }
  }

  /// `45s`, `12.5s`, `1m40s`, `2h05m`.
  static func durationText(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "" }
    // Beyond ~31 million years the seconds do not fit an Int: as a plain number.
    guard abs(seconds) < 1e15 else { return NumberValue(seconds).text + "s" }
    if abs(seconds) < 60 { return NumberValue((seconds * 10).rounded() / 10).text + "s" }
    let whole = Int(seconds.rounded())
    if abs(whole) < 3600 { return "\(whole / 60)m\(pad(abs(whole) % 60))s" }
    let minutes = Int((seconds / 60).rounded())
    return "\(minutes / 60)h\(pad(abs(minutes) % 60))m"
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// Cuts a line to `width` characters, marking the cut with `…`.
  static func fit(_ line: String, _ width: Int) -> String {
    guard line.count > width else { return line }
    return String(line.prefix(width - 1)) + "…"
  }

  private static func trimTrailingSpaces(_ line: String) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return line
  }
}
