// UUIDs as ResearchKit writes them: 16 bytes as upper-case hyphenated text.

enum UUIDText {
  /// The 16 bytes at `bytes` as `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` (upper case), put
  /// together on the stack and made a String once: one per task run (a String per byte and
  /// per part, joined, cost ~20 k instructions; indexing arrays with bounds checks ~700).
  static func hyphenated(_ bytes: UnsafePointer<UInt8>) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
      var written = 0
      for index in 0..<16 {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          text[written] = UInt8(ascii: "-")
          written += 1
        }
        let byte = bytes[index]
        text[written] = hexDigit(byte >> 4)
        text[written + 1] = hexDigit(byte & 0x0F)
        written += 2
      }
      return String(decoding: UnsafeBufferPointer(rebasing: text[..<written]), as: UTF8.self)
    }
  }

  /// The upper-case hexadecimal digit of `value` (0…15).
  @inline(__always)
  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }
}
