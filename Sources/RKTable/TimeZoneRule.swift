// The zone instants are written in: UTC by default, or the zone named by --tz.
import Foundation

/// A stretch of instants with one offset from UTC: `first...last`, in milliseconds since 1970.
public struct OffsetSpan: Sendable, Equatable {
  public var first: Int64
  public var last: Int64
  /// Seconds east of UTC throughout the span.
  public var offsetSeconds: Int

  public init(first: Int64, last: Int64, offsetSeconds: Int) {
    self.first = first
    self.last = last
    self.offsetSeconds = offsetSeconds
  }

  /// A span holding no instant, for a cache not filled yet.
  public static let none = OffsetSpan(first: 1, last: 0, offsetSeconds: 0)

  @inline(__always)
  public func contains(_ ms: Int64) -> Bool { ms >= first && ms <= last }
}

/// Maps an instant to its offset from UTC in a time zone.
///
/// Offsets of named zones come from the system's tz database (Foundation `TimeZone`), far
/// slower to ask than an instant is to format, so they are cached two ways:
/// - per UTC hour (an hour without a change of offset): two questions to the zone, ~3 k
///   instructions, for instants scattered over decades (dates of birth);
/// - per block of 2³⁵ ms (about 398 days) as the block's transitions, once `blockAfterMisses`
///   of the block's hours have missed the hour cache: ~100 k instructions (ICU's transition
///   search), and then every instant of the block is answered from them (a study's runs, in
///   `--tz`).
/// A writer that formats many instants keeps the span its last one fell in
/// (`span(containing:)`) and asks the rule only when an instant leaves it.
public final class TimeZoneRule: @unchecked Sendable {
  /// The zone's identifier as given (`"UTC"`, `"Europe/Zurich"`).
  public let identifier: String
  private let zone: TimeZone?
  private let lock = NSLock()
  /// Offsets by UTC hour in a fixed direct-mapped table (`hour % hourSlots`), and blocks by
  /// number (`block % blockSlots`): a study spanning years touches more hours and blocks
  /// than are worth keeping, and memory must not grow with them.
  private var cachedHours: [Int64] = []
  private var cachedOffsets: [Int32] = []
  private var blocks: [BlockSlot] = []
  private static let hourSlots = 4096
  private static let blockSlots = 256
  private static let blockShift: Int64 = 35
  private static let blockAfterMisses = 16
  /// Instants this far from 1970 or farther get offset 0 (beyond any date an output writes).
  private static let farthest: Int64 = 9_000_000_000_000_000

  /// One block's offsets: `offsets[0]` from its start, `offsets[i + 1]` from `transitions[i]`.
  private struct Block {
    var transitions: [Int64]
    var offsets: [Int]
    /// False when the zone's transitions did not account for its offsets across the block;
    /// its instants are then answered by the hour.
    var isReliable: Bool
  }

  /// A block's place in the table: the hour cache's misses in it so far, then its offsets.
  private struct BlockSlot {
    var number: Int64 = .min
    var misses = 0
    var block: Block?
  }

  public static let utc = TimeZoneRule(utc: ())

  private init(utc: Void) {
    identifier = "UTC"
    zone = nil
  }

  /// A named zone (`"Europe/Zurich"`, `"UTC"`, `"GMT+2"`); nil when the tz database lacks it.
  public init?(identifier: String) {
    if identifier == "UTC" || identifier == "Z" {
      self.identifier = "UTC"
      zone = nil
      return
    }
    guard let zone = TimeZone(identifier: identifier) else { return nil }
    self.identifier = identifier
    self.zone = zone
  }

  public var isUTC: Bool { zone == nil }

  /// Seconds east of UTC at the given instant.
  public func offsetSeconds(atMillisecondsSince1970 ms: Int64) -> Int {
    span(containing: ms).offsetSeconds
  }

  /// A stretch around `ms` known to share its offset (at least `ms` itself).
  public func span(containing ms: Int64) -> OffsetSpan {
    guard let zone else { return OffsetSpan(first: .min, last: .max, offsetSeconds: 0) }
    guard ms.magnitude < Self.farthest else {
      return OffsetSpan(first: ms, last: ms, offsetSeconds: 0)
    }
    let number = ms >> Self.blockShift
    lock.lock()
    defer { lock.unlock() }
    if blocks.isEmpty {
      blocks = [BlockSlot](repeating: BlockSlot(), count: Self.blockSlots)
      cachedHours = [Int64](repeating: .min, count: Self.hourSlots)
      cachedOffsets = [Int32](repeating: 0, count: Self.hourSlots)
    }
    let blockSlot = Int(number & Int64(Self.blockSlots - 1))
    if blocks[blockSlot].number == number, let block = blocks[blockSlot].block, block.isReliable {
      return Self.span(containing: ms, in: block, number: number)
    }
    let hour = ms >= 0 ? ms / 3_600_000 : (ms - 3_599_999) / 3_600_000
    let hourStart = hour * 3_600_000
    let hourLast = hourStart + 3_599_999
    let hourSlot = Int(hour.magnitude % UInt64(Self.hourSlots))
    if cachedHours[hourSlot] == hour {
      return OffsetSpan(
        first: hourStart, last: hourLast, offsetSeconds: Int(cachedOffsets[hourSlot]))
    }
    if blocks[blockSlot].number != number { blocks[blockSlot] = BlockSlot(number: number) }
    if blocks[blockSlot].block == nil {
      blocks[blockSlot].misses += 1
      if blocks[blockSlot].misses >= Self.blockAfterMisses {
        let block = Self.block(number, of: zone)
        blocks[blockSlot].block = block
        if block.isReliable { return Self.span(containing: ms, in: block, number: number) }
      }
    }
    // An hour is cached only when it starts and ends with the same offset: zones half an hour
    // off whole hours change at :30 UTC (St. John's, Adelaide, Lord Howe), and an hour holding
    // both offsets cached one of them for every instant in it.
    let first = zone.secondsFromGMT(for: Self.date(hourStart))
    let last = zone.secondsFromGMT(for: Self.date(hourLast))
    guard first == last else {
      return OffsetSpan(first: ms, last: ms, offsetSeconds: zone.secondsFromGMT(for: Self.date(ms)))
    }
    cachedHours[hourSlot] = hour
    cachedOffsets[hourSlot] = Int32(clamping: first)
    return OffsetSpan(first: hourStart, last: hourLast, offsetSeconds: first)
  }

  /// The span of `block` (number `number`) that holds `ms`.
  private static func span(containing ms: Int64, in block: Block, number: Int64) -> OffsetSpan {
    // The spans of a block are few (two a year where clocks change): a linear search.
    var index = 0
    while index < block.transitions.count && block.transitions[index] <= ms { index += 1 }
    let start = number << blockShift
    return OffsetSpan(
      first: index == 0 ? start : block.transitions[index - 1],
      last: index == block.transitions.count
        ? start + (1 << blockShift) - 1 : block.transitions[index] - 1,
      offsetSeconds: block.offsets[index])
  }

  /// The zone's offsets across block `number`, from its transitions, each span's offset
  /// checked at its last millisecond too.
  private static func block(_ number: Int64, of zone: TimeZone) -> Block {
    let start = number << blockShift
    let last = start + (1 << blockShift) - 1
    var block = Block(
      transitions: [], offsets: [zone.secondsFromGMT(for: date(start))], isReliable: true)
    var cursor = date(start)
    while let next = zone.nextDaylightSavingTimeTransition(after: cursor) {
      // The first millisecond at or after the transition: Foundation's offsets are asked at
      // `ms / 1000` seconds.
      let seconds = next.timeIntervalSince1970
      guard seconds.isFinite, abs(seconds) < 1e13 else { break }
      let ms = Int64((seconds * 1000).rounded(.up))
      if ms > last { break }
      // A transition not after the previous one, or a block with implausibly many: not
      // trusted.
      guard ms > (block.transitions.last ?? start), block.transitions.count < 64 else {
        block.isReliable = false
        return block
      }
      block.transitions.append(ms)
      block.offsets.append(zone.secondsFromGMT(for: date(ms)))
      cursor = next
    }
    // Each span's last millisecond must have its first's offset: a change the transitions
    // did not report would show there.
    for (index, offset) in block.offsets.enumerated() {
      let spanLast = index < block.transitions.count ? block.transitions[index] - 1 : last
      if zone.secondsFromGMT(for: date(spanLast)) != offset {
        block.isReliable = false
        break
      }
    }
    return block
  }

  private static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

  /// ISO 8601 text of an instant in this zone, with milliseconds.
  public func format(millisecondsSince1970 ms: Int64) -> String {
    ISO8601.format(
      millisecondsSince1970: ms, offsetSeconds: offsetSeconds(atMillisecondsSince1970: ms))
  }
}
