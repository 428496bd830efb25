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
/// `consume` gets each result `inout`: it may move parts out and put them back (see
/// `ExportPass`), so that a part passed on need not be copied. What it leaves goes back to the
/// worker that made it, to be freed there.
///
/// `inputs` is any random-access collection indexed from 0 (an array, or a list that makes its
/// elements on demand so a long input list need not exist as values).
///
/// With `weight`, results may weigh more than one (a result holding many inputs' worth of
/// data): workers also pause while the results waiting to be consumed weigh more than
/// `maximumWeight` in all.
public func orderedParallelMap<Inputs, Output: Sendable>(
  _ inputs: Inputs, jobs: Int, window: Int = 64, timeout: TimeInterval? = nil,
  timedOut: ((Inputs.Element) -> Output)? = nil,
  weight: (@Sendable (Output) -> Int)? = nil, maximumWeight: Int = .max,
  transform: @escaping @Sendable (Inputs.Element) -> Output,
  consume: (Int, inout Output) throws -> Void
) rethrows
where
  Inputs: RandomAccessCollection & Sendable, Inputs.Index == Int, Inputs.Element: Sendable
{
  let jobs = max(1, min(jobs, inputs.count))
  let timeout = timedOut == nil ? nil : timeout  // without a substitute, never give up
  if jobs <= 1 && timeout == nil {
    for index in inputs.indices {
      var output = transform(inputs[index])
      try consume(index, &output)
    }
    return
  }
  let tracksTime = timeout != nil
  let state = ReorderBuffer<Output>(
    count: inputs.count, window: max(window, jobs * 2), tracksTime: tracksTime,
    maximumWeight: weight == nil ? .max : maximumWeight)
  let startWorker: @Sendable () -> Void = {
    let worker = state.addWorker()
    let thread = Thread {
      // Delivering a result and claiming the next input take the lock once; the results the
      // consumer is done with come back to be freed here, on the thread that allocated them
      // (freeing into another thread's malloc arena contends for that arena's lock).
      var claimed = state.claimNext()
      var consumed: [Output] = []
      while let index = claimed {
        let produced = transform(inputs[index])
        let outputWeight = weight?(produced) ?? 1
        // Handed over by `take()` from an optional: passed as a consumed value, the result was
        // copied (and the original freed here, after the consumer may have started on the copy:
        // two owners, so what the consumer changed in place was copied again).
        var output: Output? = consume produced
        claimed = state.deliverAndClaim(
          index, &output, weight: outputWeight, worker: worker, takingConsumed: &consumed)
        consumed.removeAll(keepingCapacity: true)
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
    for position in batch.indices {
      // Moved out for the call and back after (the worker frees it): a result handed over
      // straight from the batch was copied first, a retain and a release per reference in it.
      if var output = batch[position].take() {
        try consume(index, &output)
        batch[position] = consume output
      } else if let timedOut {
        startWorker()
        var output = timedOut(inputs[index])
        try consume(index, &output)
      }
      index += 1
    }
  }
  state.giveBack(&batch)
}

/// The shared state between the workers and the consuming thread.
///
/// Results wait in a ring of `window` slots (index modulo window): at most `window` inputs are
/// claimed and not yet taken, so slots never collide, except with a late result of an input
/// given up on, which is dropped before it touches a slot. Wake-ups are targeted and batched: a
/// worker wakes the consumer only when the next `wakeBatch` results are all there (or the last
/// ones), the consumer wakes workers only when one waits for room.
private final class ReorderBuffer<Output>: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private let window: Int
  private let tracksTime: Bool
  /// Results the consumer waits for before it is woken: each wake-up costs a context switch
  /// on both sides, and the consumer drains a batch much faster than workers fill it. Half the
  /// window, so workers still have room for as many while it drains (a quarter woke it twice
  /// as often: ~1,800 context switches in a 10k export against ~1,200, ~2 % more CPU time).
  private let wakeBatch: Int
  private var nextToTake = 0
  private var nextToClaim = 0
  private var slots: [Output?]
  /// Which worker made the result in each slot, so it is freed there (see `giveBack`).
  private var producers: [Int]
  /// Per worker, the results the consumer is done with, waiting to be freed by that worker.
  private var consumed: [[Output]] = []
  /// When each slot's input was claimed (seconds since the reference date), with a time limit.
  private var claimedAt: [Double]
  private var claimed: [Bool]
  private var abandoned: Set<Int> = []
  private var cancelled = false
  private var consumerWaits = false
  /// While the consumer waits: the end of the results it waits for, and how many are missing.
  private var wakeEnd = 0
  private var missingBeforeWake = 0
  private var workersWaiting = 0
  /// The workers that made the results in the consumer's current batch, in batch order.
  private var batchProducers: [Int] = []
  /// The weight of each slot's result, and of all results waiting to be taken.
  private var weights: [Int]
  private var waitingWeight = 0
  private let maximumWeight: Int

  init(count: Int, window: Int, tracksTime: Bool, maximumWeight: Int) {
    self.count = count
    self.window = window
    self.tracksTime = tracksTime
    self.maximumWeight = maximumWeight
    weights = Array(repeating: 0, count: window)
    wakeBatch = max(1, min(32, window / 2))
    slots = Array(repeating: nil, count: window)
    producers = Array(repeating: 0, count: window)
    claimedAt = Array(repeating: 0, count: tracksTime ? window : 0)
    claimed = Array(repeating: false, count: window)
  }

  /// A new worker's number (for `deliverAndClaim`).
  func addWorker() -> Int {
    condition.lock()
    defer { condition.unlock() }
    consumed.append([])
    return consumed.count - 1
  }

  /// The next input index to work on, or nil when all are claimed or the run was cancelled.
  func claimNext() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    return claimLocked()
  }

  /// Stores the result for `index`, taken out of `output` (left there when the consumer gave up
  /// on it), hands `worker` the results of its own the consumer is done with (in
  /// `takingConsumed`, which must be empty) and claims the next input, all under one lock.
  func deliverAndClaim(
    _ index: Int, _ output: inout Output?, weight: Int, worker: Int,
    takingConsumed done: inout [Output]
  ) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    if abandoned.remove(index) == nil {
      let slot = index % window
      claimed[slot] = false
      slots[slot] = output.take()
      producers[slot] = worker
      weights[slot] = weight
      waitingWeight += weight
      if consumerWaits && index >= nextToTake && index < wakeEnd {
        missingBeforeWake -= 1
        // While the results weigh too much, workers wait for the consumer: the rest of its
        // batch would not come, so it takes the next result as soon as it is there.
        let workersHeld = waitingWeight > maximumWeight
        if missingBeforeWake == 0 || (workersHeld && index == nextToTake) {
          condition.broadcast()
        }
      }
    }
    swap(&done, &consumed[worker])
    return claimLocked()
  }

  /// Waits for room: within the window, and (with weights) while the results waiting weigh no
  /// more than the maximum. The consumer never waits on an input nobody could claim: when it
  /// waits for the next one unclaimed, it has taken every result, and nothing weighs.
  private func claimLocked() -> Int? {
    while !cancelled && nextToClaim < count
      && (nextToClaim >= nextToTake + window || waitingWeight > maximumWeight)
    {
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

  /// Hands the results of the last batch back to the workers that made them, and empties it.
  func giveBack(_ batch: inout [Output?]) {
    condition.lock()
    defer { condition.unlock() }
    giveBackLocked(&batch)
  }

  private func giveBackLocked(_ batch: inout [Output?]) {
    var position = 0
    for index in batch.indices {
      // A timed-out input's place (nil) has no producer.
      guard let output = batch[index].take() else { continue }
      consumed[batchProducers[position]].append(consume output)
      position += 1
    }
    batch.removeAll(keepingCapacity: true)
    batchProducers.removeAll(keepingCapacity: true)
  }

  /// Replaces `batch` with the results from the next one to take onwards, as many as are ready
  /// (at least one; waits for it); the previous batch goes back to its workers. A nil entry
  /// (alone in its batch) is an input whose transform ran past `timeout` seconds.
  func takeReady(into batch: inout [Output?], timeout: TimeInterval?) {
    condition.lock()
    defer { condition.unlock() }
    giveBackLocked(&batch)
    while true {
      while nextToTake < count, let output = slots[nextToTake % window].take() {
        batch.append(output)
        batchProducers.append(producers[nextToTake % window])
        waitingWeight -= weights[nextToTake % window]
        nextToTake += 1
      }
      if !batch.isEmpty {
        if workersWaiting > 0 { condition.broadcast() }
        return
      }
      consumerWaits = true
      wakeEnd = min(nextToTake + wakeBatch, count)
      missingBeforeWake = (nextToTake..<wakeEnd).count { slots[$0 % window] == nil }
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
      let now = Date.timeIntervalSinceReferenceDate
      if now >= claimedAt[slot] + timeout {
        claimed[slot] = false
        abandoned.insert(nextToTake)
        nextToTake += 1
        batch.append(nil)
        if workersWaiting > 0 { condition.broadcast() }
        return
      }
      // Wake when the batch is complete or at the first deadline among the awaited inputs (a
      // stuck one is then given up when it is the next to take); an awaited input not claimed
      // yet has no deadline: look again within a second.
      var wakeAt = now + min(timeout, 1)
      for index in nextToTake..<wakeEnd where slots[index % window] == nil {
        guard index < nextToClaim, claimed[index % window] else { continue }
        wakeAt = min(wakeAt, claimedAt[index % window] + timeout)
      }
      _ = condition.wait(until: Date(timeIntervalSinceReferenceDate: wakeAt))
    }
  }

  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
