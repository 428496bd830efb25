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
    // The standard library's parser tells each scalar's length, or an invalid sequence's (its
    // bytes after the first are continuation bytes, which start nothing valid: mapping them
    // all is mapping byte by byte).
    let bytes = Array(bytes)
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index < bytes.count {
      var parser = Unicode.UTF8.ForwardParser()
      var rest = bytes[index...].makeIterator()
      switch parser.parseScalar(from: &rest) {
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        if (0xEF80...0xEFFF).contains(scalar.value) {
          // A character of the mapped range: its bytes mapped one by one.
          for byte in encoded { scalars.append(mapped(byte)) }
        } else {
          scalars.append(scalar)
        }
        index += encoded.count
      case .error(let length):
        for byte in bytes[index..<index + length] { scalars.append(mapped(byte)) }
        index += length
      case .emptyInput:
        index = bytes.count
      }
    }
    return String(scalars)
  }

  /// Whether `text` holds a mapped byte (and so differs from the bytes it names).
  public static func holdsMappedBytes(_ text: String) -> Bool {
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
        UTF8.encode(scalar) { bytes.append($0) }
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
}
