// One row of inputs.csv: what happened to one input file.
import RKTable

/// The outcome of one input file (`inputs.csv` status column).
public enum InputStatus: String, Sendable, CaseIterable {
  /// Read; its runs are exported.
  case ok
  /// Could not be read; `error` says where and why. Other inputs are still exported.
  case failed
  /// Not a result file (images, audio next to archives): listed, not an error.
  case skipped
}

/// One line of `inputs.csv` (`ExportSchemas.inputs`).
public struct InputRecord: Sendable, Equatable {
  /// The input's path (zip entries as `upload.zip!/a/b.json`).
  public var path: String
  /// The sniffed format's name (empty when the file was skipped before sniffing).
  public var format: String
  public var status: InputStatus
  public var taskRuns: Int
  public var answers: Int
  /// The one-line `ImportError` text; nil unless `status` is `failed`.
  public var error: String?

  public init(
    path: String, format: String, status: InputStatus, taskRuns: Int = 0, answers: Int = 0,
    error: String? = nil
  ) {
    self.path = path
    self.format = format
    self.status = status
    self.taskRuns = taskRuns
    self.answers = answers
    self.error = error
  }

  /// The row in `ExportSchemas.inputs` column order.
  public var cells: [Cell] {
    [
      .text(path), format.isEmpty ? .empty : .text(format), .text(status.rawValue),
      .integer(Int64(taskRuns)), .integer(Int64(answers)), error.map { .text($0) } ?? .empty,
    ]
  }
}
