// URL strings as archives hold them: percent-decoding and NSURL base resolution.

/// Small URL-text helpers (no Foundation): enough for ResearchKit's relative paths.
enum URLText {
  /// Decodes `%XX` escapes; malformed escapes stay as written, invalid UTF-8 becomes U+FFFD.
  static func percentDecoded(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
    let input = Array(text.utf8)
    var output = [UInt8]()
    output.reserveCapacity(input.count)
    var index = 0
    while index < input.count {
      if input[index] == UInt8(ascii: "%"), index + 2 < input.count,
        let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(input[index])
        index += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// A file path from ResearchKit's `fileURL`/`outputDirectory` text (formats.md §2): a
  /// percent-encoded path relative to the app home, or a `file://` URL made absolute.
  static func filePath(_ text: String) -> String {
    var path = Substring(text)
    if path.hasPrefix("file://") {
      path = path.dropFirst(7)
      // Drop a host part ("file://localhost/…"), keeping the path's leading slash.
      if !path.hasPrefix("/"), let slash = path.firstIndex(of: "/") { path = path[slash...] }
    }
    return percentDecoded(String(path))
  }

  /// Resolves `relative` against `base` as NSURL does for the simple cases archives hold.
  static func resolve(_ relative: String, against base: String) -> String {
    if relative.contains("://") || relative.isEmpty { return relative.isEmpty ? base : relative }
    guard let scheme = base.firstRange(of: "://") else { return base + relative }
    let afterScheme = base[scheme.upperBound...]
    guard let pathStart = afterScheme.firstIndex(of: "/") else {
      return base + (relative.hasPrefix("/") ? "" : "/") + relative
    }
    if relative.hasPrefix("/") { return String(base[..<pathStart]) + relative }
    guard let lastSlash = base.lastIndex(of: "/") else { return base + relative }
    return String(base[...lastSlash]) + relative
  }
}
