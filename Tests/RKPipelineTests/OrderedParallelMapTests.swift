// The parallel map keeps input order and gives up on an input that runs past its time limit.
import Foundation
import XCTest

@testable import RKPipeline

final class OrderedParallelMapTests: XCTestCase {
  func testOrderedParallelMap_ThreeJobs_ResultsInInputOrder() {
    var seen: [Int] = []
    orderedParallelMap(
      Array(0..<200), jobs: 3, transform: { $0 * 2 }, consume: { _, value in seen.append(value) })
    XCTAssertEqual(seen, (0..<200).map { $0 * 2 })
  }

  func testOrderedParallelMap_SlowInput_ReplacedByTimedOutValueOthersKept() {
    var seen: [Int] = []
    let started = Date()
    orderedParallelMap(
      [1, 2, 3, 4], jobs: 2, timeout: 0.3, timedOut: { -$0 },
      transform: { value in
        if value == 2 { Thread.sleep(forTimeInterval: 5) }
        return value
      }, consume: { _, value in seen.append(value) })
    XCTAssertEqual(seen, [1, -2, 3, 4])
    XCTAssertLessThan(Date().timeIntervalSince(started), 4, "did not wait for the slow input")
  }

  func testOrderedParallelMap_SmallWindowManyInputs_ResultsInInputOrder() {
    var seen: [Int] = []
    orderedParallelMap(
      Array(0..<1000), jobs: 2, window: 4, timeout: 30, timedOut: { _ in -1 },
      transform: { $0 + 1 }, consume: { index, value in seen.append(value - index) })
    XCTAssertEqual(seen, Array(repeating: 1, count: 1000))
  }

  func testOrderedParallelMap_LateResultAfterWindowWrapped_Dropped() {
    // The slow input's result arrives after later inputs reused its slot; it must not show up.
    var seen: [Int] = []
    orderedParallelMap(
      Array(0..<40), jobs: 2, window: 4, timeout: 0.2, timedOut: { -$0 },
      transform: { value in
        // Later inputs take a while too, so the late result lands while the map still runs.
        Thread.sleep(forTimeInterval: value == 5 ? 0.5 : 0.02)
        return value
      }, consume: { _, value in seen.append(value) })
    XCTAssertEqual(seen, (0..<40).map { $0 == 5 ? -5 : $0 })
  }

  func testOrderedParallelMap_SlowInputInsideABatch_GivenUpOthersKept() {
    // The consumer waits for batches of results; a stuck input in the middle of one must still
    // be given up at its own deadline.
    var seen: [Int] = []
    let started = Date()
    orderedParallelMap(
      Array(0..<100), jobs: 2, timeout: 0.3, timedOut: { -$0 },
      transform: { value in
        if value == 37 { Thread.sleep(forTimeInterval: 5) }
        return value
      }, consume: { _, value in seen.append(value) })
    XCTAssertEqual(seen, (0..<100).map { $0 == 37 ? -37 : $0 })
    XCTAssertLessThan(Date().timeIntervalSince(started), 4, "did not wait for the slow input")
  }

  func testOrderedParallelMap_HeavyResults_WorkersWaitWhileTooMuchWaits() {
    // Every fourth result weighs 100, the others 1; the consumer is slow, so the workers
    // would run a whole window (64 results, ~1,600 of weight) ahead. With a maximum of 10 a
    // worker claims only while at most 10 waits, so at most 10 + 2 × 100 (one result of each
    // worker) waits; the consumer takes all that waits as one batch, so at most twice that is
    // made and not yet consumed.
    let waiting = Counter()
    let most = Counter()
    let lock = NSLock()
    var seen: [Int] = []
    let started = Date()
    orderedParallelMap(
      Array(0..<200), jobs: 2, timeout: 30, timedOut: { _ in -1 },
      weight: { $0 % 4 == 0 ? 100 : 1 }, maximumWeight: 10,
      transform: { value in
        lock.lock()
        waiting.add(value % 4 == 0 ? 100 : 1)
        most.raise(to: waiting.value)
        lock.unlock()
        return value
      },
      consume: { _, value in
        Thread.sleep(forTimeInterval: 0.001)
        lock.lock()
        waiting.add(value % 4 == 0 ? -100 : -1)
        lock.unlock()
        seen.append(value)
      })
    XCTAssertEqual(seen, Array(0..<200))
    XCTAssertLessThanOrEqual(most.value, 2 * (10 + 2 * 100))
    XCTAssertGreaterThan(most.value, 100, "the weights were never reached")
    XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the consumer slept on results")
  }

  func testOrderedParallelMap_HeavyResultsSlowToMake_TakenAtOnce() {
    // Each result alone weighs more than the maximum, so after each delivery the workers wait
    // for the consumer. With a timeout the consumer waits for a batch of results, which would
    // not come: it must take each result at once. (It slept until its next look, a second,
    // per result: 40 s here.)
    var seen: [Int] = []
    let started = Date()
    orderedParallelMap(
      Array(0..<40), jobs: 2, timeout: 30, timedOut: { _ in -1 },
      weight: { _ in 100 }, maximumWeight: 10,
      transform: { value in
        Thread.sleep(forTimeInterval: 0.005)
        return value
      }, consume: { _, value in seen.append(value) })
    XCTAssertEqual(seen, Array(0..<40))
    XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the consumer slept on results")
  }

  func testOrderedParallelMap_ConsumedResults_FreedOnTheThreadThatMadeThem() {
    // Freeing into another thread's malloc arena contends for its lock: results are released
    // by the worker that made them, except those consumed after their worker's last delivery
    // (a worker takes its consumed results back when it delivers the next one). At that
    // moment at most a window (64 here) waits to be taken and at most one batch taken before
    // them is with the consumer: 2 × 64 per worker, and the two workers' last deliveries come
    // at different times, so 2 × 2 × 64 of 1,000. (Before, all 1,000 were freed on the
    // consumer; a bound of one window failed about one run in 20, and of 2 × 64 once, at 168,
    // on a loaded host.)
    let consumer = pthread_self()
    let freedOnConsumer = Counter()
    let freedElsewhere = Counter()
    orderedParallelMap(
      Array(0..<1000), jobs: 2,
      transform: { value in
        Tracked(value: value) {
          if pthread_equal(pthread_self(), consumer) != 0 {
            freedOnConsumer.add()
          } else {
            freedElsewhere.add()
          }
        }
      }, consume: { index, tracked in XCTAssertEqual(tracked.value, index) })
    let deadline = Date().addingTimeInterval(5)
    while freedOnConsumer.value + freedElsewhere.value < 1000 && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    XCTAssertEqual(freedOnConsumer.value + freedElsewhere.value, 1000, "every result freed")
    XCTAssertLessThanOrEqual(freedOnConsumer.value, 2 * 2 * 64)
  }

  func testContentHash_KnownVectors_MatchFNV1a64() {
    // Reference values from the FNV test suite (isthe.com/chongo/tech/comp/fnv): "" and "a".
    XCTAssertEqual(ContentHash().hex, "cbf29ce484222325")
    var hash = ContentHash()
    hash.update(Array("a".utf8))
    XCTAssertEqual(hash.hex, "af63dc4c8601ec8c")
  }

  func testContentHash_OfFile_SameAsOverTheBytes() throws {
    let folder = try makeTemporaryFolder("hash")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Empty, one byte, and 2.5 MiB (three chunks) of varied bytes.
    var generator = SystemRandomNumberGenerator()
    let big = (0..<(5 << 19)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for (name, bytes) in [("empty", [UInt8]()), ("a", Array("a".utf8)), ("big", big)] {
      let path = folder + "/" + name
      XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      var expected = ContentHash()
      expected.update(bytes)
      XCTAssertEqual(ContentHash.ofFile(atPath: path), expected.hex, name)
    }
    XCTAssertEqual(ContentHash.ofFile(atPath: folder + "/a"), "af63dc4c8601ec8c")
    XCTAssertNil(ContentHash.ofFile(atPath: folder + "/missing"))
  }

  func testAppendMerge_SourceWithRunNumber_MapsToItsInput() {
    XCTAssertEqual(AppendMerge.inputPath("P001/a.archive#2"), "P001/a.archive")
    XCTAssertEqual(AppendMerge.inputPath("P001/a#b.archive"), "P001/a#b.archive")
    XCTAssertEqual(AppendMerge.inputPath("P001/a.archive#"), "P001/a.archive#")
  }

  func testCSVRecordFields_QuotedCommaQuoteAndLineBreak_Unquoted() {
    let record = Data("a,\"b,\"\"c\"\"\nd\",\n".utf8)
    XCTAssertEqual(CSVRecordReader.fields(record), ["a", "b,\"c\"\nd", ""])
  }
}

final class BackgroundWorkTests: XCTestCase {
  private struct Failure: Error, Equatable {}

  func testBackgroundWork_Value_ReturnedByEveryWait() throws {
    let work = BackgroundWork(name: "test") { (1...100).reduce(0, +) }
    XCTAssertEqual(try work.wait(), 5050)
    XCTAssertEqual(try work.wait(), 5050)
  }

  func testBackgroundWork_Error_ThrownByWait() {
    let work = BackgroundWork<Int>(name: "test") { throw Failure() }
    XCTAssertThrowsError(try work.wait()) { XCTAssertEqual($0 as? Failure, Failure()) }
  }
}

/// A result that reports the thread it is freed on.
private final class Tracked: Sendable {
  let value: Int
  let onFree: @Sendable () -> Void

  init(value: Int, onFree: @escaping @Sendable () -> Void) {
    self.value = value
    self.onFree = onFree
  }

  deinit { onFree() }
}

private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func add(_ amount: Int = 1) { lock.withLock { count += amount } }
  /// Keeps the larger of the count and `candidate`.
  func raise(to candidate: Int) { lock.withLock { count = max(count, candidate) } }
  var value: Int { lock.withLock { count } }
}
