// What `--pseudonymize-key-file` and `--drop-free-text` ask for, in one value the pipeline passes.

/// The privacy transforms applied to every task run before it is flattened (`PrivacyFilter`).
///
/// Both are off by default: the data manager's own export keeps ids and text. Turn them on for
/// a copy that leaves the study team.
///
/// ```swift
/// let key = try Pseudonymizer(keyFileContents: bytes, path: "study.key")
/// let filter = PrivacyFilter(options: PrivacyOptions(pseudonymizer: key, dropFreeText: true))
/// let shared = filter.apply(run)
/// ```
/// CSV formula neutralising (`--excel-safe`) is a writer option instead
/// (`CSVWriter(path:schema:timeZone:byteOrderMark:excelSafe:)`): it changes bytes, not data.
public struct PrivacyOptions: Sendable {
  /// When set, participant ids become keyed pseudonyms, in `participant_id` and inside `source`.
  public var pseudonymizer: Pseudonymizer?
  /// When true, free text typed by participants is blanked (rules on `PrivacyFilter`).
  public var dropFreeText: Bool

  public init(pseudonymizer: Pseudonymizer? = nil, dropFreeText: Bool = false) {
    self.pseudonymizer = pseudonymizer
    self.dropFreeText = dropFreeText
  }

  /// True when `PrivacyFilter.apply` would change anything at all.
  public var isActive: Bool { pseudonymizer != nil || dropFreeText }

  /// One sentence per active transform, for the codebook and `datapackage.json` descriptions,
  /// so whoever receives the files knows ids were replaced and why text cells are empty.
  public var notes: [String] {
    var notes: [String] = []
    if pseudonymizer != nil { notes.append(Self.pseudonymNote) }
    if dropFreeText { notes.append(Self.freeTextNote) }
    return notes
  }

  /// The note for pseudonymized ids.
  public static let pseudonymNote =
    "participant_id holds keyed pseudonyms (p + 16 hex digits of HMAC-SHA256 of the original id);"
    + " the original id is also replaced inside source paths."

  /// The note for dropped free text.
  public static let freeTextNote =
    "Free text was removed (--drop-free-text): text answers, typed \"Other\" choices and"
    + " location addresses keep their row and status answered, with an empty value."
}
