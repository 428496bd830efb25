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
  let tracksTime = timeout != nil
  let state = ReorderBuffer<Output>(
    count: inputs.count, window: max(window, jobs * 2), tracksTime: tracksTime)
  let startWorker: @Sendable () -> Void = {
    let thread = Thread {
      // Delivering a result and claiming the next input take the lock once.
      var claimed = state.claimNext()
      while let index = claimed {
        claimed = state.deliverAndClaim(index, transform(inputs[index]))
      }
    }
    thread.stackSize = 8 << 20  // deep but bounded recursion in readers
    thread.start()
  }
  for _ in 0..<jobs { startWorker() }
  defer { state.cancel() }
  // Each wake-up drains every result that is ready, so the consumer sleeps (and workers wake
  // it) about once per batch rather than once per input.
  var batch: [Output?] = []
  var index = 0
  while index < inputs.count {
    state.takeReady(into: &batch, timeout: timeout)
    for output in batch {
      if let output {
        try consume(index, output)
      } else if let timedOut {
        startWorker()
        try consume(index, timedOut(inputs[index]))
      }
      index += 1
    }
  }
}

/// The shared state between the workers and the consuming thread.
///
/// Results wait in a ring of `window` slots (index modulo window): at most `window` inputs are
/// claimed and not yet taken, so slots never collide, except with a late result of an input
/// given up on, which is dropped before it touches a slot. Wake-ups are targeted: a worker wakes
/// the consumer only for the result it waits for, the consumer wakes workers only when one
/// waits for room.
private final class ReorderBuffer<Output>: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private let window: Int
  private let tracksTime: Bool
  private var nextToClaim = 0
  private var nextToTake = 0
  private var slots: [Output?]
  /// When each slot's input was claimed (seconds since the reference date), with a time limit.
  private var claimedAt: [Double]
  private var claimed: [Bool]
  private var abandoned: Set<Int> = []
  private var cancelled = false
  private var consumerWaits = false
  private var workersWaiting = 0

  init(count: Int, window: Int, tracksTime: Bool) {
    self.count = count
    self.window = window
    self.tracksTime = tracksTime
    slots = Array(repeating: nil, count: window)
    claimedAt = Array(repeating: 0, count: tracksTime ? window : 0)
    claimed = Array(repeating: false, count: window)
  }

  /// The next input index to work on, or nil when all are claimed or the run was cancelled.
  func claimNext() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    return claimLocked()
  }

  /// Stores the result for `index` (dropped when the consumer gave up on it) and claims the
  /// next input, all under one lock.
  func deliverAndClaim(_ index: Int, _ output: Output) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    if abandoned.remove(index) == nil {
      let slot = index % window
      claimed[slot] = false
      slots[slot] = output
      if consumerWaits && index == nextToTake { condition.broadcast() }
    }
    return claimLocked()
  }

  private func claimLocked() -> Int? {
    while !cancelled && nextToClaim < count && nextToClaim >= nextToTake + window {
      workersWaiting += 1
      condition.wait()
      workersWaiting -= 1
    }
    guard !cancelled, nextToClaim < count else { return nil }
    let index = nextToClaim
    nextToClaim += 1
    let slot = index % window
    claimed[slot] = true
    if tracksTime {
      claimedAt[slot] = Date.timeIntervalSinceReferenceDate
      // The consumer waiting for this input now has a deadline to wait for.
      if consumerWaits && index == nextToTake { condition.broadcast() }
    }
    return index
  }

  /// Replaces `batch` with the results from the next one to take onwards, as many as are ready
  /// (at least one; waits for it). A nil entry (alone in its batch) is an input whose transform
  /// ran past `timeout` seconds.
  func takeReady(into batch: inout [Output?], timeout: TimeInterval?) {
    batch.removeAll(keepingCapacity: true)
    condition.lock()
    defer { condition.unlock() }
    while true {
      while nextToTake < count, let output = slots[nextToTake % window] {
        slots[nextToTake % window] = nil
        batch.append(output)
        nextToTake += 1
      }
      if !batch.isEmpty {
        if workersWaiting > 0 { condition.broadcast() }
        return
      }
      consumerWaits = true
      defer { consumerWaits = false }
      guard let timeout else {
        condition.wait()
        continue
      }
      let slot = nextToTake % window
      guard nextToTake < nextToClaim, claimed[slot] else {
        _ = condition.wait(until: Date().addingTimeInterval(min(timeout, 1)))
        continue
      }
      let deadline = Date(timeIntervalSinceReferenceDate: claimedAt[slot] + timeout)
      if Date() >= deadline {
        claimed[slot] = false
        abandoned.insert(nextToTake)
        nextToTake += 1
        batch.append(nil)
        if workersWaiting > 0 { condition.broadcast() }
        return
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
