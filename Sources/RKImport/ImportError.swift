// The one error type of the import stage: which file, where in it, and what is wrong.

/// Why an input could not be read, naming the file and the place in it.
///
/// `description` is one line, file first, and is written verbatim to `inputs.csv`'s `error`
/// column, e.g. `P3/x.archive: object 17 (ORKChoiceQuestionResult) choiceAnswers: expected an
/// array, found a string`. Answer values never appear in it (free text is health data).
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The input's path relative to its input root (zip entries as `upload.zip!/a/b.json`).
  public var file: String
  /// Where in the file: an object path such as `object 17 (ORKChoiceQuestionResult) choiceAnswers`,
  /// a byte offset such as `byte 1234`, or empty.
  public var location: String
  /// What is wrong, in plain words.
  public var reason: String

  public init(file: String = "", location: String = "", reason: String) {
    self.file = file
    self.location = location
    self.reason = reason
  }

  /// The same error attributed to `file` (readers throw without knowing the file's name).
  public func inFile(_ file: String) -> ImportError {
    var copy = self
    copy.file = file
    return copy
  }

  /// The error text without the file name (for `inputs.csv`, whose `path` column names it).
  public var message: String { location.isEmpty ? reason : "\(location): \(reason)" }

  public var description: String { file.isEmpty ? message : "\(file): \(message)" }
}
