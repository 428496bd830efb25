// Bytes written into memory the writer owns: the cheapest append for formatting rows.

/// A growable byte buffer that owns its memory and frees it when it goes away.
///
/// Formatting appends a few bytes at a time, hundreds of thousands of times per export;
/// `Array.append(contentsOf:)` spends over a hundred instructions per call on checks before it
/// copies. Here an append is a capacity check and a copy. Noncopyable, so the memory has
/// exactly one owner; `bytes` copies the contents out.
public struct ByteWriter: ~Copyable {
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline var used: Int
  @usableFromInline var capacity: Int

  /// An empty writer with room for `capacity` bytes before it grows.
  public init(capacity: Int = 256) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
    used = 0
  }

  deinit { base.deallocate() }

  /// The number of bytes written.
  public var count: Int { used }

  /// A copy of the bytes written.
  public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: used)) }

  @inlinable
  public mutating func append(_ byte: UInt8) {
    if used == capacity { grow(for: 1) }
    base[used] = byte
    used += 1
  }

  @inlinable
  public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    if capacity - used < bytes.count { grow(for: bytes.count) }
    (base + used).initialize(from: source, count: bytes.count)
    used += bytes.count
  }

  @inlinable
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    append(bytes.bindMemory(to: UInt8.self))
  }

  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// Appends a copy of bytes written before (`range` lies within the first `count` bytes).
  public mutating func appendCopy(of range: Range<Int>) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= used, "range beyond the bytes written")
    if capacity - used < range.count { grow(for: range.count) }
    // The source ends at or before `used`, where the copy starts: the two never overlap.
    (base + used).initialize(from: base + range.lowerBound, count: range.count)
    used += range.count
  }

  /// Forgets the bytes written, keeping the memory for the next ones.
  @inlinable
  public mutating func removeAll() { used = 0 }

  /// Lends the bytes written, without copying them.
  public func withUnsafeBytes<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    try body(UnsafeBufferPointer(start: base, count: used))
  }

  /// Counts `count` more bytes as written and returns where they go; the caller writes every
  /// one of them before the next append (they are not cleared first: bytes need no
  /// initialization before they are assigned, and clearing was a call to memset per number).
  @inlinable
  public mutating func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    if capacity - used < count { grow(for: count) }
    let start = base + used
    used += count
    return start
  }

  /// Appends the first `count` bytes (0...32) of four words, each in little-endian byte
  /// order: one capacity check and four stores, where copying a small buffer cost a call and
  /// ~50 instructions (a date cell is 24 or 29 bytes). The stores may reach past the bytes
  /// appended, into room the next appends overwrite.
  @inlinable
  public mutating func appendWords(_ words: (UInt64, UInt64, UInt64, UInt64), count: Int) {
    precondition(count >= 0 && count <= 32, "at most four words")
    if capacity - used < 32 { grow(for: 32) }
    let target = UnsafeMutableRawPointer(base + used)
    target.storeBytes(of: words.0.littleEndian, toByteOffset: 0, as: UInt64.self)
    target.storeBytes(of: words.1.littleEndian, toByteOffset: 8, as: UInt64.self)
    target.storeBytes(of: words.2.littleEndian, toByteOffset: 16, as: UInt64.self)
    target.storeBytes(of: words.3.littleEndian, toByteOffset: 24, as: UInt64.self)
    used += count
  }

  /// Moves the bytes to memory of twice the size, or of the size needed.
  @usableFromInline
  mutating func grow(for extra: Int) {
    let larger = max(capacity * 2, used + extra)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.initialize(from: base, count: used)
    base.deallocate()
    base = moved
    capacity = larger
  }
}
