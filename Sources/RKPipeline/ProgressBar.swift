// The progress line on a terminal: files done/total, rate and time left, at most 10 redraws/s.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Draws `[#####-----] 1,234/10,234 files  512/s  0:17 left` on stderr, redrawn in place.
/// Nothing is drawn unless stderr is a terminal, so cron mail and log files stay clean.
final class ProgressBar {
  private let log: RunLog
  private let total: Int
  private let started = Date()
  private var lastDraw = Date.distantPast
  private var isVisible = false
  private let enabled: Bool

  /// `enabled` is false when stderr is not a terminal, with --quiet and with JSON logs.
  init(log: RunLog, total: Int, enabled: Bool) {
    self.log = log
    self.total = total
    self.enabled = enabled && total > 0
    if self.enabled {
      log.beforeLine = { [weak self] in self?.clearLocked() }
    }
  }

  /// Whether stderr is a terminal.
  static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  /// Records `done` files finished; redraws when 0.1 s passed since the last drawing.
  func update(done: Int) {
    guard enabled else { return }
    let now = Date()
    guard now.timeIntervalSince(lastDraw) >= 0.1 || done == total else { return }
    lastDraw = now
    let elapsed = now.timeIntervalSince(started)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let left = rate > 0 ? Double(total - done) / rate : 0
    let width = 24
    let filled = total > 0 ? width * done / total : 0
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let line =
      "\r[\(bar)] \(grouped(done))/\(grouped(total)) files  \(grouped(Int(rate)))/s  "
      + "\(ProgressBar.clock(left)) left\u{1B}[K"
    isVisible = true
    log.writeRaw(line)
  }

  /// Removes the bar from the terminal.
  func finish() {
    guard enabled, isVisible else { return }
    log.writeRaw("\r\u{1B}[K")
    isVisible = false
  }

  // Runs under the log's lock, just before a line is printed.
  private func clearLocked() {
    guard isVisible else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    isVisible = false
  }

  /// 77 s → "1:17", 3,700 s → "1:01:40".
  static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
  }
}
