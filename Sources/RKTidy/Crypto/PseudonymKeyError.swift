// Why a pseudonymization key was refused: one line naming the key file, never the key itself.

/// A key file (or key) that cannot be used for pseudonyms.
///
/// The description is one line, path first, and says what to do next, for example
/// `study.key: pseudonymization key has 9 bytes, at least 16 are needed (make one with
/// head -c 32 /dev/urandom > study.key)`. It never shows key bytes.
public struct PseudonymKeyError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong with the key.
  public enum Reason: Equatable, Sendable {
    /// Fewer than `Pseudonymizer.minimumKeyByteCount` bytes after the trailing line end.
    case tooShort(byteCount: Int)
    /// More than `Pseudonymizer.maximumKeyByteCount` bytes in the file.
    case tooLong(byteCount: Int)
  }

  /// The key file as the user named it; empty for a key given in code.
  public var path: String
  public var reason: Reason

  public init(path: String, reason: Reason) {
    self.path = path
    self.reason = reason
  }

  public var description: String {
    let name = path.isEmpty ? "key" : path
    switch reason {
    case .tooShort(let count):
      return "\(name): pseudonymization key has \(count) bytes, at least "
        + "\(Pseudonymizer.minimumKeyByteCount) are needed "
        + "(make one with head -c 32 /dev/urandom > \(path.isEmpty ? "study.key" : path))"
    case .tooLong(let count):
      return "\(name): pseudonymization key file has \(count) bytes, at most "
        + "\(Pseudonymizer.maximumKeyByteCount) are allowed (is this the right file?)"
    }
  }
}
