// Looking for a short ASCII text in bytes. Foundation's String searches cost thousands of
// instructions a call on Linux (~80 k over a JSON input's first 512 bytes), and the inputs'
// names and content types are bytes already.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum ByteSearch {
  /// Whether the ASCII text `needle` occurs in `bytes`; with `foldingCase`, a letter of
  /// `needle` (written lowercase) matches either case.
  static func occurs(
    _ needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>, foldingCase: Bool = false
  ) -> Bool {
    needle.withUTF8Buffer { pattern in
      guard let first = pattern.first, bytes.count >= pattern.count else {
        return pattern.isEmpty
      }
      func matches(_ byte: UInt8, _ wanted: UInt8) -> Bool {
        guard foldingCase, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(wanted) else {
          return byte == wanted
        }
        return byte | 0x20 == wanted
      }
      for start in 0...bytes.count - pattern.count where matches(bytes[start], first) {
        if pattern.indices.allSatisfy({ matches(bytes[start + $0], pattern[$0]) }) {
          return true
        }
      }
      return false
    }
  }

  /// `occurs(_:in:foldingCase:)` over part of an array.
  static func occurs(
    _ needle: StaticString, in bytes: ArraySlice<UInt8>, foldingCase: Bool = false
  ) -> Bool {
    bytes.withUnsafeBufferPointer { occurs(needle, in: $0, foldingCase: foldingCase) }
  }
}
