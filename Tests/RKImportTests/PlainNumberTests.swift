// ArchivedObject.number(_:), integer(_:) and bool(_:) read plain plist numbers straight from the plist
// (stored in place or as NSNumber objects in `$objects`): the same values as the general path,
// which still reads everything else.
import RKModel
import XCTest

@testable import RKImport

final class PlainNumberTests: XCTestCase {
  /// An object with each value under `numericAnswer`-like keys, in place and by UID.
  private func archive(_ value: ArchiveBuilder.Value) throws -> (KeyedArchive, ArchivedObject) {
    let builder = ArchiveBuilder()
    let stored: PlistObject
    switch value {
    case .int(let number): stored = .integer(number)
    case .real(let number): stored = .real(number)
    case .bool(let flag): stored = .bool(flag)
    default: stored = .string("not a number")
    }
    let byUID = builder.inline(stored)
    let root = builder.object(
      "ORKNumericQuestionResult",
      [("questionType", value), ("numericAnswer", .uid(byUID))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: root))
    guard case .object(let object) = try archive.root() else {
      throw ImportError(reason: "root is not an object")
    }
    return (archive, object)
  }

  private func assertSameAsGeneralPath(
    _ value: ArchiveBuilder.Value, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let (archive, object) = try archive(value)
    defer { withExtendedLifetime(archive) {} }
    for key in [FieldKey.questionType, .numericAnswer] {
      let general = try object.value(forKey: key).flatMap { v throws(ImportError) in
        try archive.number(v)
      }
      let generalBool = try object.value(forKey: key).flatMap { v throws(ImportError) in
        try archive.bool(v)
      }
      let fast = try object.number(key)
      XCTAssertEqual(fast?.text, general?.text, "\(key)", file: file, line: line)
      XCTAssertEqual(
        fast?.double.bitPattern, general?.double.bitPattern, "\(key)", file: file, line: line)
      XCTAssertEqual(fast?.isInteger, general?.isInteger, "\(key)", file: file, line: line)
      XCTAssertEqual(try object.bool(key), generalBool, "\(key)", file: file, line: line)
      XCTAssertEqual(
        try object.integer(key), general.flatMap { Int(exactly: $0.double) }, "\(key)",
        file: file, line: line)
    }
  }

  func testIntegersOfEverySize_MatchGeneralPath() throws {
    let values: [Int64] = [
      0, 1, 127, 255, 256, 65_535, 65_536, 2_147_483_647, 2_147_483_648, 4_294_967_295,
      4_294_967_296, Int64.max, -1, -255, Int64.min,
    ]
    for value in values { try assertSameAsGeneralPath(.int(value)) }
  }

  func testRealsAndBooleans_MatchGeneralPath() throws {
    for value in [0.0, -0.0, 0.5, -2.25, 3.0, 1e300, 72.5, .infinity, .nan] {
      try assertSameAsGeneralPath(.real(value))
    }
    try assertSameAsGeneralPath(.bool(true))
    try assertSameAsGeneralPath(.bool(false))
  }

  func testKnownValues() throws {
    // By hand: an unsigned 4-byte integer, a negative 8-byte one, a real and a boolean.
    // (An `ArchivedObject` needs its archive alive: each is kept until the checks are done.)
    func check(_ value: ArchiveBuilder.Value, _ body: (ArchivedObject) throws -> Void) throws {
      let (archive, object) = try self.archive(value)
      try withExtendedLifetime(archive) { try body(object) }
    }
    try check(.int(4_294_967_295)) {
      XCTAssertEqual(try $0.number(.questionType)?.text, "4294967295")
    }
    try check(.int(-1)) { XCTAssertEqual(try $0.number(.numericAnswer)?.text, "-1") }
    try check(.real(72.5)) { object in
      let real = try object.number(.numericAnswer)
      XCTAssertEqual(real?.text, "72.5")
      XCTAssertEqual(real?.isInteger, false)
    }
    try check(.real(3.0)) { XCTAssertEqual(try $0.integer(.questionType), 3) }
    try check(.real(72.5)) { XCTAssertNil(try $0.integer(.questionType)) }
    // 2^63 - 1 becomes the Double 2^63, which no Int holds.
    try check(.int(Int64.max)) { XCTAssertNil(try $0.integer(.questionType)) }
    try check(.int(-255)) { XCTAssertEqual(try $0.integer(.numericAnswer), -255) }
    try check(.bool(true)) {
      XCTAssertEqual(try $0.bool(.questionType), true)
      XCTAssertEqual(try $0.integer(.questionType), 1)
    }
    try check(.int(0)) { XCTAssertEqual(try $0.bool(.numericAnswer), false) }
  }

  func testNotANumber_StillReportedByGeneralPath() throws {
    let (archive, object) = try archive(.string("seven"))
    try withExtendedLifetime(archive) {
      XCTAssertThrowsError(try object.number(.questionType))
      XCTAssertThrowsError(try object.number(.numericAnswer))
      XCTAssertThrowsError(try object.integer(.questionType))
    }
  }
}
