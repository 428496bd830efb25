// Flags for sharing exports: pseudonymous participant ids, no free text, Excel-safe CSV.
import ArgumentParser
import Foundation
import RKImport
import RKTidy

struct PrivacyFlags: ParsableArguments {
  @Option(
    name: .customLong("pseudonymize-key-file"),
    help: ArgumentHelp(
      "Replace participant ids with a keyed HMAC-SHA256 pseudonym (stable across runs, not "
        + "reversible without the key); the file holds at least 16 bytes of key.",
      valueName: "file"))
  var pseudonymizeKeyFile: String?

  @Flag(
    name: .customLong("drop-free-text"),
    help: "Blank free-text answers (text, typed 'other', location text) for sharing; rows stay.")
  var dropFreeText = false

  @Flag(
    name: .customLong("excel-safe"),
    help: ArgumentHelp(
      "Prefix CSV text cells starting with =, +, -, @ with ' so spreadsheets do not run them as "
        + "formulas (off by default: R and pandas users want the data unchanged)."))
  var excelSafe = false

  @Flag(
    name: .customLong("bom"),
    help: "Start every CSV with a UTF-8 byte order mark, so Excel on Windows shows accents right.")
  var byteOrderMark = false

  func validate() throws {
    _ = try privacyOptions()
  }

  /// The options, reading the key file; a bad key file is a usage error (exit 2).
  func privacyOptions() throws -> PrivacyOptions {
    var pseudonymizer: Pseudonymizer?
    if let path = pseudonymizeKeyFile {
      // By the path's bytes (`FileSystemName`: a name that is not UTF-8 too); blocking, so a
      // key given through a pipe (`<(…)`) is read whole.
      let descriptor = FileSystemName.openPath(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw ValidationError("--pseudonymize-key-file \(path): cannot read the key file.")
      }
      defer { close(descriptor) }
      // One byte more than a key may have, so a longer file is told apart.
      var bytes = [UInt8](repeating: 0, count: Pseudonymizer.maximumKeyByteCount + 1)
      var count = 0
      while count < bytes.count {
        let got = bytes.withUnsafeMutableBytes {
          read(descriptor, $0.baseAddress! + count, $0.count - count)
        }
        if got < 0, errno == EINTR { continue }
        guard got >= 0 else {
          throw ValidationError("--pseudonymize-key-file \(path): cannot read the key file.")
        }
        if got == 0 { break }
        count += got
      }
      bytes.removeSubrange(count...)
      do {
        pseudonymizer = try Pseudonymizer(keyFileContents: bytes, path: path)
      } catch {
        throw ValidationError("--pseudonymize-key-file \(error)")
      }
    }
    return PrivacyOptions(pseudonymizer: pseudonymizer, dropFreeText: dropFreeText)
  }
}
