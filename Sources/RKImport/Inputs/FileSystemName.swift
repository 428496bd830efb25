// File and folder names that are not valid UTF-8 (a Latin-1 name copied from an old system, a
// zip unpacked by a tool that kept its code page's bytes): Linux allows any bytes but `/` and
// NUL, and a String made from them repairs each bad byte to U+FFFD, after which the file could
// neither be opened by that name nor told apart from another name repaired alike.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Names carried in Strings without loss: valid UTF-8 stays as it is, and each byte of a
/// sequence that is not valid UTF-8 becomes the private-use character U+EF00 + the byte
/// (U+EF80...U+EFFF, as MirBSD's OPTU-8 maps such bytes). A valid character in that range is
/// itself written as its three bytes so mapped, so every String made here turns back into
/// exactly the bytes it was made from: two names never merge, and the file opens by its name.
/// Display paths (`inputs.csv`, `source`, messages) show the mapped characters.
public enum FileSystemName {
  static let mappedBase: UInt32 = 0xEF00

  /// The String for a name's (or a path's) bytes.
  public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    // Nearly every name: ASCII, or valid UTF-8 with no character in the mapped range (whose
    // encodings begin EE BE or EE BF; any EE byte sends the name the careful way).
    if !bytes.contains(where: { $0 == 0xEE }),
      let text = String(validating: bytes, as: UTF8.self)
    {
      return text
    }
    let bytes = Array(bytes)
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index < bytes.count {
      if let (scalar, length) = validScalar(in: bytes, at: index),
        !(0xEF80...0xEFFF).contains(scalar.value)
      {
        scalars.append(scalar)
        index += length
      } else if let (_, length) = validScalar(in: bytes, at: index) {
        // A character of the mapped range: its bytes mapped one by one.
        for byte in bytes[index..<index + length] { scalars.append(mapped(byte)) }
        index += length
      } else {
        scalars.append(mapped(bytes[index]))
        index += 1
      }
    }
    return String(scalars)
  }

  /// Whether `text` holds a mapped byte (and so differs from the bytes it names).
  static func holdsMappedBytes(_ text: String) -> Bool {
    // A mapped character's UTF-8 begins EE: `memchr` rules nearly every path out at once (the
    // UTF-8 view's `contains` cost ~1,800 instructions a path).
    let holdsEE =
      text.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.baseAddress.map { memchr($0, 0xEE, bytes.count) != nil } ?? false
      } ?? text.utf8.contains(0xEE)
    return holdsEE && text.unicodeScalars.contains { (0xEF80...0xEFFF).contains($0.value) }
  }

  /// The bytes `text` was made from by `string(_:)`.
  public static func bytes(_ text: String) -> [UInt8] {
    guard holdsMappedBytes(text) else { return Array(text.utf8) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if (0xEF80...0xEFFF).contains(scalar.value) {
        bytes.append(UInt8(scalar.value - mappedBase))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Runs `body` with the NUL-terminated path of the file `path` names, for system calls.
  public static func withPath<Result>(
    _ path: String, _ body: (UnsafePointer<CChar>) throws -> Result
  ) rethrows -> Result {
    guard holdsMappedBytes(path) else { return try path.withCString(body) }
    var terminated = bytes(path)
    terminated.append(0)
    return try terminated.withUnsafeBufferPointer { buffer in
      try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
    }
  }

  /// `stat(2)` of the file `path` names (links followed): 0, or -1 with `errno` set.
  public static func status(_ path: String, _ info: inout stat) -> Int32 {
    withPath(path) { stat($0, &info) }
  }

  /// `open(2)` of the file `path` names.
  public static func openPath(_ path: String, _ flags: Int32) -> Int32 {
    withPath(path) { open($0, flags) }
  }

  /// Runs `body` with a path that Foundation (which turns a String into UTF-8 bytes) can open
  /// the file by: `path` itself, or for a name with mapped bytes the file opened here, by
  /// its descriptor's name under `/proc/self/fd` (`/dev/fd` elsewhere: whoever opens that gets
  /// the same file).
  static func withOpenedPath<Result>(_ path: String, _ body: (String) throws -> Result) rethrows
    -> Result
  {
    guard holdsMappedBytes(path) else { return try body(path) }
    let descriptor = openPath(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return try body(path) }
    defer { close(descriptor) }
    #if os(Linux)
      return try body("/proc/self/fd/\(descriptor)")
    #else
      return try body("/dev/fd/\(descriptor)")
    #endif
  }

  private static func mapped(_ byte: UInt8) -> Unicode.Scalar {
    Unicode.Scalar(mappedBase + UInt32(byte))!
  }

  /// The scalar a valid UTF-8 sequence starting at `index` encodes, and its length; nil when
  /// the bytes there are not one (a stray continuation byte, a truncated or overlong
  /// sequence, a surrogate, beyond U+10FFFF).
  private static func validScalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
    let lead = bytes[index]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    let length: Int
    var second: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      second = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      second = 0x80...0x9F
    case 0xF0:
      length = 4
      second = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      second = 0x80...0x8F
    default: return nil
    }
    guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
    var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard (0x80...0xBF).contains(byte) else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    return Unicode.Scalar(value).map { ($0, length) }
  }
}
