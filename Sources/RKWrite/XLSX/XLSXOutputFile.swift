// The workbook's temporary file beside its target (an `AtomicFile`), renamed when complete.
import Foundation

/// Adapts `AtomicFile` to libxlsxwriter, which opens and writes `temporaryPath` itself:
/// reserved at creation, synced and renamed over the output on `commit()`, removed on
/// `discard()`, so a reader never sees a half-written workbook. File errors become
/// `XLSXError.Code.outputFile` carrying `WriteError`'s one-line text.
struct XLSXOutputFile {
  private let file: AtomicFile

  /// The final path.
  var path: String { file.path }
  /// Where libxlsxwriter writes: `.<name>.<random>.tmp` in the output's folder.
  var temporaryPath: String { file.temporaryPath }

  /// Reserves a fresh temporary file next to `path`; the folder must exist and be writable.
  init(path: String) throws {
    do {
      file = try AtomicFile(path: path)
      try file.closeDescriptor()
    } catch let error as WriteError {
      throw XLSXError(.outputFile, path: path, message: Self.sentence(error))
    }
  }

  /// Flushes the finished file to disk and renames it over the output path.
  func commit() throws {
    // libxlsxwriter closes without fsync: sync here so a crash after the rename cannot leave
    // the name pointing at incomplete bytes.
    let descriptor = open(temporaryPath, O_RDONLY | O_CLOEXEC)
    let synced = descriptor >= 0 && fsync(descriptor) == 0
    let reason = synced ? "" : String(cString: strerror(errno))
    if descriptor >= 0 { close(descriptor) }
    guard synced else {
      discard()
      throw XLSXError(.outputFile, path: path, message: "Could not sync the file: \(reason).")
    }
    do {
      try file.commit()
    } catch let error as WriteError {
      throw XLSXError(.outputFile, path: path, message: Self.sentence(error))
    }
  }

  /// Removes the temporary file, if it is still there.
  func discard() {
    file.abandon()
  }

  /// `Cannot create: No such file or directory.` — WriteError's text without the path, which
  /// XLSXError puts first itself.
  private static func sentence(_ error: WriteError) -> String {
    "Cannot \(error.operation.rawValue): \(error.reason)."
  }
}
