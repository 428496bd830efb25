// Hostile object graphs: cycles, deep nesting, exponential sharing, bad UIDs and class records.
import RKModel
import XCTest

@testable import RKImport

final class KeyedArchiveHostileTests: XCTestCase {
  private let resultChain = ["ORKTaskResult", "ORKCollectionResult", "ORKResult", "NSObject"]

  private func importError(_ bytes: [UInt8]) -> ImportError? {
    do {
      _ = try KeyedArchiveImporter.importRuns(from: bytes)
      return nil
    } catch {
      return error as? ImportError
    }
  }

  func testSelfReferencingTask_ReportsCycle() {
    let builder = ArchiveBuilder()
    let task = builder.nextUID
    let results = task + 2  // after the task object and its class record
    _ = builder.object("ORKTaskResult", classes: resultChain, [("results", .uid(results))])
    XCTAssertEqual(builder.array([task]), results)
    let error = importError(builder.bytes(root: task))
    XCTAssertEqual(error?.reason, "reference cycle: the object contains itself")
  }

  func testObjectKeyPointingToItself_GenericDecodeReportsCycle() throws {
    let builder = ArchiveBuilder()
    let uid = builder.nextUID
    _ = builder.object("AppThing", [("me", .uid(uid))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: uid))
    XCTAssertThrowsError(try archive.keyedValue(archive.root(), depth: 0)) { error in
      XCTAssertEqual((error as? ImportError)?.reason, "reference cycle: the object contains itself")
    }
  }

  func testTenThousandDeepChain_ReportsNesting() throws {
    let builder = ArchiveBuilder()
    var inner = builder.string("bottom")
    for _ in 0..<10_000 { inner = builder.object("AppNode", [("next", .uid(inner))]) }
    let archive = try KeyedArchive(bytes: builder.bytes(root: inner))
    XCTAssertThrowsError(try archive.keyedValue(archive.root(), depth: 0)) { error in
      XCTAssertEqual((error as? ImportError)?.reason, "nesting deeper than 256 levels")
    }
    XCTAssertThrowsError(try ArchiveInspector.render(builder.bytes(root: inner)))
  }

  func testExponentialSharing_StopsQuickly() throws {
    // 60 levels, each an array holding the level below twice: 2^60 paths, ~200 objects.
    let builder = ArchiveBuilder()
    var level = builder.string("leaf")
    for _ in 0..<60 { level = builder.array([level, level]) }
    let archive = try KeyedArchive(bytes: builder.bytes(root: level))
    XCTAssertThrowsError(try archive.keyedValue(archive.root(), depth: 0)) { error in
      XCTAssertEqual(
        (error as? ImportError)?.reason, "too many object visits (shared objects nested too often)")
    }
  }

  func testUIDOutOfRange_NamesObjectAndKey() {
    let builder = ArchiveBuilder()
    let task = builder.object("ORKTaskResult", classes: resultChain, [("identifier", .uid(9999))])
    let error = importError(builder.bytes(root: task))
    XCTAssertEqual(error?.location, "object 1 (ORKTaskResult) identifier")
    XCTAssertEqual(error?.reason, "reference to object 9999 out of range (3 objects)")
  }

  func testObjectsEntryOutOfRange_NamesTheArrayAndReference() {
    // `$objects` = [$null, plist object 200] in a plist of ten objects (one-byte references).
    var plist: [PlistObject] = []
    func add(_ object: PlistObject) -> Int {
      plist.append(object)
      return plist.count - 1
    }
    let null = add(.string("$null"))
    let objects = add(.array([null, 200]))
    let top = add(.dictionary(keys: [add(.string("root"))], values: [add(.uid(0))]))
    let keys = ["$archiver", "$objects", "$top"].map { add(.string($0)) }
    let values = [add(.string("NSKeyedArchiver")), objects, top]
    let archive = add(.dictionary(keys: keys, values: values))
    let bytes = BPlistWriter.write(plist, top: archive)
    XCTAssertThrowsError(try KeyedArchive(bytes: bytes)) { error in
      XCTAssertEqual((error as? ImportError)?.location, "object 1")
      XCTAssertEqual(
        (error as? ImportError)?.reason, "reference to object 200 out of range (10 objects)")
    }
  }

  func testRootUIDOutOfRange_Fails() {
    let builder = ArchiveBuilder()
    _ = builder.string("x")
    XCTAssertEqual(importError(builder.bytes(root: 50))?.reason, "root object 50 out of range")
  }

  func testClassRecordIsAString_Fails() {
    let builder = ArchiveBuilder()
    let notARecord = builder.inline(.string("not a class record"))  // UID 1
    let task = builder.object("ORKTaskResult", classes: resultChain, [])  // UID 2, record 3
    _ = builder.bytes(root: task)
    // Point the task's $class (UID 3) at the string instead of its class record.
    let objects = builder.plist.map { $0 == .uid(3) ? .uid(notARecord) : $0 }
    let error = importError(BPlistWriter.write(objects, top: objects.count - 1))
    XCTAssertEqual(error?.reason, "class record is a string")
  }

  func testMissingArchiveKeys_Fails() {
    let bytes = BPlistWriter.write(
      [.dictionary(keys: [1], values: [2]), .string("a"), .integer(1)], top: 0)
    XCTAssertEqual(
      importError(bytes)?.reason, "not a keyed archive: $archiver, $objects or $top missing")
  }

  func testRootNotATaskResult_Fails() {
    let builder = ArchiveBuilder()
    let error = importError(builder.bytes(root: builder.string("hello")))
    XCTAssertEqual(error?.location, "root")
    XCTAssertEqual(error?.reason, "expected an ORKTaskResult or an array of them, found a string")
  }
}
