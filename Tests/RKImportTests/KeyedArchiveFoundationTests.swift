// Foundation value types in keyed archives: Apple-made corelibs fixtures and Darwin-only shapes.
import RKModel
import XCTest

@testable import RKImport

/// The bytes of a file in `shared/corpus/real/swift-corelibs-foundation-fixtures/`, found from
/// this file's path (package root, then its parent folder holding `shared/`).
func corelibsFixture(_ name: String, file: String = #filePath) throws -> [UInt8] {
  var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
  while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
  {
    let parent = folder.deletingLastPathComponent()
    guard parent.path != folder.path else { throw XCTSkip("package root not found") }
    folder = parent
  }
  let fixture = folder.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/real/swift-corelibs-foundation-fixtures/" + name)
  return [UInt8](try Data(contentsOf: fixture))
}

/// The archive's root decoded generically.
func rootValue(_ bytes: [UInt8]) throws -> KeyedValue {
  let archive = try KeyedArchive(bytes: bytes)
  return try archive.keyedValue(archive.root(), depth: 0)
}

final class KeyedArchiveFoundationTests: XCTestCase {
  // Expected values below were read from the fixtures with Python's plistlib.

  func testFixture_ArrayXML_SharedElementsResolved() throws {
    let value = try rootValue(corelibsFixture("NSKeyedUnarchiver-ArrayTest.plist"))
    XCTAssertEqual(
      value, .array([.string("baa"), .string("baa"), .string("black"), .string("sheep")]))
  }

  func testFixture_ComplexBinary_DictionaryNullURLUUID() throws {
    let value = try rootValue(corelibsFixture("NSKeyedUnarchiver-ComplexTest.plist"))
    let expected = KeyedValue.dictionary([
      Field(
        "array",
        .array([
          .null, .string("hello"), .number(NumberValue(34545)),
          .dictionary([Field("key", .string("val"))]),
        ])),
      Field("string", .string("hello")),
      Field("url", .string("https://www.swift.org/index.xml")),
      Field("uuid", .string("71DC068E-3420-45FF-919E-3A267D55EC22")),
    ])
    XCTAssertEqual(value, expected)
  }

  func testFixture_URLWithBase_ResolvedAgainstBase() throws {
    let value = try rootValue(corelibsFixture("NSKeyedUnarchiver-URLTest.plist"))
    XCTAssertEqual(value, .string("https://www.example.com/foo.xml"))
  }

  func testFixture_UUID_UpperCaseHyphenated() throws {
    let value = try rootValue(corelibsFixture("NSKeyedUnarchiver-UUIDTest.plist"))
    XCTAssertEqual(value, .string("0AD863BA-7584-40CF-8896-BD87B3280C34"))
  }

  func testFixture_RectValue_KeptAsGeometryString() throws {
    let value = try rootValue(corelibsFixture("NSKeyedUnarchiver-RectTest.plist"))
    XCTAssertEqual(value, .string("{{400, 300}, {200, 300}}"))
  }

  func testFixture_RangeValue_LocationAndLength() throws {
    let value = try rootValue(corelibsFixture("NSKeyedUnarchiver-RangeTest.plist"))
    XCTAssertEqual(
      value,
      .dictionary([
        Field("location", .number(NumberValue(97345))),
        Field("length", .number(NumberValue(98345))),
      ]))
  }

  func testFixture_OrderedSetXML_ElementsInIndexOrder() throws {
    let value = try rootValue(corelibsFixture("NSKeyedUnarchiver-OrderedSetTest.plist"))
    XCTAssertEqual(value, .array([.string("valgeir"), .string("nico"), .string("puzzle")]))
  }

  func testFixture_MutableOrderedSetBinary_KeysOutOfOrder_SortedByIndex() throws {
    let value = try rootValue(corelibsFixture("NSMutableOrderedSet-Numbers.archive"))
    XCTAssertEqual(value, .array((1...5).map { .number(NumberValue($0)) }))
  }

  func testFixture_SetBinary_ElementsInArchiveOrder() throws {
    let value = try rootValue(corelibsFixture("NSSet-Numbers.archive"))
    XCTAssertEqual(value, .array([3, 2, 5, 1, 4].map { .number(NumberValue($0)) }))
  }

  func testFixture_EmptySets_DecodeAsEmptyArrays() throws {
    for name in [
      "NSSet-Empty.archive", "NSMutableSet-Empty.archive",
      "NSOrderedSet-Empty.archive", "NSMutableOrderedSet-Empty.archive",
    ] {
      XCTAssertEqual(try rootValue(corelibsFixture(name)), .array([]), name)
    }
  }

  func testFixture_Notification_UnknownClassKeptWithAllKeys() throws {
    let value = try rootValue(corelibsFixture("NSKeyedUnarchiver-NotificationTest.plist"))
    XCTAssertEqual(
      value,
      .object(
        className: "NSNotification",
        fields: [
          Field("NS.name", .string("notification-name")),
          Field("NS.object", .string("notification-object")),
          Field(
            "NS.userinfo", .dictionary([Field("notification-key", .string("notification-val"))])),
        ]))
  }

  func testFixture_EveryCorelibsFile_Decodes() throws {
    let names = [
      "ArrayTest", "ComplexTest", "ConcreteValueTest", "EdgeInsetsTest", "NotificationTest",
      "OrderedSetTest", "RangeTest", "RectTest", "URLTest", "UUIDTest",
    ]
    for name in names {
      XCTAssertNoThrow(try rootValue(corelibsFixture("NSKeyedUnarchiver-\(name).plist")), name)
    }
  }
}
