// Runs a transform on several threads and hands the results back in input order.
import Foundation

/// Maps `inputs` through `transform` on `jobs` threads and calls `consume` on the calling thread
/// with each result in input order, so output never depends on thread scheduling.
///
/// At most `window` results wait to be consumed: workers pause when they run that far ahead, so
/// memory stays flat however many inputs there are.
public func orderedParallelMap<Input: Sendable, Output: Sendable>(
  _ inputs: [Input], jobs: Int, window: Int = 256,
  transform: @escaping @Sendable (Input) -> Output,
  consume: (Int, Output) throws -> Void
) rethrows {
  let jobs = max(1, min(jobs, inputs.count))
  if jobs <= 1 {
    for (index, input) in inputs.enumerated() { try consume(index, transform(input)) }
    return
  }
  let state = ReorderBuffer<Output>(count: inputs.count, window: max(window, jobs * 2))
  var threads: [Thread] = []
  for _ in 0..<jobs {
    let thread = Thread {
      while let index = state.claimNext() {
        state.deliver(index, transform(inputs[index]))
      }
    }
    thread.stackSize = 8 << 20  // deep but bounded recursion in readers
    threads.append(thread)
    thread.start()
  }
  defer { state.cancel() }
  for index in 0..<inputs.count {
    let output = state.take(index)
    try consume(index, output)
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
    return nextToClaim
  }

  func deliver(_ index: Int, _ output: Output) {
    condition.lock()
    ready[index] = output
    condition.broadcast()
    condition.unlock()
  }

  func take(_ index: Int) -> Output {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let output = ready.removeValue(forKey: index) {
        nextToTake = index + 1
        condition.broadcast()
        return output
      }
      condition.wait()
    }
  }

  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
