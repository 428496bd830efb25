// Ordering names and paths by their UTF-8 bytes: for ASCII text the order String's `<` gives.
import Foundation

enum ByteOrder {
  /// Whether `a` sorts before `b` by bytes (memcmp order, a proper prefix first): the order of
  /// `lexicographicallyPrecedes` on UTF-8, and of String's `<` when both are ASCII.
  @inline(__always)
  static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let common = min(a.count, b.count)
    if common > 0, let left = a.baseAddress, let right = b.baseAddress {
      let result = memcmp(left, right, common)
      if result != 0 { return result < 0 }
    }
    return a.count < b.count
  }
}
