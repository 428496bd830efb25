// Class records read straight from the buffer (`readUsualSignature`) against the checked pass
// (`readCheckedSignature`): the same signature bytes whenever the direct read takes a record,
// and every unusual shape left to the checked pass.
import XCTest

@testable import RKImport

final class ClassRecordFastPathTests: XCTestCase {
  /// A class record made of `pairs`, stored in `$objects`; its UID.
  private func record(_ builder: ArchiveBuilder, _ pairs: [(String, PlistObject)]) -> UInt64 {
    let keys = pairs.map { builder.add(.string($0.0)) }
    let values = pairs.map { builder.add($0.1) }
    return builder.inline(.dictionary(keys: keys, values: values))
  }

  private func strings(_ builder: ArchiveBuilder, _ texts: [String]) -> PlistObject {
    .array(texts.map { builder.add(.string($0)) })
  }

  /// Both passes over the record `uid` of `bytes`: the direct read (nil when it declined) and
  /// the checked pass (its signature, nil when the record has no name).
  private func signatures(_ bytes: [UInt8], record uid: UInt64) throws -> (
    usual: [UInt8]?, checked: [UInt8]?
  ) {
    let archive = try KeyedArchive(bytes: bytes)
    let header = try archive.plist.header(archive.objectRefs[Int(uid)])
    var usual = ClassSignature()
    let usualRead = archive.readUsualSignature(header, into: &usual)
    if !usualRead { XCTAssertEqual(usual.bytes, [], "a declined record leaves no bytes behind") }
    var checked = ClassSignature()
    let hasName = try archive.readCheckedSignature(header, into: &checked)
    return (usualRead ? usual.bytes : nil, hasName ? checked.bytes : nil)
  }

  /// The signature layout spelled out: role, encoding 0, length (4 bytes, low first), bytes.
  private func piece(_ role: UInt8, _ text: String) -> [UInt8] {
    let count = text.utf8.count
    return [role, 0, UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), 0, 0] + Array(text.utf8)
  }

  func testUsualRecords_ReadDirectly_SameSignatureAsCheckedPass() throws {
    // Names with their length in the marker, in a one-byte and in a two-byte integer.
    let names = [
      "ORKStepResult", String(repeating: "N", count: 40), String(repeating: "L", count: 300),
    ]
    for name in names {
      let builder = ArchiveBuilder()
      let uid = record(
        builder,
        [
          ("$classname", .string(name)),
          ("$classes", strings(builder, [name, "ORKResult", "NSObject"])),
        ])
      let both = try signatures(builder.bytes(root: uid), record: uid)
      // The short name fits the 1 KB scratch; the 300-byte one too (three pieces, ~660 bytes).
      XCTAssertEqual(both.usual, both.checked, name)
      XCTAssertEqual(
        both.usual, piece(1, name) + piece(2, name) + piece(2, "ORKResult") + piece(2, "NSObject"))
    }
  }

  func testKeysInOtherOrder_ReadDirectly_PiecesInRecordOrder() throws {
    let builder = ArchiveBuilder()
    let uid = record(
      builder,
      [("$classes", strings(builder, ["NSDate", "NSObject"])), ("$classname", .string("NSDate"))])
    let both = try signatures(builder.bytes(root: uid), record: uid)
    XCTAssertEqual(both.usual, piece(2, "NSDate") + piece(2, "NSObject") + piece(1, "NSDate"))
    XCTAssertEqual(both.usual, both.checked)
  }

  func testUnusualRecords_LeftToTheCheckedPass() throws {
    let fifteen = (0..<15).map { "Class\($0)" }
    let shapes: [(String, (ArchiveBuilder) -> [(String, PlistObject)])] = [
      (
        "UTF-16 name",
        { b in [("$classname", .string("Zürich")), ("$classes", self.strings(b, ["Zürich"]))] }
      ),
      (
        "UTF-16 chain entry",
        { b in [("$classname", .string("A")), ("$classes", self.strings(b, ["A", "Ä"]))] }
      ),
      (
        "$classhints",
        { b in
          [
            ("$classname", .string("A")), ("$classes", self.strings(b, ["A"])),
            ("$classhints", self.strings(b, ["B"])),
          ]
        }
      ),
      (
        "integer in the chain",
        { b in
          [
            ("$classname", .string("A")),
            ("$classes", .array([b.add(.string("A")), b.add(.integer(7))])),
          ]
        }
      ),
      (
        "15 chain entries (count after the marker)",
        { b in
          [("$classname", .string("Class0")), ("$classes", self.strings(b, fifteen))]
        }
      ),
      (
        "over 1 KB",
        { b in
          let long = String(repeating: "x", count: 2_000)
          return [("$classname", .string(long)), ("$classes", self.strings(b, [long]))]
        }
      ),
    ]
    for (label, pairs) in shapes {
      let builder = ArchiveBuilder()
      let uid = record(builder, pairs(builder))
      let both = try signatures(builder.bytes(root: uid), record: uid)
      XCTAssertNil(both.usual, label)
      XCTAssertNotNil(both.checked, "\(label): the checked pass still finds the name")
    }
  }

  func testRecordsWithoutName_NoSignatureEitherWay() throws {
    let shapes: [(String, (ArchiveBuilder) -> [(String, PlistObject)])] = [
      ("no $classname", { b in [("$classes", self.strings(b, ["A"]))] }),
      (
        "$classname not a string",
        { b in [("$classname", .integer(1)), ("$classes", self.strings(b, ["A"]))] }
      ),
      ("empty record", { _ in [] }),
    ]
    for (label, pairs) in shapes {
      let builder = ArchiveBuilder()
      let uid = record(builder, pairs(builder))
      let both = try signatures(builder.bytes(root: uid), record: uid)
      XCTAssertNil(both.usual, label)
      XCTAssertNil(both.checked, label)
    }
  }

  func testChainEntryOutOfRange_DeclinedDirectly_CheckedPassReportsIt() throws {
    let builder = ArchiveBuilder()
    let uid = record(builder, [("$classname", .string("A")), ("$classes", .array([1_000_000]))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: uid))
    let header = try archive.plist.header(archive.objectRefs[Int(uid)])
    var usual = ClassSignature()
    XCTAssertFalse(archive.readUsualSignature(header, into: &usual))
    var checked = ClassSignature()
    XCTAssertThrowsError(try archive.readCheckedSignature(header, into: &checked))
  }

  func testArchiveClass_UnusualRecord_DecodesNameAndChain() throws {
    // The whole lookup, through the checked pass: a record with `$classhints`.
    let builder = ArchiveBuilder()
    let uid = record(
      builder,
      [
        ("$classname", .string("ORKStepResult")),
        ("$classes", strings(builder, ["ORKStepResult", "ORKResult", "NSObject"])),
        ("$classhints", strings(builder, ["ORKResult"])),
      ])
    let archive = try KeyedArchive(bytes: builder.bytes(root: uid))
    let index = try archive.archiveClass(uid: uid, for: 1)
    XCTAssertEqual(archive.classes[index].name, "ORKStepResult")
    XCTAssertEqual(archive.classes[index].chain, ["ORKStepResult", "ORKResult", "NSObject"])
  }
}
