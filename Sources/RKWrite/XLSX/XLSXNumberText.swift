// The text of the workbook's number cells: the shortest that reads back as the same double.
internal import CXLSXNumbers

/// Registers, once per process, the formatter that `CXLSXNumbers` gives libxlsxwriter's number
/// cells: Swift's own shortest round-trip digits (as `answers.csv` has them), with a whole
/// number's `.0` left out as printf leaves it out.
enum XLSXNumberText {
  static let registered: Void = rk_xlsx_set_number_formatter(format)

  /// The formatter (C-callable, no context): `value` is finite, `buffer` has `capacity` bytes.
  static let format: RKNumberFormatter = { value, buffer, capacity in
    guard let buffer, capacity >= 32 else { return 0 }
    var sink = ASCIISink(base: UnsafeMutableRawPointer(buffer), capacity: capacity)
    value.write(to: &sink)
    guard sink.fits else { return 0 }
    var count = sink.count
    // `1.0` → `1`, `-0.0` → `-0`; exponents (`1e+16`) carry no `.0`.
    if count >= 2, buffer[count - 2] == 0x2E, buffer[count - 1] == 0x30 { count -= 2 }
    return count
  }

  /// Collects `Double.write(to:)`'s ASCII straight into the C buffer: no String.
  private struct ASCIISink: TextOutputStream {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    var count = 0
    var fits = true

    mutating func write(_ string: String) {
      var text = string
      text.withUTF8 { _writeASCII($0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
      guard fits, buffer.count <= capacity - count, let source = buffer.baseAddress else {
        fits = fits && buffer.isEmpty
        return
      }
      (base + count).copyMemory(from: source, byteCount: buffer.count)
      count += buffer.count
    }
  }
}
