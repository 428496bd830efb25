// One unit of input: a file, a zip entry, or a Bridge upload (a folder or zip read as one run).

/// One thing to import, found by `InputWalker`.
public struct InputItem: Sendable, Hashable {
  /// How to reach the bytes.
  public enum Location: Sendable, Hashable {
    /// A file on disk (absolute or as given).
    case file(path: String)
    /// An entry inside a zip file on disk; `entry` is the path inside the zip.
    case zipEntry(zipPath: String, entry: String)
    /// An entry of a zip that is itself the entry `nestedZip` of the zip file at `zipPath`
    /// (one level of nesting; the inner zip is read into memory within `ZipLimits`).
    case nestedZipEntry(zipPath: String, nestedZip: String, entry: String)
    /// A Bridge upload folder on disk (it holds `info.json`): read as one item.
    case bridgeFolder(path: String)
    /// A Bridge upload inside a zip: the entries below `root` (`""` for the whole zip, else
    /// `"folder/"`) of the zip at `zipPath`, or of its entry `nestedZip` when set.
    case bridgeZip(zipPath: String, nestedZip: String?, root: String)
  }

  /// Path relative to the input root, `/`-separated; zip entries as `upload.zip!/a/b.json`.
  /// With several input roots it starts with the root as given (`results/P001/a.archive`), so
  /// paths stay unique. This is the `path` column of `inputs.csv` and the `source` of its runs.
  public var displayPath: String
  /// Path relative to the input root, whatever the number of roots (participant patterns
  /// match against it).
  public var pathBelowRoot: String
  /// The folders between the input root and the item (a zip inside the root counts as a folder;
  /// a zip given as an input root does not); for a Bridge upload, the folders above the upload.
  /// The participant id is the first of them by default (design.md §4).
  public var folders: [String]
  public var location: Location
  /// Size in bytes as listed (uncompressed size for zip entries); 0 for a file the walk did
  /// not open (`mayBeZip`).
  public var size: Int64
  /// A file the walk listed without opening it (`InputWalker.opensFilesAtImport`): it may be
  /// a zip, which whoever reads it lists then (`InputWalker.zipContents(of:)`) instead of
  /// importing it.
  public var mayBeZip = false

  public init(displayPath: String, folders: [String], location: Location, size: Int64) {
    self.displayPath = displayPath
    self.pathBelowRoot = displayPath
    self.folders = folders
    self.location = location
    self.size = size
  }
}
