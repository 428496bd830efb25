// A thread of its own for the workbook, so libxlsxwriter's work overlaps the CSV writing.
import Foundation

/// Runs workbook jobs one after another, in submission order, on one thread of its own.
///
/// A workbook is not thread-safe: once jobs are submitted, every call on the workbook and its
/// sheets must go through `submit` until `finish()` returns. At most `capacity` jobs wait:
/// `submit` blocks when the thread falls that far behind, so memory stays flat.
/// After a job throws, later jobs are skipped and the error is thrown by the next `submit` and
/// by `finish()`. Always end with `finish()` or `cancel()`: the thread runs until then.
///
/// ```swift
/// let thread = XLSXWriterThread()
/// try thread.submit { try sheet.write(rows) }
/// try thread.submit { try workbook.close() }
/// try thread.finish()
/// ```
public final class XLSXWriterThread: @unchecked Sendable {
  private let condition = NSCondition()
  private let capacity: Int
  private var jobs: [() throws -> Void] = []
  /// Index of the next job to run in `jobs` (the front is dropped in bulk, not one by one).
  private var next = 0
  private var closed = false
  private var failure: Error?
  private var finished = false
  private var syncWaiters = 0

  public init(capacity: Int = 64) {
    self.capacity = max(capacity, 1)
    let thread = Thread { [self] in run() }
    thread.name = "rkexport.xlsx"
    thread.start()
  }

  /// Queues a job; blocks while `capacity` jobs wait.
  ///
  /// - Throws: the first error of an earlier job, or `CancellationError` after `cancel()` or
  ///   `finish()`.
  public func submit(_ job: @escaping () throws -> Void) throws {
    condition.lock()
    defer { condition.unlock() }
    while failure == nil && !closed && jobs.count - next >= capacity { condition.wait() }
    if let failure { throw failure }
    guard !closed else { throw CancellationError() }
    jobs.append(job)
    condition.broadcast()
  }

  /// Runs `job` after the queued ones and returns its result (for calls whose answer is needed
  /// now, such as adding a sheet).
  public func sync<Value>(_ job: @escaping () throws -> Value) throws -> Value {
    let box = ResultBox<Value>()
    try submit { box.result = Result { try job() } }
    condition.lock()
    defer { condition.unlock() }
    syncWaiters += 1
    while box.result == nil && failure == nil && !finished { condition.wait() }
    syncWaiters -= 1
    if let result = box.result { return try result.get() }
    throw failure ?? CancellationError()
  }

  /// Waits for every queued job and ends the thread; throws the first job error.
  public func finish() throws {
    condition.lock()
    defer { condition.unlock() }
    closed = true
    condition.broadcast()
    while !finished { condition.wait() }
    if let failure { throw failure }
  }

  /// Drops the jobs not started, waits for the running one and ends the thread.
  public func cancel() {
    condition.lock()
    defer { condition.unlock() }
    jobs.removeSubrange(next...)
    closed = true
    condition.broadcast()
    while !finished { condition.wait() }
  }

  private func run() {
    while let job = take() {
      var error: Error?
      do { try job() } catch let thrown { error = thrown }
      condition.lock()
      if let error {
        failure = failure ?? error
        jobs.removeSubrange(next...)
      }
      // Wake a blocked `submit` only once half the room is free (fewer wake-ups), a `sync`
      // caller at once.
      if error != nil || syncWaiters > 0 || jobs.count - next <= capacity / 2 {
        condition.broadcast()
      }
      condition.unlock()
    }
  }

  /// The next job, or nil (and the thread marked finished) once closed and empty.
  private func take() -> (() throws -> Void)? {
    condition.lock()
    defer { condition.unlock() }
    while next == jobs.count && !closed { condition.wait() }
    guard next < jobs.count else {
      finished = true
      jobs.removeAll()
      next = 0
      condition.broadcast()
      return nil
    }
    let job = jobs[next]
    // Release the job's data now, not when the front of the queue is dropped.
    jobs[next] = {}
    next += 1
    if next >= 1024 && next * 2 >= jobs.count {
      jobs.removeSubrange(..<next)
      next = 0
    }
    return job
  }
}

/// Carries a `sync` job's result back to the waiting thread (guarded by the queue's lock).
private final class ResultBox<Value>: @unchecked Sendable {
  var result: Result<Value, Error>?
}
