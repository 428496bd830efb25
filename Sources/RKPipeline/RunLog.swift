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
      line = event.name == "summary" ? event.message : prefix + event.message
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

  /// A JSON string literal (RFC 8259 §7).
  static func quoted(_ text: String) -> String { JSONText.quoted(text) }

  public static func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
