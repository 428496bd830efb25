// Stub: keyed archive → task runs. Replaced by the real reader.
import RKModel

/// Reads an NSKeyedArchiver archive (binary or XML plist) of an `ORKTaskResult` or an array of them.
public enum KeyedArchiveImporter {
  public static func importRuns(from bytes: [UInt8]) throws -> [TaskRun] {
    throw ImportError(reason: "keyed archives are not supported yet")
  }
}
