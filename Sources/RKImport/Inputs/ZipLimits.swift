// The limits that keep hostile zips (bombs, huge directories, deep nesting) from exhausting
// memory or time. Every one is checked before bytes are inflated, and again while inflating.

/// Limits applied to every zip read; all overridable (e.g. `ZipLimits(maximumEntrySize: 1 << 30)`).
///
/// Nothing is ever extracted to disk: entries are read into memory one at a time, so these
/// bound the memory one entry (or one nested zip) can take.
public struct ZipLimits: Sendable, Hashable {
  /// Entries in one zip's central directory (default 100,000).
  public var maximumEntries: Int
  /// Uncompressed bytes of one entry, declared or actually inflated (default 512 MiB).
  public var maximumEntrySize: Int64
  /// Sum of the declared uncompressed sizes of all entries of one zip (default 16 GiB).
  public var maximumTotalSize: Int64
  /// Uncompressed ÷ compressed size above which an entry is refused as a zip bomb (default 200;
  /// real result files compress 5–20×). Only checked once an entry exceeds `ratioFloorSize`.
  public var maximumCompressionRatio: Double
  /// Entries smaller than this (default 1 MiB) are never refused for their ratio.
  public var ratioFloorSize: Int64
  /// A zip inside a zip is read into memory up to this size (default 64 MiB); it is expanded one
  /// level only: zips inside it are listed as skipped.
  public var maximumNestedZipSize: Int64
  /// Bytes of the central directory read to list entries (default 64 MiB).
  public var maximumDirectorySize: Int64
  /// Zip files up to this size (default 256 KiB) are read whole and opened in memory; larger ones
  /// are read where they lie. A speed and memory trade-off only: the same entries either way.
  public var inMemoryZipSize: Int64

  public init(
    maximumEntries: Int = 100_000, maximumEntrySize: Int64 = 512 << 20,
    maximumTotalSize: Int64 = 16 << 30, maximumCompressionRatio: Double = 200,
    ratioFloorSize: Int64 = 1 << 20, maximumNestedZipSize: Int64 = 64 << 20,
    maximumDirectorySize: Int64 = 64 << 20, inMemoryZipSize: Int64 = 256 << 10
  ) {
    self.inMemoryZipSize = inMemoryZipSize
    self.maximumEntries = maximumEntries
    self.maximumEntrySize = maximumEntrySize
    self.maximumTotalSize = maximumTotalSize
    self.maximumCompressionRatio = maximumCompressionRatio
    self.ratioFloorSize = ratioFloorSize
    self.maximumNestedZipSize = maximumNestedZipSize
    self.maximumDirectorySize = maximumDirectorySize
  }

  /// Why an entry of these sizes may not be read, or nil when it may.
  func refusal(uncompressed: Int64, compressed: Int64) -> String? {
    if uncompressed > maximumEntrySize {
      return "entry is \(uncompressed) bytes uncompressed, over the limit of \(maximumEntrySize)"
    }
    if uncompressed > ratioFloorSize {
      let ratio = Double(uncompressed) / Double(max(compressed, 1))
      if ratio > maximumCompressionRatio {
        let shown = Int(ratio.rounded())
        return "entry compresses \(shown):1, over the limit of "
          + "\(Int(maximumCompressionRatio)):1 (possible zip bomb)"
      }
    }
    return nil
  }
}
