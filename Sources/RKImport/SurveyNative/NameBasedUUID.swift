// Deterministic run ids for inputs that record none (SurveyNative submissions).

/// Name-based UUIDs: the same name and content always give the same id.
enum NameBasedUUID {
  /// A version-8 (RFC 9562 "custom") UUID from two independent 64-bit FNV-1a hashes of
  /// `name`, a NUL byte and `content`, upper-case and hyphenated like ResearchKit's.
  static func make(name: String, content: [UInt8]) -> String {
    var high: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a 64 offset basis
    var low: UInt64 = 0x6c62_272e_07bb_0142  // a second basis: an independent hash
    let prime: UInt64 = 0x0000_0100_0000_01B3
    func mix(_ byte: UInt8) {
      high = (high ^ UInt64(byte)) &* prime
      low = (low ^ UInt64(byte)) &* prime
      low = low &+ (low >> 29)
    }
    for byte in name.utf8 { mix(byte) }
    mix(0)
    for byte in content { mix(byte) }
    var bytes: [UInt8] = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
    bytes += (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
    return bytes.withUnsafeBufferPointer { UUIDText.hyphenated($0.baseAddress!) }
  }
}
