// The workbook's temporary file beside its target, renamed into place only when complete.
import Foundation

/// A temporary file in the output's folder, reserved at creation, renamed over the output on
/// `commit()` and removed on `discard()`, so a reader never sees a half-written workbook.
///
/// rkexport's shared `AtomicFile` did not exist when this was written; this is the same idea,
/// kept private to the XLSX writer.
struct XLSXOutputFile {
  /// The final path.
  let path: String
  /// The temporary path libxlsxwriter writes to: `.<name>.<random>.tmp` in the same folder, so
  /// the rename stays on one file system and is atomic.
  let temporaryPath: String

  /// Reserves a fresh temporary name (created empty, exclusively) next to `path`.
  init(path: String) throws {
    self.path = path
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    for _ in 0..<16 {
      let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
      let candidate = folder + "/." + url.lastPathComponent + "." + random + ".tmp"
      let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if descriptor >= 0 {
        close(descriptor)
        temporaryPath = candidate
        return
      }
      if errno != EEXIST { throw Self.failure(path, "cannot create a file in \(folder)") }
    }
    throw Self.failure(path, "no free temporary name in \(folder)")
  }

  /// Moves the finished temporary file over the output path.
  func commit() throws {
    guard rename(temporaryPath, path) == 0 else {
      let reason = Self.systemError()
      discard()
      throw XLSXError(
        .outputFile, path: path,
        message: "Could not rename the finished file: "
          + reason + ".")
    }
  }

  /// Removes the temporary file, if it is still there.
  func discard() {
    unlink(temporaryPath)
  }

  private static func failure(_ path: String, _ what: String) -> XLSXError {
    XLSXError(
      .outputFile, path: path,
      message: "Could not write the output: \(what): "
        + systemError() + ".")
  }

  private static func systemError() -> String {
    String(cString: strerror(errno))
  }
}
