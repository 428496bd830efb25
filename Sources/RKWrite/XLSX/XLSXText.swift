// Text cells made safe for Excel: the 32,767-character limit and OOXML's `_xHHHH_` escapes.

/// Prepares text for an Excel cell without losing it silently.
enum XLSXText {
  /// Excel's limit on the characters in one cell.
  static let maxCellCharacters = 32_767
  /// Appended to text that was cut at the cell limit, so a reader sees the cut.
  static let truncationMarker = "…[truncated]"

  /// The text to hand to libxlsxwriter, and the original length in UTF-16 units when it was cut.
  ///
  /// OOXML stores a character that XML cannot hold as `_xHHHH_` (ECMA-376 Part 1, ST_Xstring);
  /// readers decode such sequences, so an underscore followed by `x` or `X` in the text is
  /// itself escaped (`_x005F_`) to survive.
  /// NUL, which would end a C string, is written as `_x0000_`. Excel counts characters in
  /// UTF-16 units; libxlsxwriter counts code points, which are never more.
  static func prepare(_ text: String, limit: Int = maxCellCharacters) -> (String, Int?) {
    if text.utf8.count <= limit && !needsEscaping(text) { return (text, nil) }
    let keep = limit - truncationMarker.utf16.count
    let scalars = text.unicodeScalars
    var result = String.UnicodeScalarView()
    var length = 0
    // Where the result may be cut: after a whole piece whose end still leaves room for the marker.
    var cutPoint = result.endIndex
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let piece = escaped(scalars, at: index)
      let pieceLength = piece.reduce(0) { $0 + $1.utf16.count }
      if length + pieceLength > limit {
        let kept = String(result[..<cutPoint])
        return (kept + truncationMarker, text.utf16.count)
      }
      result.append(contentsOf: piece)
      length += pieceLength
      if length <= keep { cutPoint = result.endIndex }
      index = scalars.index(after: index)
    }
    return (String(result), nil)
  }

  private static func needsEscaping(_ text: String) -> Bool {
    var previousUnderscore = false
    for byte in text.utf8 {
      if byte == 0 { return true }
      if previousUnderscore && (byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X")) {
        return true
      }
      previousUnderscore = byte == UInt8(ascii: "_")
    }
    return false
  }

  /// One scalar as it must be written: `_x0000_` for NUL, `_x005F_` for an underscore before
  /// `x` or `X`, else the scalar itself.
  private static func escaped(
    _ scalars: String.UnicodeScalarView, at index: String.Index
  ) -> [Unicode.Scalar] {
    let scalar = scalars[index]
    if scalar == "\0" { return Array("_x0000_".unicodeScalars) }
    if scalar == "_" && startsEscapeLookalike(scalars, at: index) {
      return Array("_x005F_".unicodeScalars)
    }
    return [scalar]
  }

  /// True when `_` at `index` is followed by `x` or `X`: the start of something a reader might
  /// decode as an escape (LibreOffice also decodes short forms such as `_x12_`).
  private static func startsEscapeLookalike(
    _ scalars: String.UnicodeScalarView, at index: String.Index
  ) -> Bool {
    let next = scalars.index(after: index)
    return next < scalars.endIndex && (scalars[next] == "x" || scalars[next] == "X")
  }

}
