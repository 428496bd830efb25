// Runs a transform on several threads and hands the results back in input order.
import Foundation

/// Maps `inputs` through `transform` on `jobs` threads and calls `consume` on the calling thread
/// with each result in input order, so output never depends on thread scheduling.
///
/// At most `window` results wait to be consumed: workers pause when they run that far ahead, so
/// memory stays flat however many inputs there are.
///
/// With `timeout` and `timedOut`, an input whose transform has run longer than that many seconds is given up:
/// `consume` receives `timedOut(input)` in its place and a fresh worker takes over the stuck one's
/// share. A Swift thread cannot be killed, so the stuck transform keeps its thread (and memory)
/// until it returns or the process exits; its late result is dropped.
///
/// `inputs` is any random-access collection indexed from 0 (an array, or a list that makes its
/// elements on demand so a long input list need not exist as values).
public func orderedParallelMap<Inputs, Output: Sendable>(
  _ inputs: Inputs, jobs: Int, window: Int = 64, timeout: TimeInterval? = nil,
  timedOut: ((Inputs.Element) -> Output)? = nil,
  transform: @escaping @Sendable (Inputs.Element) -> Output,
  consume: (Int, Output) throws -> Void
) rethrows
where
  Inputs: RandomAccessCollection & Sendable, Inputs.Index == Int, Inputs.Element: Sendable
{
  let jobs = max(1, min(jobs, inputs.count))
  let timeout = timedOut == nil ? nil : timeout  // without a substitute, never give up
  if jobs <= 1 && timeout == nil {
    for index in inputs.indices { try consume(index, transform(inputs[index])) }
    return
  }
  let state = ReorderBuffer<Output>(count: inputs.count, window: max(window, jobs * 2))
  let startWorker: @Sendable () -> Void = {
    let thread = Thread {
      while let index = state.claimNext() {
        state.deliver(index, transform(inputs[index]))
      }
    }
    thread.stackSize = 8 << 20  // deep but bounded recursion in readers
    thread.start()
  }
  for _ in 0..<jobs { startWorker() }
  defer { state.cancel() }
  for index in 0..<inputs.count {
    if let output = state.take(index, timeout: timeout) {
      try consume(index, output)
    } else if let timedOut {
      startWorker()
      try consume(index, timedOut(inputs[index]))
    }
  }
}

/// The shared state between the workers and the consuming thread.
private final class ReorderBuffer<Output>: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private let window: Int
  private var nextToClaim = 0
  private var nextToTake = 0
  private var ready: [Int: Output] = [:]
  private var claimedAt: [Int: Date] = [:]
  private var abandoned: Set<Int> = []
  private var cancelled = false

  init(count: Int, window: Int) {
    self.count = count
    self.window = window
  }

  /// The next input index to work on, or nil when all are claimed or the run was cancelled.
  func claimNext() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while !cancelled && nextToClaim < count && nextToClaim >= nextToTake + window {
      condition.wait()
    }
    guard !cancelled, nextToClaim < count else { return nil }
    defer { nextToClaim += 1 }
    claimedAt[nextToClaim] = Date()
    condition.broadcast()
    return nextToClaim
  }

  func deliver(_ index: Int, _ output: Output) {
    condition.lock()
    claimedAt[index] = nil
    if abandoned.remove(index) == nil { ready[index] = output }
    condition.broadcast()
    condition.unlock()
  }

  /// The result for `index`, or nil when its transform ran past `timeout` seconds.
  func take(_ index: Int, timeout: TimeInterval?) -> Output? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let output = ready.removeValue(forKey: index) {
        nextToTake = index + 1
        condition.broadcast()
        return output
      }
      guard let timeout else {
        condition.wait()
        continue
      }
      guard let started = claimedAt[index] else {
        _ = condition.wait(until: Date().addingTimeInterval(min(timeout, 1)))
        continue
      }
      let deadline = started.addingTimeInterval(timeout)
      if Date() >= deadline {
        claimedAt[index] = nil
        abandoned.insert(index)
        nextToTake = index + 1
        condition.broadcast()
        return nil
      }
      _ = condition.wait(until: deadline)
    }
  }

  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
