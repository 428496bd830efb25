// Where a field of a row that CSVFieldEncoder wrote ends: to reuse fields without parsing rows.

/// Finds field boundaries in rows as `CSVFieldEncoder` writes them: a field that needs quotes
/// starts with `"` and doubles its quotes; any other holds no comma, quote, CR or LF.
enum CSVFieldScanner {
  /// The index of the separator (`,` or the row's `\n`) after the field that starts at `start`,
  /// or `row.count` when the field runs to the end. A quoted field ends at its closing quote.
  static func end(ofFieldAt start: Int, in row: UnsafeBufferPointer<UInt8>) -> Int {
    var index = start
    if index < row.count && row[index] == UInt8(ascii: "\"") {
      index += 1
      while index < row.count {
        if row[index] == UInt8(ascii: "\"") {
          // A doubled quote is a quote in the text; a single one closes the field.
          if index + 1 < row.count && row[index + 1] == UInt8(ascii: "\"") {
            index += 2
            continue
          }
          index += 1
          break
        }
        index += 1
      }
    }
    while index < row.count && row[index] != UInt8(ascii: ",") && row[index] != 0x0A {
      index += 1
    }
    return index
  }
}
