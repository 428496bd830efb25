// One piece of work on a thread of its own, joined later: overlaps two independent jobs.
import Foundation

/// Runs `work` on a new thread at once; `wait()` blocks until it is done and returns its
/// result or throws its error. Always call `wait()`: what `work` uses is not safe to touch
/// from another thread before it returns.
///
/// ```swift
/// let wide = BackgroundWork(name: "rkexport.wide") { try tables.writeCSV() }
/// try writeStatistics()          // meanwhile, on this thread
/// try wide.wait()
/// ```
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var outcome: Result<Value, Error>?

  init(name: String, _ work: @escaping @Sendable () throws -> Value) {
    let thread = Thread { [self] in
      let result = Result { try work() }
      condition.lock()
      outcome = result
      condition.broadcast()
      condition.unlock()
    }
    thread.name = name
    thread.start()
  }

  /// Waits for the work to end; returns its value or throws its error (every call alike).
  @discardableResult
  func wait() throws -> Value {
    condition.lock()
    while outcome == nil { condition.wait() }
    let result = outcome
    condition.unlock()
    guard let result else { preconditionFailure("BackgroundWork ended without an outcome") }
    return try result.get()
  }
}
