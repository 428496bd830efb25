// A fast 64-bit content fingerprint for the --state file: FNV-1a, no cryptographic claim.
import Foundation
import RKImport

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

  /// Hashes a file on disk, read in chunks of up to 1 MiB into one buffer; nil when it cannot
  /// be read. (Through `FileHandle` each file cost a 1 MiB `Data` and a byte-by-byte walk of
  /// it: as much as importing the file.)
  public static func ofFile(atPath path: String) -> String? {
    // Non-blocking: opening a named pipe would otherwise wait for a writer forever.
    let fd = FileSystemName.openPath(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    let chunkSize = min(max(Int(info.st_size), 4096), 1 << 20)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    var hash = ContentHash()
    while true {
      let got = read(fd, buffer.baseAddress, chunkSize)
      if got < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if got == 0 { break }
      hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
    }
    return hash.hex
  }
}
