// A memo of the last few lookups by a short text key, in front of a dictionary.

/// The last few (key, value) pairs a lookup found, compared before a dictionary hashes the key.
/// A study has a handful of tasks, and a run's task id compared with a few recent ones costs a
/// few dozen instructions where hashing it cost ~350, per run (the pivot and the statistics
/// collector both look a run's task up).
struct RecentLookups<Value> {
  private var entries: [(key: String, value: Value)] = []
  private let limit: Int

  init(limit: Int = 8) { self.limit = limit }

  /// The value noted for `key`, if it is among the recent ones.
  func value(for key: String) -> Value? {
    for entry in entries where entry.key == key { return entry.value }
    return nil
  }

  /// Notes `value` for `key` as the most recent, forgetting the oldest beyond the limit.
  mutating func note(_ key: String, _ value: Value) {
    if entries.count == limit { entries.removeFirst() }
    entries.append((key, value))
  }
}

extension RecentLookups: Sendable where Value: Sendable {}
