// Named time zones looked up once each: tz database lookups are slow and names repeat.
import Foundation
import RKTable

/// A bounded, thread-safe cache of `TimeZoneRule`s by archived zone name.
final class ZoneCache: @unchecked Sendable {
  private let lock = NSLock()
  private var rules: [String: TimeZoneRule?] = [:]
  /// Hostile input could name many zones; the cache restarts rather than grow without bound.
  private let limit = 512

  /// The rule for a zone name, or nil when the tz database does not know it.
  func rule(named name: String) -> TimeZoneRule? {
    lock.lock()
    defer { lock.unlock() }
    if let cached = rules[name] { return cached }
    let rule = TimeZoneRule(identifier: name)
    if rules.count >= limit { rules.removeAll(keepingCapacity: true) }
    rules[name] = rule
    return rule
  }
}
