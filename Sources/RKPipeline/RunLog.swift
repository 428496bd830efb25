// What a run tells its reader on stderr: plain lines for a person, JSON lines for a collector.
import Foundation
import RKTable

/// How a run reports: `text` lines `rkexport: …`, or `json`, one object per line.
public enum LogFormat: String, CaseIterable, Sendable {
  case text
  case json
}

/// One thing worth telling: its kind (`input_failed`, `warning`, `summary`, …), a sentence for
/// people, and fields for machines (strings or integers).
public struct LogEvent: Sendable {
  /// Whether `--quiet` still prints it.
  public enum Level: Sendable { case error, warning, info }

  public var name: String
  public var level: Level
  public var message: String
  public var fields: [(String, LogValue)]

  public init(
    _ name: String, level: Level, message: String, fields: [(String, LogValue)] = []
  ) {
    self.name = name
    self.level = level
    self.message = message
    self.fields = fields
  }
}

/// A field value of a JSON log line.
public enum LogValue: Sendable {
  case text(String)
  case integer(Int)
  case number(Double)
}

/// Writes events to stderr in the chosen format; `--quiet` keeps only errors. Thread-safe.
public final class RunLog: @unchecked Sendable {
  public let format: LogFormat
  public let quiet: Bool
  private let lock = NSLock()
  private let write: @Sendable (String) -> Void
  /// Called before each line so a progress bar can clear itself first.
  var beforeLine: (() -> Void)?

  public init(
    format: LogFormat = .text, quiet: Bool = false,
    write: @escaping @Sendable (String) -> Void = { RunLog.standardError($0) }
  ) {
    self.format = format
    self.quiet = quiet
    self.write = write
  }

  /// Reports one event.
  public func log(_ event: LogEvent) {
    if quiet && event.level != .error { return }
    let line: String
    switch format {
    case .text:
      let prefix = event.level == .warning ? "rkexport: warning: " : "rkexport: "
      // A message quotes input text (a class name, a key, a path): kept to one line, so that
      // a newline in an input cannot end it and forge another file's line. The summary is
      // rkexport's own text, several lines by design.
      line = event.name == "summary" ? event.message : prefix + RunLog.oneLine(event.message)
    case .json:
      line = RunLog.json(event)
    }
    lock.lock()
    beforeLine?()
    write(line + "\n")
    lock.unlock()
  }

  /// Writes raw bytes (the progress bar) under the same lock as the lines.
  func writeRaw(_ text: String) {
    lock.lock()
    write(text)
    lock.unlock()
  }

  /// `{"event":"input_failed","level":"error","message":…,"path":…}`: keys in a fixed order.
  public static func json(_ event: LogEvent) -> String {
    let level: String
    switch event.level {
    case .error: level = "error"
    case .warning: level = "warning"
    case .info: level = "info"
    }
    var parts = [
      "\"event\":" + quoted(event.name), "\"level\":" + quoted(level),
      "\"message\":" + quoted(event.message),
    ]
    for (key, value) in event.fields {
      switch value {
      case .text(let text): parts.append(quoted(key) + ":" + quoted(text))
      case .integer(let number): parts.append(quoted(key) + ":" + String(number))
      case .number(let number):
        parts.append(quoted(key) + ":" + (number.isFinite ? String(number) : "null"))
      }
    }
    return "{" + parts.joined(separator: ",") + "}"
  }

  /// `text` with its control characters (C0 and DEL) written as escapes: `\n`, `\r`, `\t`,
  /// else `\u{1B}`; unchanged (not copied) when it has none.
  static func oneLine(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: escaped += "\\n"
      case 0x0D: escaped += "\\r"
      case 0x09: escaped += "\\t"
      case 0..<0x20, 0x7F:
        escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// A JSON string literal (RFC 8259 §7).
  static func quoted(_ text: String) -> String { JSONText.quoted(text) }

  public static func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
