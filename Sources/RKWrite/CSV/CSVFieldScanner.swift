// Where a field of a row that CSVFieldEncoder wrote ends: to reuse fields without parsing rows.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds field boundaries in one row as `CSVFieldEncoder` writes it: a field that needs quotes
/// starts with `"` and doubles its quotes; any other holds no comma, quote, CR or LF, so it
/// ends at the next comma, or at the row's `\n` when it is the last.
enum CSVFieldScanner {
  /// The index of the separator (`,` or the row's `\n`) after the field that starts at `start`,
  /// or `row.count` when the field runs to the end. A quoted field ends at its closing quote.
  static func end(ofFieldAt start: Int, in row: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = row.baseAddress, start < row.count else { return max(start, 0) }
    var index = start
    if row[index] == UInt8(ascii: "\"") {
      index += 1
      while index < row.count {
        if row[index] == UInt8(ascii: "\"") {
          // A doubled quote is a quote in the text; a single one closes the field.
          if index + 1 < row.count && row[index + 1] == UInt8(ascii: "\"") {
            index += 2
            continue
          }
          return index + 1
        }
        index += 1
      }
      return index
    }
    // `memchr`: most fields are short, and a byte loop costs more than the call.
    if let comma = memchr(base + index, Int32(UInt8(ascii: ",")), row.count - index) {
      return base.distance(to: comma.assumingMemoryBound(to: UInt8.self))
    }
    return row[row.count - 1] == 0x0A ? row.count - 1 : row.count
  }
}
