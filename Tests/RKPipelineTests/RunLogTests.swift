// The run log's text lines: one line per message, whatever the input text it quotes.
import Synchronization
import XCTest

@testable import RKPipeline

final class RunLogTests: XCTestCase {
  /// The lines a log writes, in order.
  private final class Lines: Sendable {
    let text = Mutex("")
  }

  /// A failure message quoting a class name with a newline (found by fuzzing: the rest of
  /// the name printed as a line of its own, `rkexport: other.archive: forged line`) stays one
  /// line; JSON lines escape it as before.
  func testTextLine_ControlCharactersInTheMessage_Escaped() {
    let lines = Lines()
    let log = RunLog(format: .text, write: { text in lines.text.withLock { $0 += text } })
    let message =
      "a.archive: object 5 (X\nrkexport: other.archive: forged line) endDate\r\t\u{1B}[2J\u{7F}"
    log.log(LogEvent("input_failed", level: .error, message: message))
    log.log(LogEvent("input_failed", level: .error, message: "plain: é ✓"))
    XCTAssertEqual(
      lines.text.withLock { $0 },
      #"rkexport: a.archive: object 5 (X\nrkexport: other.archive: forged line) endDate\r\t\u{1B}[2J\u{7F}"#
        + "\n" + "rkexport: plain: é ✓\n")
    let json = RunLog.json(LogEvent("input_failed", level: .error, message: "x\ny"))
    XCTAssertEqual(json, #"{"event":"input_failed","level":"error","message":"x\ny"}"#)
  }

  /// The summary is rkexport's own text, several lines by design: kept as it is.
  func testTextLine_Summary_KeptAsWritten() {
    let lines = Lines()
    let log = RunLog(format: .text, write: { text in lines.text.withLock { $0 += text } })
    log.log(LogEvent("summary", level: .info, message: "one\ntwo"))
    XCTAssertEqual(lines.text.withLock { $0 }, "one\ntwo\n")
  }
}
