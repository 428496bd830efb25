// `--excel-safe`: text cells that a spreadsheet would run as a formula get a leading `'`.
import RKTable

extension CSVWriter {
  /// `text` as `excelSafe` writes it: with `'` in front when it would start a formula.
  ///
  /// A text cell is neutralised when its first character is `=`, `+`, `-`, `@`, tab or carriage
  /// return (OWASP "CSV Injection": Excel, LibreOffice and Google Sheets treat such cells as
  /// formulas, e.g. `=HYPERLINK(…)` or `-2+3+cmd|' /C calc'!A0`); the `'` makes them plain text
  /// and Excel does not display it. Left unchanged:
  /// - number, integer, boolean, instant and duration cells (`-5` stays the number −5);
  /// - text that is a plain decimal number such as `-5`, `+3.25` or `-1e-3` (a choice value
  ///   stored as text): it cannot hold a formula and Excel reads it as the same number;
  /// - every other text, and the empty text.
  ///
  /// ```swift
  /// CSVWriter.excelSafeText("=1+1")  // "'=1+1"
  /// CSVWriter.excelSafeText("-5")    // "-5"
  /// ```
  public static func excelSafeText(_ text: String) -> String {
    needsFormulaGuard(text) ? "'" + text : text
  }

  /// True when `text` starts with a formula trigger and is not a plain decimal number.
  static func needsFormulaGuard(_ text: String) -> Bool {
    needsFormulaGuard(utf8: text.utf8)
  }

  /// `needsFormulaGuard(_:)` for text given as UTF-8 bytes.
  static func needsFormulaGuard<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) -> Bool {
    guard let first = bytes.first else { return false }
    switch first {
    case UInt8(ascii: "="), UInt8(ascii: "@"), 0x09, 0x0D: return true
    case UInt8(ascii: "+"), UInt8(ascii: "-"): return !isPlainDecimal(bytes)
    default: return false
    }
  }

  /// `[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`, ASCII only.
  static func isPlainDecimal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
    var index = bytes.startIndex
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    func skipDigits() -> Int {
      var count = 0
      while index < bytes.endIndex, isDigit(bytes[index]) {
        count += 1
        index = bytes.index(after: index)
      }
      return count
    }
    if index < bytes.endIndex,
      bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
    {
      index = bytes.index(after: index)
    }
    var mantissaDigits = skipDigits()
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
      index = bytes.index(after: index)
      mantissaDigits += skipDigits()
    }
    guard mantissaDigits > 0 else { return false }
    if index < bytes.endIndex,
      bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
    {
      index = bytes.index(after: index)
      if index < bytes.endIndex,
        bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index = bytes.index(after: index)
      }
      guard skipDigits() > 0 else { return false }
    }
    return index == bytes.endIndex
  }
}
