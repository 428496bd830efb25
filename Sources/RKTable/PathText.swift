// Path text without Foundation's path methods: `NSString.deletingLastPathComponent` traps on a
// one-character path ("s") in swift-corelibs-foundation, and such a path can come from the
// command line (`--state s`).

/// Operations on path text, by its UTF-8 bytes (`/` never occurs inside a name).
public enum PathText {
  /// The folder part of `path`, as `NSString.deletingLastPathComponent` gives it: repeated
  /// slashes as one, trailing ones ignored; "" for a bare name, "/" for a name in the root.
  public static func parent(of path: String) -> String {
    let slash = UInt8(ascii: "/")
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count)
    for byte in path.utf8 where byte != slash || bytes.last != slash { bytes.append(byte) }
    if bytes.count > 1 && bytes.last == slash { bytes.removeLast() }
    guard let last = bytes.lastIndex(of: slash) else { return "" }
    if last == 0 { return "/" }
    return String(decoding: bytes[..<last], as: UTF8.self)
  }
}
