// The one error type of the writers' file handling: which file, which operation, and why.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure while writing an output file, naming the file and the system's reason.
///
/// The description is one line, path first, for example
/// `out/answers.csv: cannot write: No space left on device`.
public struct WriteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was being done when the failure happened.
  public enum Operation: String, Sendable {
    case create
    case write
    case read
    case close
    case rename
    case remove
  }

  /// The file concerned (the final output path, or the temporary file for spools).
  public var path: String
  public var operation: Operation
  /// The POSIX `errno`, when the failure came from the system.
  public var errorNumber: Int32?
  /// The system's text for `errorNumber`, or our own explanation.
  public var reason: String

  public init(path: String, operation: Operation, errorNumber: Int32?, reason: String) {
    self.path = path
    self.operation = operation
    self.errorNumber = errorNumber
    self.reason = reason
  }

  /// An error from a failed system call, with `strerror` text for `errorNumber`.
  public static func system(path: String, operation: Operation, errorNumber: Int32) -> WriteError {
    let text = strerror(errorNumber).map { String(cString: $0) } ?? "error \(errorNumber)"
    return WriteError(path: path, operation: operation, errorNumber: errorNumber, reason: text)
  }

  /// A row whose cell count differs from the table's column count (a bug upstream, not input).
  public static func rowWidth(path: String, expected: Int, actual: Int) -> WriteError {
    WriteError(
      path: path, operation: .write, errorNumber: nil,
      reason: "row has \(actual) cells, the table has \(expected) columns")
  }

  /// A write after `finish()` or `abandon()`.
  public static func closed(path: String) -> WriteError {
    WriteError(path: path, operation: .write, errorNumber: nil, reason: "file already closed")
  }

  public var description: String { "\(path): cannot \(operation.rawValue): \(reason)" }
}
