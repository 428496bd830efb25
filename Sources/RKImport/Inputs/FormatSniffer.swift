// Decides an input's format from its first bytes, never from its name.

/// Recognises result formats by content.
public enum FormatSniffer {
  public static func sniff(_ bytes: [UInt8]) -> InputFormat {
    if bytes.starts(with: Array("bplist00".utf8)) { return .keyedArchiveBinary }
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
      return .zip
    }
    let head = String(decoding: bytes.prefix(512), as: UTF8.self)
    if head.contains("<plist") || (head.hasPrefix("<?xml") && head.contains("plist")) {
      return .keyedArchiveXML
    }
    return .unknown
  }

  /// A short reason for `inputs.csv` when a file is no result format.
  public static func describeUnknown(_ bytes: [UInt8]) -> String {
    if bytes.isEmpty { return "empty file" }
    return "not a result format"
  }
}
