// ArchivedObject.objects(_:) reads a plain NSArray (exactly `NS.objects` and `$class`) straight
// from the plist (KeyedArchive.plainArray): the same elements, errors and depth as the general
// path, which still reads every other shape.
import RKModel
import XCTest

@testable import RKImport

final class PlainArrayTests: XCTestCase {
  /// A step result whose `results` is an NSArray of `elements` (extra keys on the array when
  /// given), and the archive's first NSArray read beforehand (so its class record is known).
  private func archive(
    elements: (ArchiveBuilder) -> [UInt64], extraArrayKeys: [(String, ArchiveBuilder.Value)] = []
  ) throws -> KeyedArchive {
    let builder = ArchiveBuilder()
    let warmUp = builder.array([])
    let uids = elements(builder)
    let results = builder.object(
      "NSArray", [("NS.objects", .uids(uids))] + extraArrayKeys)
    let root = builder.object(
      "ORKStepResult",
      [
        ("identifier", .uid(builder.string("step"))), ("results", .uid(results)),
        ("warmUp", .uid(warmUp)),
      ])
    return try KeyedArchive(bytes: builder.bytes(root: root))
  }

  private func root(_ archive: KeyedArchive) throws -> ArchivedObject {
    guard case .object(let object) = try archive.root() else {
      throw ImportError(reason: "root is not an object")
    }
    // Reads the warm-up array through the general path: the NSArray class record is known.
    _ = try object.keyedValue(named: "warmUp")
    return object
  }

  private func results(_ builder: ArchiveBuilder) -> [UInt64] {
    (0..<3).map { index in
      builder.object(
        "ORKBooleanQuestionResult",
        [("identifier", .uid(builder.string("q\(index)"))), ("booleanAnswer", .bool(true))])
    }
  }

  func testPlainArray_SameObjectsAsGeneralPath() throws {
    let fast = try archive(elements: results)
    let general = try archive(elements: results)
    try withExtendedLifetime((fast, general)) {
      let fastRoot = try root(fast)
      let fastObjects = try fastRoot.objects(.results) ?? []
      // The fast path read the array in place: it never became an object record.
      let arrayUID = try XCTUnwrap(fastRoot.uidValue(forKey: .results))
      XCTAssertNil(fast.objects.entry(arrayUID))
      // Resolving the array first makes `objects` take the general path (it is remembered).
      let generalRoot = try root(general)
      _ = try generalRoot.value(forKey: .results)
      let generalObjects = try generalRoot.objects(.results) ?? []
      XCTAssertEqual(fastObjects.map(\.uid), generalObjects.map(\.uid))
      XCTAssertEqual(fastObjects.map(\.depth), generalObjects.map(\.depth))
      XCTAssertEqual(try fastObjects.map { try $0.string(.identifier) }, ["q0", "q1", "q2"])
    }
  }

  func testArrayWithAnotherKey_ReadByGeneralPath() throws {
    let archive = try archive(elements: results, extraArrayKeys: [("NS.extra", .int(1))])
    try withExtendedLifetime(archive) {
      let root = try root(archive)
      let objects = try root.objects(.results) ?? []
      XCTAssertEqual(try objects.map { try $0.string(.identifier) }, ["q0", "q1", "q2"])
      // Read as an object record by the general path.
      XCTAssertNotNil(archive.objects.entry(try XCTUnwrap(root.uidValue(forKey: .results))))
    }
  }

  func testElementThatIsNoObject_SameErrorOnBothPaths() throws {
    func elements(_ builder: ArchiveBuilder) -> [UInt64] {
      results(builder) + [builder.string("not a result")]
    }
    let fast = try archive(elements: elements)
    let general = try archive(elements: elements)
    try withExtendedLifetime((fast, general)) {
      var fastError: ImportError?
      var generalError: ImportError?
      do { _ = try root(fast).objects(.results) } catch { fastError = error as? ImportError }
      let generalRoot = try root(general)
      _ = try generalRoot.value(forKey: .results)
      do { _ = try generalRoot.objects(.results) } catch { generalError = error as? ImportError }
      XCTAssertNotNil(fastError)
      XCTAssertEqual(fastError?.location, generalError?.location)
      XCTAssertEqual(fastError?.reason, generalError?.reason)
      XCTAssertEqual(fastError?.reason, "expected an array of objects, found a string")
    }
  }
}
