// A small deterministic random source: the same seed gives the same study on every machine.
import Foundation

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and fully determined by its seed.
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in `range`, drawn from this generator only.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool {
    Double(next() >> 11) / Double(1 << 53) < p
  }

  /// One element of a non-empty array.
  mutating func pick<T>(_ items: [T]) -> T {
    items[int(0...(items.count - 1))]
  }

  /// A version-4 UUID made of the next 128 bits, upper-case as `NSUUID.uuidString` prints it.
  mutating func uuid() -> UUID {
    var bytes = [UInt8](repeating: 0, count: 16)
    let high = next()
    let low = next()
    for index in 0..<8 {
      bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
      bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
    }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }

  /// Microseconds in [0, 1 s) whose sub-millisecond part stays clear of the .5 ms rounding
  /// boundary, so the expected millisecond of every instant is unambiguous.
  mutating func subSecondMicros() -> Int64 {
    let millis = Int64(int(0...999))
    let micros = Int64(chance(0.5) ? int(100...399) : int(601...899))
    return millis * 1000 + micros
  }
}
