// Keyed, stable, one-way participant pseudonyms for `--pseudonymize-key-file` (design.md §4).
import Foundation
import RKTable
import Synchronization

/// Replaces participant ids with `p` + the first 16 hex digits of HMAC-SHA256(key, id).
///
/// - Stable: the same key and id give the same pseudonym in every run, so nightly exports and
///   several sites sharing one key stay linkable.
/// - One-way: without the key nobody can test a guessed id (ids such as `P001` are easy to guess,
///   which is why a plain unkeyed hash would not do).
/// - The id is hashed as its UTF-8 bytes, exactly as derived from the path (no trimming, no
///   Unicode normalisation), so anyone holding the key can check a pseudonym with
///   `printf %s P001 | openssl dgst -sha256 -mac HMAC -macopt hexkey:<key as hex>`.
/// - An empty id (a file directly in the input root) stays empty.
///
/// **Why 16 hex digits (64 bits).** With n ids and b bits, the chance that any two ids share a
/// pseudonym is about n² / 2^(b+1). For n = 10^6 participants: 64 bits give
/// 10^12 / 2^65 ≈ 2.7 × 10^-8; 48 bits would give ≈ 1.8 × 10^-3, too high for a study that must
/// never merge two people. **Why the `p`.** A bare hex string is all digits about once in 1,900
/// ids ((10/16)^16), or looks like `1234e567…`, and Excel and type-guessing readers would turn it
/// into a rounded number; a letter first keeps every pseudonym text.
///
/// ```swift
/// let pseudonymizer = try Pseudonymizer(keyFileContents: bytes, path: "study.key")
/// pseudonymizer.pseudonym(for: "P001")  // "p" + 16 lower-case hex digits
/// ```
public struct Pseudonymizer: Sendable {
  /// Hex digits of the HMAC kept in a pseudonym (64 bits; see the type's discussion).
  public static let hexDigitCount = 16
  /// Put before the hex digits so no pseudonym reads as a number.
  public static let prefix = "p"
  /// Shorter keys are refused: 16 bytes (128 bits) is the least that resists guessing the key.
  public static let minimumKeyByteCount = 16
  /// Longer key files are refused as probably the wrong file (e.g. a data file); callers should
  /// read at most this many bytes plus one.
  public static let maximumKeyByteCount = 4096

  private let mac: HMACSHA256
  /// The last few ids and their pseudonyms: each run and each input asks for its
  /// participant's (two or three times a run), and inputs come folder by folder, so the same
  /// few ids repeat. A code costs two SHA-256 blocks (~20 k instructions).
  private let recent = RecentPseudonyms()

  /// Uses `key` as is (no newline stripping).
  ///
  /// - Throws: `PseudonymKeyError` when the key is shorter than `minimumKeyByteCount` or longer
  ///   than `maximumKeyByteCount` bytes; `path` is empty in that error.
  public init(key: [UInt8]) throws {
    try self.init(checkedKey: key, path: "", originalByteCount: key.count)
  }

  /// Uses the raw bytes of a key file, minus one trailing line end.
  ///
  /// One final `\n` (or `\r\n`) is removed, because `echo secret > study.key` and text editors
  /// add one that the user never meant as part of the key; nothing else is trimmed. The rule
  /// applies to every run alike, so a random binary key that happens to end in 0x0A still gives
  /// the same pseudonyms each time.
  ///
  /// - Parameters:
  ///   - keyFileContents: the file's bytes, unchanged.
  ///   - path: the key file as the user named it, for the error message.
  public init(keyFileContents: [UInt8], path: String) throws {
    var key = keyFileContents
    if key.last == 0x0A {
      key.removeLast()
      if key.last == 0x0D { key.removeLast() }
    }
    try self.init(checkedKey: key, path: path, originalByteCount: keyFileContents.count)
  }

  private init(checkedKey key: [UInt8], path: String, originalByteCount: Int) throws {
    guard key.count >= Self.minimumKeyByteCount else {
      throw PseudonymKeyError(path: path, reason: .tooShort(byteCount: key.count))
    }
    guard originalByteCount <= Self.maximumKeyByteCount else {
      throw PseudonymKeyError(path: path, reason: .tooLong(byteCount: originalByteCount))
    }
    mac = HMACSHA256(key: key)
  }

  /// The pseudonym of one participant id; `""` stays `""`.
  public func pseudonym(for participantID: String) -> String {
    guard !participantID.isEmpty else { return "" }
    if let known = recent.pseudonym(for: participantID) { return known }
    let pseudonym = computedPseudonym(for: participantID)
    recent.remember(pseudonym, for: participantID)
    return pseudonym
  }

  private func computedPseudonym(for participantID: String) -> String {
    let code = mac.code(for: Array(participantID.utf8))
    var text = Self.prefix
    for byte in code.prefix(Self.hexDigitCount / 2) {
      text.append(Self.hexDigits[Int(byte >> 4)])
      text.append(Self.hexDigits[Int(byte & 0x0F)])
    }
    return text
  }

  /// `path` with every occurrence of `participantID` replaced by its pseudonym, so a `source`
  /// such as `P001/survey.archive` does not give the id away (`p…/survey.archive`).
  ///
  /// Replacement is by plain substring, which errs on the safe side: a short id such as `7`
  /// is replaced inside other names too. Other identifying text in file names is not touched.
  public func pseudonymizedPath(_ path: String, participantID: String) -> String {
    guard !participantID.isEmpty else { return path }
    var path = path
    var id = participantID
    // ASCII (the usual ids and paths): replaced by bytes, one Character per byte; the
    // standard library's `replacing` cost ~30 k instructions a call.
    let replaced: String?? = path.withUTF8 { pathBytes in
      id.withUTF8 { idBytes -> String?? in
        guard ByteWord.isASCIIWithoutCarriageReturn(pathBytes),
          ByteWord.isASCIIWithoutCarriageReturn(idBytes)
        else { return nil }
        return .some(Self.replacingASCII(idBytes, in: pathBytes) { pseudonym(for: participantID) })
      }
    }
    if let replaced { return replaced ?? path }
    guard path.contains(participantID) else { return path }
    return path.replacing(participantID, with: pseudonym(for: participantID))
  }

  /// `path` with every occurrence of `id` (left to right, not overlapping) replaced by
  /// `replacement()`; nil when there is none.
  private static func replacingASCII(
    _ id: UnsafeBufferPointer<UInt8>, in path: UnsafeBufferPointer<UInt8>,
    replacement: () -> String
  ) -> String? {
    guard let idBase = id.baseAddress, let pathBase = path.baseAddress, id.count <= path.count
    else { return nil }
    var result: [UInt8]?
    var copied = 0
    var index = 0
    var newText: [UInt8] = []
    while index + id.count <= path.count {
      if pathBase[index] == idBase[0], memcmp(pathBase + index, idBase, id.count) == 0 {
        if result == nil {
          result = []
          result?.reserveCapacity(path.count + 32)
          newText = Array(replacement().utf8)
        }
        result?.append(contentsOf: UnsafeBufferPointer(rebasing: path[copied..<index]))
        result?.append(contentsOf: newText)
        index += id.count
        copied = index
      } else {
        index += 1
      }
    }
    guard var result else { return nil }
    result.append(contentsOf: UnsafeBufferPointer(rebasing: path[copied...]))
    return String(decoding: result, as: UTF8.self)
  }

  private static let hexDigits: [Character] = Array("0123456789abcdef")
}

/// A few ids and their pseudonyms, shared by the threads (replaced round-robin).
private final class RecentPseudonyms: Sendable {
  private static let capacity = 8
  private let entries = Mutex<(pairs: [(id: String, pseudonym: String)], next: Int)>(([], 0))

  /// Ids are compared by their bytes: `==` finds canonically equivalent Strings equal (`é`
  /// as one scalar or as `e` and an accent), whose pseudonyms differ.
  func pseudonym(for id: String) -> String? {
    entries.withLock { state in state.pairs.first { Self.sameBytes($0.id, id) }?.pseudonym }
  }

  /// Whether two Strings hold the same UTF-8 bytes (`utf8.elementsEqual` walked them byte by
  /// byte through the generic view: ~2 k instructions a lookup).
  private static func sameBytes(_ left: String, _ right: String) -> Bool {
    guard left.utf8.count == right.utf8.count else { return false }
    var left = left
    var right = right
    return left.withUTF8 { a in
      right.withUTF8 { b in
        guard let x = a.baseAddress, let y = b.baseAddress else { return a.count == b.count }
        return memcmp(x, y, a.count) == 0
      }
    }
  }

  func remember(_ pseudonym: String, for id: String) {
    entries.withLock { state in
      if state.pairs.count < Self.capacity {
        state.pairs.append((id, pseudonym))
      } else {
        state.pairs[state.next] = (id, pseudonym)
        state.next = (state.next + 1) % Self.capacity
      }
    }
  }
}
