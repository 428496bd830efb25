// The zone instants are written in: UTC by default, or the zone named by --tz.
import Foundation

/// Maps an instant to its offset from UTC in the output time zone.
///
/// Offsets of named zones come from the system's tz database (Foundation `TimeZone`); they are
/// cached per UTC hour (an hour without a change of offset) because looking them up is far
/// slower than formatting.
public final class TimeZoneRule: @unchecked Sendable {
  /// The zone's identifier as given (`"UTC"`, `"Europe/Zurich"`).
  public let identifier: String
  private let zone: TimeZone?
  private let lock = NSLock()
  /// Offsets by UTC hour in a fixed direct-mapped table (`hour % cacheSlots`): a study spanning
  /// years touches more hours than are worth keeping, and memory must not grow with them.
  private var cachedHours: [Int64] = []
  private var cachedOffsets: [Int32] = []
  private static let cacheSlots = 4096

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
    guard let zone, ms.magnitude < 9_000_000_000_000_000 else { return 0 }
    let hour = ms >= 0 ? ms / 3_600_000 : (ms - 3_599_999) / 3_600_000
    lock.lock()
    defer { lock.unlock() }
    if cachedHours.isEmpty {
      cachedHours = [Int64](repeating: .min, count: Self.cacheSlots)
      cachedOffsets = [Int32](repeating: 0, count: Self.cacheSlots)
    }
    let slot = Int(hour.magnitude % UInt64(Self.cacheSlots))
    if cachedHours[slot] == hour { return Int(cachedOffsets[slot]) }
    // An hour is cached only when it starts and ends with the same offset: zones half an hour
    // off whole hours change at :30 UTC (St. John's, Adelaide, Lord Howe), and an hour holding
    // both offsets cached one of them for every instant in it.
    let first = zone.secondsFromGMT(for: Self.date(hour * 3_600_000))
    let last = zone.secondsFromGMT(for: Self.date(hour * 3_600_000 + 3_599_999))
    guard first == last else { return zone.secondsFromGMT(for: Self.date(ms)) }
    cachedHours[slot] = hour
    cachedOffsets[slot] = Int32(clamping: first)
    return first
  }

  private static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

  /// ISO 8601 text of an instant in this zone, with milliseconds.
  public func format(millisecondsSince1970 ms: Int64) -> String {
    ISO8601.format(
      millisecondsSince1970: ms, offsetSeconds: offsetSeconds(atMillisecondsSince1970: ms))
  }
}
