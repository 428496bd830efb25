// Two pieces of text and a separator byte made one String: an input's disk path, a run's
// `path#number`. Put together on the stack and made a String once: a reserved String and two
// appends cost about twice as much, once per input or run.

extension String {
  /// `head`, `separator` and `tail` (UTF-8; invalid sequences repaired, as
  /// `String(decoding:as:)` repairs them) as one String.
  static func joining(
    _ head: UnsafeBufferPointer<UInt8>, _ separator: UInt8, _ tail: UnsafeBufferPointer<UInt8>
  ) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: head.count + 1 + tail.count) {
      text in
      let middle = text.initialize(fromContentsOf: head)
      text.initializeElement(at: middle, to: separator)
      _ = UnsafeMutableBufferPointer(rebasing: text[(middle + 1)...]).initialize(
        fromContentsOf: tail)
      return String(decoding: UnsafeBufferPointer(text), as: UTF8.self)
    }
  }
}
