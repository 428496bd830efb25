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
  /// one of them before the next append.
  @inlinable
  public mutating func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    if capacity - used < count { grow(for: count) }
    let start = base + used
    start.initialize(repeating: 0, count: count)
    used += count
    return start
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
