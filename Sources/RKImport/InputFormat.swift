// The formats rkexport recognises, sniffed from content (never from the file name).
import RKModel

/// A detected input format; the raw value is `inputs.csv`'s `format` column.
public enum InputFormat: String, Sendable, CaseIterable {
  /// NSKeyedArchiver archive in a binary property list (`bplist00`).
  case keyedArchiveBinary = "keyed-archive-binary"
  /// NSKeyedArchiver archive in an XML property list.
  case keyedArchiveXML = "keyed-archive-xml"
  /// ResearchKit `ORKESerializer` JSON (`"_class": "ORKTaskResult"`).
  case researchKitJSON = "researchkit-json"
  /// A Bridge-style upload (folder or zip with `info.json`).
  case bridgeUpload = "bridge-upload"
  /// A SurveyNative answers document (`{"answers": {…}}`).
  case surveyNative = "surveynative"
  /// A zip file (its entries are inputs of their own).
  case zip = "zip"
  /// Not a result format (images, audio, unrelated files): listed as skipped.
  case unknown = "unknown"
}

/// What one input yielded: its format and the task runs in it, in file order, each with its
/// `source` set (the display path, `path#n` when the file holds several runs).
public struct ImportedInput: Sendable {
  public var format: InputFormat
  public var runs: [TaskRun]
  /// Notes about content that was read but not exported as answers (shown in `inputs.csv`).
  public var notes: [String]

  public init(format: InputFormat, runs: [TaskRun], notes: [String] = []) {
    self.format = format
    self.runs = runs
    self.notes = notes
  }
}
