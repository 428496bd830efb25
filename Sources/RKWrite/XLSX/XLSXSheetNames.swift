// Worksheet names Excel accepts, checked in Swift so libxlsxwriter never has to refuse one.

/// Hands out valid, unique worksheet names for one workbook.
///
/// Excel's rules: 1–31 characters, none of `[ ] : * ? / \`, not starting or ending with `'`,
/// unique ignoring case, and not `History` (reserved by Excel for change tracking).
/// A name that breaks a rule is repaired, not refused: forbidden characters become `_`, long
/// names are cut, and a taken name gets ` ~2`, ` ~3`… (cut further so the suffix fits).
struct XLSXSheetNames {
  /// Excel's limit; counted in UTF-16 units, the stricter of Excel's and libxlsxwriter's counts.
  static let maxLength = 31
  private static let forbidden: Set<Character> = ["[", "]", ":", "*", "?", "/", "\\"]

  private var used: Set<String> = []

  /// A valid name close to `wanted`, not yet used in this workbook; it is marked as used.
  mutating func claim(_ wanted: String) -> String {
    let base = Self.repaired(wanted)
    var candidate = base
    var counter = 1
    while isTaken(candidate) {
      counter += 1
      candidate = Self.withSuffix(base, " ~\(counter)")
    }
    used.insert(Self.key(candidate))
    return candidate
  }

  /// A valid name for the `part`th sheet (2, 3, …) of a table that continues past the row limit:
  /// `answers (2)`, made unique like any other name.
  mutating func claimContinuation(of base: String, part: Int) -> String {
    claim(Self.withSuffix(Self.repaired(base), " (\(part))"))
  }

  /// True when `name` (ignoring case) is already used.
  func isTaken(_ name: String) -> Bool {
    used.contains(Self.key(name)) || Self.key(name) == "history"
  }

  /// `name` with forbidden characters replaced, apostrophes trimmed from both ends, control
  /// characters removed and the length cut to 31; `Sheet` when nothing is left.
  static func repaired(_ name: String) -> String {
    var text = String(
      name.map { forbidden.contains($0) ? "_" : $0 }
        .filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } })
    text = String(text.drop { $0 == "'" })
    text = cut(text, to: maxLength)
    while text.hasSuffix("'") { text.removeLast() }
    return text.isEmpty ? "Sheet" : text
  }

  /// `base` cut so that `base + suffix` fits in 31 characters, then the suffix.
  static func withSuffix(_ base: String, _ suffix: String) -> String {
    var head = cut(base, to: maxLength - suffix.utf16.count)
    while head.hasSuffix("'") { head.removeLast() }
    return head + suffix
  }

  /// The longest prefix of whole characters with at most `limit` UTF-16 units.
  static func cut(_ text: String, to limit: Int) -> String {
    var result = ""
    var length = 0
    for character in text {
      let size = character.utf16.count
      if length + size > limit { break }
      result.append(character)
      length += size
    }
    return result
  }

  private static func key(_ name: String) -> String { name.lowercased() }
}
