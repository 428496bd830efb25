// What earlier runs exported (--state): one entry per input, so the next run reads only news.
import Foundation

/// The `--state` file: every input an earlier run exported, with what identifies its content.
///
/// An input counts as unchanged when its size and modification time are those recorded (as
/// `make` and `rsync` decide); when either differs, its content hash decides, so a file that was
/// only touched is not exported twice. Stored as JSON, written atomically after the outputs.
public struct ExportState: Codable, Sendable, Equatable {
  /// One exported input.
  public struct Entry: Codable, Sendable, Equatable {
    /// Size in bytes.
    public var size: Int64
    /// Modification time, seconds since 1970 (sub-second part kept).
    public var modified: Double
    /// `ContentHash` hex of the bytes ("" for Bridge uploads and zip entries, see `identity`).
    public var hash: String
    /// Run UUIDs the input held (empty when it failed or held none).
    public var taskRunUUIDs: [String]
    /// `ok`, `failed` or `skipped` as in inputs.csv.
    public var status: String
    /// The path as inputs.csv shows it (relative to its input root).
    public var path: String?
  }

  /// Layout version of the file; readers refuse versions they do not know.
  public var version = 1
  /// When the run that wrote this state started (ISO 8601 UTC).
  public var exportedAt: String
  /// Output folder of that run, for the message when --out changes between runs.
  public var outputDirectory: String
  /// Keyed by the input's key: its root and display path (`results|P001/a.archive`).
  public var inputs: [String: Entry]

  public init(exportedAt: String, outputDirectory: String, inputs: [String: Entry] = [:]) {
    self.exportedAt = exportedAt
    self.outputDirectory = outputDirectory
    self.inputs = inputs
  }

  /// Reads a state file; a missing file is an empty state (the first run exports everything).
  public static func load(path: String) throws -> ExportState? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw OutputError(path: path, reason: "cannot read the state file")
    }
    let state: ExportState
    do {
      state = try JSONDecoder().decode(ExportState.self, from: data)
    } catch {
      throw OutputError(
        path: path, reason: "not an rkexport state file (remove it to export everything again)")
    }
    guard state.version == 1 else {
      throw OutputError(path: path, reason: "state file version \(state.version) is unknown")
    }
    return state
  }

  /// The bytes written to the state file: sorted keys, so identical states give identical files.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}
