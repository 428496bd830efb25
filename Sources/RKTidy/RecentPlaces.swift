// What the last runs of a task held at each place (questions, steps): found again by comparing
// keys where the run is, not by hashing them.

/// One entry per place of a task's runs, as the last runs left them. Runs of a task mostly
/// repeat their questions and steps in order; a run that skips some (a branching task, a
/// hidden SurveyNative question) finds the rest a few places on, and keeps that shift for the
/// rest of the run. Places before the run's current index already hold this run's entries.
struct RecentPlaces<Entry> {
  private(set) var entries: [Entry] = []
  /// How many places on the current run's entries were last found.
  private var shift = 0

  /// Places looked at: the expected one and three after it.
  static var lookAhead: Int { 4 }

  /// Forgets the last run's shift: called as each run starts.
  mutating func startRun() { shift = 0 }

  /// `value` of the entry for `key` at the run's place `index`: at the expected place, or a
  /// few places on. `value` reads an entry in place (the array's subscript copied it,
  /// retaining its strings) and answers nil for an entry of another key. The key is passed
  /// through, not captured: a captured key was retained and released per call.
  @inline(__always)
  mutating func find<Key, Value>(
    at index: Int, key: Key, _ value: (UnsafePointer<Entry>, Key) -> Value?
  ) -> Value? {
    let expected = index + shift
    let found = entries.withUnsafeBufferPointer { entries -> Value? in
      guard expected < entries.count else { return nil }
      return value(entries.baseAddress! + expected, key)
    }
    if let found { return found }
    return findFurtherOn(expected, index: index, key: key, value)
  }

  /// Out of line: the places after the expected one are looked at only when it missed.
  @inline(never)
  private mutating func findFurtherOn<Key, Value>(
    _ expected: Int, index: Int, key: Key,
    _ value: (UnsafePointer<Entry>, Key) -> Value?
  ) -> Value? {
    let found = entries.withUnsafeBufferPointer { entries -> (place: Int, value: Value)? in
      var place = expected + 1
      while place < min(entries.count, expected + Self.lookAhead) {
        if let found = value(entries.baseAddress! + place, key) { return (place, found) }
        place += 1
      }
      return nil
    }
    guard let found else { return nil }
    shift = found.place - index
    return found.value
  }

  /// Records the run's entry at place `index` (replacing the last runs' entry there).
  mutating func note(_ entry: Entry, at index: Int) {
    if index < entries.count {
      entries[index] = entry
    } else if index == entries.count {
      entries.append(entry)
    }
  }
}

extension RecentPlaces: Sendable where Entry: Sendable {}
