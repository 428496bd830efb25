// SHA-256 (FIPS 180-4 §6.2) in plain Swift, so pseudonyms need no crypto package in the build.

/// An incremental SHA-256 hasher: feed bytes with `update`, read the 32-byte digest with
/// `finalize()`.
///
/// ```swift
/// SHA256.hash(Array("abc".utf8))  // ba7816bf 8f01cfea … f20015ad
/// ```
/// Only used for keyed pseudonyms (`HMACSHA256`); not constant-time, which is fine for hashing
/// identifiers on the data manager's own machine.
struct SHA256: Sendable {
  /// Bytes in a digest.
  static let digestByteCount = 32
  /// Bytes in one compression block (also HMAC's block size).
  static let blockByteCount = 64

  private var state: [UInt32] = SHA256.initialState
  /// Bytes received but not yet compressed (always fewer than 64).
  private var pending: [UInt8] = []
  /// Message length so far; FIPS 180-4 appends it in bits, modulo 2^64.
  private var messageByteCount: UInt64 = 0

  init() {
    pending.reserveCapacity(SHA256.blockByteCount)
  }

  /// The digest of `bytes` in one call.
  static func hash(_ bytes: [UInt8]) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Absorbs more message bytes.
  mutating func update(_ bytes: [UInt8]) {
    messageByteCount &+= UInt64(bytes.count)
    var index = 0
    if !pending.isEmpty {
      let take = min(SHA256.blockByteCount - pending.count, bytes.count)
      pending.append(contentsOf: bytes[0..<take])
      index = take
      guard pending.count == SHA256.blockByteCount else { return }
      compress(pending[...])
      pending.removeAll(keepingCapacity: true)
    }
    while bytes.count - index >= SHA256.blockByteCount {
      compress(bytes[index..<index + SHA256.blockByteCount])
      index += SHA256.blockByteCount
    }
    pending.append(contentsOf: bytes[index...])
  }

  /// Pads the message (FIPS 180-4 §5.1.1) and returns the digest, big-endian words.
  mutating func finalize() -> [UInt8] {
    let bitCount = messageByteCount &* 8
    var tail = pending
    tail.append(0x80)
    while tail.count % SHA256.blockByteCount != 56 { tail.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
    }
    var start = 0
    while start < tail.count {
      compress(tail[start..<start + SHA256.blockByteCount])
      start += SHA256.blockByteCount
    }
    pending.removeAll()
    var digest: [UInt8] = []
    digest.reserveCapacity(SHA256.digestByteCount)
    for word in state {
      for shift in stride(from: 24, through: 0, by: -8) {
        digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
      }
    }
    return digest
  }
}

// MARK: - Compression

extension SHA256 {
  /// H(0): the first 32 bits of the fractional parts of the square roots of the first 8 primes.
  fileprivate static let initialState: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]

  /// K: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
  fileprivate static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  @inline(__always)
  fileprivate static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
  }

  /// One application of the compression function to a 64-byte block (FIPS 180-4 §6.2.2).
  fileprivate mutating func compress(_ block: ArraySlice<UInt8>) {
    var schedule = [UInt32](repeating: 0, count: 64)
    var offset = block.startIndex
    for index in 0..<16 {
      schedule[index] =
        UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16
        | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
      offset += 4
    }
    for index in 16..<64 {
      let w15 = schedule[index - 15]
      let w2 = schedule[index - 2]
      let sigma0 = Self.rotateRight(w15, 7) ^ Self.rotateRight(w15, 18) ^ (w15 >> 3)
      let sigma1 = Self.rotateRight(w2, 17) ^ Self.rotateRight(w2, 19) ^ (w2 >> 10)
      schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
    }
    var (a, b, c, d) = (state[0], state[1], state[2], state[3])
    var (e, f, g, h) = (state[4], state[5], state[6], state[7])
    for index in 0..<64 {
      let bigSigma1 = Self.rotateRight(e, 6) ^ Self.rotateRight(e, 11) ^ Self.rotateRight(e, 25)
      let choose = (e & f) ^ (~e & g)
      let temp1 = h &+ bigSigma1 &+ choose &+ Self.roundConstants[index] &+ schedule[index]
      let bigSigma0 = Self.rotateRight(a, 2) ^ Self.rotateRight(a, 13) ^ Self.rotateRight(a, 22)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let temp2 = bigSigma0 &+ majority
      (h, g, f, e) = (g, f, e, d &+ temp1)
      (d, c, b, a) = (c, b, a, temp1 &+ temp2)
    }
    state[0] &+= a
    state[1] &+= b
    state[2] &+= c
    state[3] &+= d
    state[4] &+= e
    state[5] &+= f
    state[6] &+= g
    state[7] &+= h
  }
}
