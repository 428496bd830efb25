// A thread of its own for the workbook, so libxlsxwriter's work overlaps the CSV writing.
import Foundation

/// Runs workbook jobs one after another, in submission order, on one thread of its own.
///
/// A workbook is not thread-safe: once jobs are submitted, every call on the workbook and its
/// sheets must go through `submit` until `finish()` returns. At most `capacity` jobs, and jobs
/// holding at most `byteLimit` bytes (as their submitters say), wait: `submit` blocks when the
/// thread falls that far behind, so memory stays flat however large the export.
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
  /// A queued job and the bytes its submitter said it holds.
  private typealias Job = (run: () throws -> Void, bytes: Int)
  private var jobs: [Job] = []
  /// Index of the next job to run in `jobs` (the front is dropped in bulk, not one by one).
  private var next = 0
  private var closed = false
  private var failure: Error?
  private var finished = false
  private var syncWaiters = 0
  private let byteLimit: Int
  /// Bytes held by the jobs submitted and not yet finished.
  private var queuedBytes = 0

  /// - Parameters:
  ///   - capacity: jobs waiting at most.
  ///   - byteLimit: bytes the waiting jobs hold at most; one job larger than this still runs,
  ///     alone. (Batches of wide rows are ~0.2 MB each: 64 of them were 13 MB.)
  public init(capacity: Int = 64, byteLimit: Int = 4 << 20) {
    self.capacity = max(capacity, 1)
    self.byteLimit = max(byteLimit, 1)
    let thread = Thread { [self] in run() }
    thread.name = "rkexport.xlsx"
    thread.start()
  }

  /// Queues a job holding about `bytes` bytes of data; blocks while `capacity` jobs wait or
  /// the waiting jobs would hold more than `byteLimit` bytes.
  ///
  /// - Throws: the first error of an earlier job, or `CancellationError` after `cancel()` or
  ///   `finish()`.
  public func submit(bytes: Int = 0, _ job: @escaping () throws -> Void) throws {
    condition.lock()
    defer { condition.unlock() }
    while failure == nil && !closed
      && (jobs.count - next >= capacity || (queuedBytes > 0 && queuedBytes + bytes > byteLimit))
    {
      condition.wait()
    }
    if let failure { throw failure }
    guard !closed else { throw CancellationError() }
    jobs.append((job, bytes))
    queuedBytes += bytes
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
    dropWaitingJobs()
    closed = true
    condition.broadcast()
    while !finished { condition.wait() }
  }

  private func run() {
    while let job = take() {
      var error: Error?
      do { try job.run() } catch let thrown { error = thrown }
      condition.lock()
      queuedBytes -= job.bytes
      if let error {
        failure = failure ?? error
        dropWaitingJobs()
      }
      // Wake a blocked `submit` only once half the room is free, in jobs and in bytes (a
      // wake-up per job cost more CPU than the workbook thread saved), a `sync` caller at
      // once. The queue drains to empty, where both hold, so a waiting `submit` always wakes.
      let halfFree = jobs.count - next <= capacity / 2 && queuedBytes <= byteLimit / 2
      if error != nil || syncWaiters > 0 || halfFree {
        condition.broadcast()
      }
      condition.unlock()
    }
  }

  /// Drops the jobs not started (with the lock held).
  private func dropWaitingJobs() {
    for index in next..<jobs.count { queuedBytes -= jobs[index].bytes }
    jobs.removeSubrange(next...)
  }

  /// The next job, or nil (and the thread marked finished) once closed and empty.
  private func take() -> Job? {
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
    jobs[next] = ({}, 0)
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
