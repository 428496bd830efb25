// Unique paths under the system's temporary folder, for tests that write files.
import Foundation

/// `<temporary folder>/rkexport-<name>-<UUID><suffix>`: a path no other test uses.
func uniqueTemporaryPath(_ name: String, suffix: String = "") -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("rkexport-\(name)-\(UUID().uuidString)\(suffix)").path
}

/// A new empty folder at `uniqueTemporaryPath(name)`.
func makeTemporaryFolder(_ name: String) throws -> String {
  let folder = uniqueTemporaryPath(name)
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder
}
