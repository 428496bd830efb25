// HMAC-SHA256 (RFC 2104, FIPS 198-1) over our own SHA256: the keyed hash behind pseudonyms.

/// A keyed message authentication code with SHA-256, for many short messages under one key.
///
/// The padded inner and outer keys are absorbed once in `init`; each `code(for:)` copies those
/// two hasher states, so hashing a million participant ids costs two SHA-256 blocks each.
///
/// ```swift
/// let mac = HMACSHA256(key: Array("Jefe".utf8))
/// mac.code(for: Array("what do ya want for nothing?".utf8))  // 5bdcc146 … 64ec3843 (RFC 4231)
/// ```
struct HMACSHA256: Sendable {
  private let innerHasher: SHA256
  private let outerHasher: SHA256

  /// Any key length works: a key longer than the 64-byte block is hashed first (RFC 2104 §2).
  init(key: [UInt8]) {
    var blockKey = key.count > SHA256.blockByteCount ? SHA256.hash(key) : key
    blockKey += [UInt8](repeating: 0, count: SHA256.blockByteCount - blockKey.count)
    var inner = SHA256()
    inner.update(blockKey.map { $0 ^ 0x36 })
    var outer = SHA256()
    outer.update(blockKey.map { $0 ^ 0x5c })
    innerHasher = inner
    outerHasher = outer
  }

  /// The 32-byte code: SHA256(K ^ opad || SHA256(K ^ ipad || message)).
  func code(for message: [UInt8]) -> [UInt8] {
    var inner = innerHasher
    inner.update(message)
    var outer = outerHasher
    outer.update(inner.finalize())
    return outer.finalize()
  }
}
