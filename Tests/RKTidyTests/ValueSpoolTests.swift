// The statistics' value spool: values come back per variable in the order they went in,
// whether they stayed in memory or went to the file in blocks.
import Foundation
import RKModel
import XCTest

@testable import RKTidy

final class ValueSpoolTests: XCTestCase {
  func testSpool_InterleavedVariablesOverManyBlocks_ReadBackInOrder() throws {
    let directory = try makeDirectory()
    let spool = ValueSpool(directory: directory)
    let first = spool.makeVariable()
    let second = spool.makeVariable()
    let empty = spool.makeVariable()
    let count = ValueSpool.blockCapacity * 3 + 7
    for index in 0..<count {
      spool.append(Double(index), to: first)
      if index % 2 == 0 { spool.append(-Double(index), to: second) }
    }
    XCTAssertEqual(spool.values(of: first), (0..<count).map(Double.init))
    XCTAssertEqual(
      spool.values(of: second), stride(from: 0, to: count, by: 2).map { -Double($0) })
    XCTAssertEqual(spool.values(of: empty), [])
    XCTAssertEqual(spool.count(of: first), count)
    XCTAssertNil(spool.failure)
  }

  func testSpool_FileIsUnlinkedAtOnce_LeavesNothingInTheFolder() throws {
    let directory = try makeDirectory()
    let spool = ValueSpool(directory: directory)
    let variable = spool.makeVariable()
    for index in 0..<(ValueSpool.blockCapacity * 2) { spool.append(Double(index), to: variable) }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
    XCTAssertEqual(spool.values(of: variable).count, ValueSpool.blockCapacity * 2)
  }

  /// A spool file cut short (or holding a block that is not full) cannot give its values back:
  /// `failure` says so, and what could be read is returned without a crash.
  func testSpool_FileCutShort_FailureNotACrash() throws {
    let directory = try makeDirectory()
    let spool = ValueSpool(directory: directory)
    let variable = spool.makeVariable()
    let count = ValueSpool.blockCapacity * 3 + 5
    for index in 0..<count { spool.append(Double(index), to: variable) }
    let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    let descriptors = entries.compactMap(Int32.init).filter { fd in
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
      return target?.hasPrefix(directory + "/") == true
    }
    XCTAssertEqual(descriptors.count, 1, "the spool's file")
    guard let descriptor = descriptors.first else { return }
    // Keep the first block and half of the second: the third, read first, is gone, so only the
    // values still in memory come back.
    let blockBytes = 16 + ValueSpool.blockCapacity * MemoryLayout<Double>.stride
    XCTAssertEqual(ftruncate(descriptor, off_t(blockBytes + blockBytes / 2)), 0)
    let values = spool.values(of: variable)
    XCTAssertNotNil(spool.failure)
    XCTAssertEqual(values, Array((ValueSpool.blockCapacity * 3..<count).map(Double.init)))

    // A block whose header gives another count than a full block's.
    let other = ValueSpool(directory: directory)
    let second = other.makeVariable()
    for index in 0..<count { other.append(Double(index), to: second) }
    let otherDescriptor = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
      .compactMap(Int32.init).first { fd in
        fd != descriptor
          && (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"))?
            .hasPrefix(directory + "/") == true
      }
    guard let otherDescriptor else { return XCTFail("the second spool's file") }
    var shortCount = Int64(100).littleEndian
    XCTAssertEqual(pwrite(otherDescriptor, &shortCount, 8, off_t(2 * blockBytes + 8)), 8)
    _ = other.values(of: second)
    XCTAssertNotNil(other.failure)
  }

  func testSpool_MissingFolder_KeepsValuesInMemory() {
    let spool = ValueSpool(directory: "/nonexistent-rkexport-folder")
    let variable = spool.makeVariable()
    for index in 0..<(ValueSpool.blockCapacity + 3) { spool.append(Double(index), to: variable) }
    XCTAssertEqual(
      spool.values(of: variable), (0..<(ValueSpool.blockCapacity + 3)).map(Double.init))
  }

  func testCollector_SpooledAndInMemory_GiveTheSameStatistics() throws {
    var runs: [TaskRun] = []
    for number in 0..<(ValueSpool.blockCapacity * 2 + 5) {
      let value = Double((number * 7919) % 1000) / 8
      let start = Instant(secondsSince1970: Double(number))
      runs.append(
        TaskRun(
          taskIdentifier: "survey", runUUID: "R\(number)", startDate: start,
          endDate: Instant(secondsSince1970: Double(number) + value),
          steps: [
            StepRecord(
              identifier: "s1", startDate: start,
              endDate: Instant(secondsSince1970: Double(number) + value / 3),
              results: [
                ResultRecord(
                  identifier: "q1", className: "ORKScaleQuestionResult", answerType: .scale,
                  answer: .scale(NumberValue(value)), startDate: start,
                  endDate: Instant(secondsSince1970: Double(number) + value / 5))
              ])
          ],
          participantID: "P\(number % 3)", source: "P/\(number)"))
    }
    var inMemory = StatisticsCollector()
    let directory = try makeDirectory()
    var spooled = StatisticsCollector(spoolDirectory: directory)
    for run in runs {
      inMemory.add(run)
      spooled.add(run)
    }
    let expected = inMemory.statistics()
    XCTAssertNotNil(expected.first?.questions.first?.numbers)
    XCTAssertEqual(spooled.statistics(), expected)
    XCTAssertNil(spooled.spoolFailure)

    // Discarded: the scratch file is closed (on another thread), and the numbers are gone,
    // which `spoolFailure` says instead of statistics without them passing for complete.
    XCTAssertEqual(openScratchFiles(in: directory), 1)
    spooled.discardValues()
    XCTAssertTrue(waitUntil { openScratchFiles(in: directory) == 0 }, "closed")
    XCTAssertNotNil(spooled.spoolFailure)
  }

  /// This process's open files in `directory`, unlinked or not (Linux's /proc; nil elsewhere).
  private func openScratchFiles(in directory: String) -> Int? {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    else { return nil }
    return entries.filter { entry in
      let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/" + entry)
      return target?.hasPrefix(directory + "/") == true
    }.count
  }

  private func waitUntil(_ condition: () -> Bool) -> Bool {
    for _ in 0..<500 {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }

  private func makeDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "rkexport-spool-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
  }
}
