// Order statistics of large samples by their bits: a few linear passes without a data-dependent
// branch each, where partitioning guesses wrong about every second value.

/// Finds the value at a position of a large sample's ascending order by bucketing the values'
/// order-preserving integer keys. A first pass counts how many keys fall in each of up to
/// 2^14 equal slices of the sample's key range, so the slice holding any position is known
/// at once; the values of that slice are copied out and the same is done to them, the slice
/// 2^14 times narrower each time, until few are left (they are sorted) or all are equal.
///
/// The first level's counts are kept, so each later position costs one pass to copy its
/// slice; the last small slice is kept sorted, so a quantile's second neighbour is usually
/// found in it. Values must be finite and none −0: then equal values have equal bits and the
/// keys' order is `<`'s, so every position holds exactly what `Array.sort()` puts there.
struct RadixSelection {
  /// The slices of the last position's search, widest first: the whole sample, then the
  /// bucket of it that held the position, and so on. A position inside one of them starts
  /// there (a quantile's two neighbours, nearby quantiles).
  private var path: [Slice]

  /// Slices of at most this many values are sorted instead of bucketed again.
  static let leafCount = 256

  init(_ values: [Double]) {
    path = [Slice(first: 0, values: values, extremes: Self.extremes(of: values))]
  }

  /// The value at `position` (0..<count) of the ascending order.
  mutating func value(at position: Int) -> Double {
    while let last = path.last, path.count > 1, !last.holds(position) { path.removeLast() }
    while true {
      let slice = path[path.count - 1]
      switch slice.kind {
      case .constant(let value): return value
      case .sorted: return slice.values[position - slice.first]
      case .buckets(let level):
        let bucket = level.bucket(holding: position - slice.first)
        // Buckets one key wide hold equal values.
        if level.shift == 0 { return Self.value(ofKey: level.lowest &+ UInt64(bucket)) }
        let (values, extremes) = slice.values.withUnsafeBufferPointer {
          level.copy(bucket, from: $0)
        }
        path.append(
          Slice(first: slice.first + level.starts[bucket], values: values, extremes: extremes))
      }
    }
  }

  /// Part of the sample in ascending order: the values at positions `first...` once sorted
  /// (themselves in any order), and how the next position in them is found.
  private struct Slice {
    enum Kind {
      case constant(Double)
      case sorted
      case buckets(Level)
    }

    let first: Int
    let values: [Double]
    let kind: Kind

    init(first: Int, values: [Double], extremes: (lowest: UInt64, highest: UInt64)) {
      self.first = first
      if extremes.lowest == extremes.highest {
        self.values = values
        kind = .constant(RadixSelection.value(ofKey: extremes.lowest))
      } else if values.count <= RadixSelection.leafCount {
        self.values = values.sorted()
        kind = .sorted
      } else {
        self.values = values
        kind = .buckets(Level(values, lowest: extremes.lowest, highest: extremes.highest))
      }
    }

    func holds(_ position: Int) -> Bool {
      position >= first && position - first < values.count
    }
  }

  /// The smallest and largest key of `values` (not empty).
  private static func extremes(of values: [Double]) -> (lowest: UInt64, highest: UInt64) {
    var lowest = UInt64.max
    var highest = UInt64.min
    for value in values {
      let key = key(value)
      lowest = min(lowest, key)
      highest = max(highest, key)
    }
    return (lowest, highest)
  }

  /// The key of a finite Double other than −0: unsigned integers in the same order as the
  /// values (negative values' bits inverted, positive values' sign bit set).
  @inline(__always)
  static func key(_ value: Double) -> UInt64 {
    let bits = value.bitPattern
    let negative = UInt64(bitPattern: Int64(bitPattern: bits) >> 63)
    return bits ^ (negative | 1 << 63)
  }

  /// The value of a `key(_:)`.
  @inline(__always)
  static func value(ofKey key: UInt64) -> Double {
    Double(bitPattern: key & 1 << 63 != 0 ? key ^ 1 << 63 : ~key)
  }

  /// One bucketing of a slice: its keys from `lowest` up in buckets of 2^`shift` keys.
  struct Level {
    let lowest: UInt64
    let highest: UInt64
    let shift: UInt64
    /// How many keys lie below each bucket; one more entry than buckets, the last the count.
    let starts: [Int]

    init(_ values: [Double], lowest: UInt64, highest: UInt64) {
      self.lowest = lowest
      self.highest = highest
      // About four values a bucket, at most 2^14 buckets (128 KiB of counts, in cache).
      let bits = UInt64(max(4, min(14, Int.bitWidth - values.count.leadingZeroBitCount - 2)))
      let span = highest &- lowest
      let spanBits = UInt64(UInt64.bitWidth - span.leadingZeroBitCount)
      let shift = spanBits > bits ? spanBits - bits : 0
      self.shift = shift
      let bucketCount = values.isEmpty ? 0 : Int(truncatingIfNeeded: span &>> shift) + 1
      var starts = [Int](repeating: 0, count: bucketCount + 1)
      starts.withUnsafeMutableBufferPointer { counts in
        values.withUnsafeBufferPointer { values in
          for value in values {
            let bucket = (RadixSelection.key(value) &- lowest) &>> shift
            counts[Int(truncatingIfNeeded: bucket) + 1] += 1
          }
        }
        for index in counts.indices.dropFirst() { counts[index] += counts[index - 1] }
      }
      self.starts = starts
    }

    /// The bucket holding the `rank`-th smallest key (0..<count).
    func bucket(holding rank: Int) -> Int {
      // The last bucket whose start is at or below `rank`.
      var low = 0
      var high = starts.count - 1
      while high - low > 1 {
        let middle = (low + high) / 2
        if starts[middle] <= rank { low = middle } else { high = middle }
      }
      return low
    }

    /// The values of `bucket`, in the slice's order, and their smallest and largest key.
    func copy(
      _ bucket: Int, from values: UnsafeBufferPointer<Double>
    ) -> ([Double], (lowest: UInt64, highest: UInt64)) {
      let count = starts[bucket + 1] - starts[bucket]
      let wanted = UInt64(bucket)
      var lowestCopied = UInt64.max
      var highestCopied = UInt64.min
      let copied = [Double](unsafeUninitializedCapacity: count) { target, initialized in
        var filled = 0
        for value in values {
          let key = RadixSelection.key(value)
          guard (key &- lowest) &>> shift == wanted else { continue }
          target[filled] = value
          filled &+= 1
          lowestCopied = min(lowestCopied, key)
          highestCopied = max(highestCopied, key)
        }
        initialized = filled
      }
      return (copied, (lowestCopied, highestCopied))
    }
  }
}
