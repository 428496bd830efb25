// A fast 64-bit content fingerprint for the --state file: FNV-1a, no cryptographic claim.
import Foundation

/// FNV-1a over 64 bits (offset basis 14695981039346656037, prime 1099511628211, as published by
/// Fowler, Noll and Vo). It tells an overwritten archive from an untouched one; it does not resist
/// deliberate collisions, which a results folder has no reason to contain.
public struct ContentHash: Sendable {
  /// The hash so far; starts at the FNV-1a 64-bit offset basis.
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  public init() {}

  /// Folds `bytes` into the hash.
  public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    var hash = value
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    value = hash
  }

  /// The hash as 16 lowercase hex digits, as written in the state file.
  public var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Hashes a file on disk in 1 MiB chunks; nil when it cannot be read.
  public static func ofFile(atPath path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var hash = ContentHash()
    while true {
      // read(upToCount:) gives nil or empty data at the end of the file.
      let chunk: Data?
      do {
        chunk = try handle.read(upToCount: 1 << 20)
      } catch {
        return nil
      }
      guard let chunk, !chunk.isEmpty else { break }
      hash.update(chunk)
    }
    return hash.hex
  }
}
