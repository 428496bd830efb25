// Flags for sharing exports: pseudonymous participant ids, no free text, Excel-safe CSV.
import ArgumentParser
import Foundation
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
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw ValidationError("--pseudonymize-key-file \(path): cannot read the key file.")
      }
      defer { try? handle.close() }
      let bytes = [UInt8](handle.readData(ofLength: Pseudonymizer.maximumKeyByteCount + 1))
      do {
        pseudonymizer = try Pseudonymizer(keyFileContents: bytes, path: path)
      } catch {
        throw ValidationError("--pseudonymize-key-file \(error)")
      }
    }
    return PrivacyOptions(pseudonymizer: pseudonymizer, dropFreeText: dropFreeText)
  }
}
