// Class records found by their names' numbers (`ClassNameTable`, `recordByNames`): numbers
// stand for exact bytes, a record is found only under its own name and chain, and whatever
// the table declines (long chains, UTF-16 names, unusual keys, a full table) is decoded by the
// signature path to the same record.
import XCTest

@testable import RKImport

final class ClassNameTableTests: XCTestCase {
  private func number(_ table: ClassNameTable, _ text: String) -> Int? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer {
      table.number(of: $0.baseAddress!, count: $0.count)
    }
  }

  func testNumbers_SameBytesSameNumber_OtherBytesOther() throws {
    let table = ClassNameTable()
    let names = ["NSObject", "ORKResult", "ORKResulT", "ORKResult2", "", "A", "ORKStepResult"]
    let numbers = try names.map { try XCTUnwrap(number(table, $0), $0) }
    XCTAssertEqual(Set(numbers).count, names.count, "each name its own number")
    for (name, first) in zip(names, numbers) {
      XCTAssertEqual(number(table, name), first, "\(name) numbered again")
    }
  }

  func testNumbers_LongNameDeclined_FullTableDeclinesNewNamesOnly() throws {
    let table = ClassNameTable()
    XCTAssertNotNil(number(table, String(repeating: "x", count: ClassNameTable.longestName)))
    XCTAssertNil(number(table, String(repeating: "y", count: ClassNameTable.longestName + 1)))
    let kept = try XCTUnwrap(number(table, "NSObject"))
    // Two numbered so far; fill the rest.
    for index in 2..<ClassNameTable.maximumNames {
      XCTAssertNotNil(number(table, "Class\(index)"), "name \(index)")
    }
    XCTAssertNil(number(table, "OneTooMany"))
    XCTAssertEqual(number(table, "NSObject"), kept, "names numbered before stay found")
  }

  func testRecords_FoundUnderTheirKeyOnly() {
    let table = ClassNameTable()
    let chainA = [1, 2, 3]
    let chainB = [1, 2]
    let keyA = chainA.withUnsafeBufferPointer { key(name: 1, $0) }
    let keyB = chainB.withUnsafeBufferPointer { key(name: 1, $0) }
    XCTAssertNotEqual(keyA, keyB)
    XCTAssertNotEqual(keyA, .empty)
    XCTAssertNil(table.record(for: keyA))
    let record = ArchiveClass(
      name: "X", chain: ["X", "ORKResult", "NSObject"], foundation: nil, family: .generic,
      knownClasses: 0)
    table.remember(record, for: keyA)
    XCTAssertEqual(table.record(for: keyA)?.chain, ["X", "ORKResult", "NSObject"])
    XCTAssertNil(table.record(for: keyB))
  }

  /// The key `recordByNames` builds: the name's number, the chain's count, then its numbers.
  private func key(name: Int, _ chain: UnsafeBufferPointer<Int>) -> ClassNameTable.RecordKey {
    var low = UInt64(name) | UInt64(chain.count) << 12
    var high: UInt64 = 1 << 63
    for (index, number) in chain.enumerated() {
      if index < 4 {
        low |= UInt64(number) << (16 + 12 * index)
      } else {
        high |= UInt64(number) << (12 * (index - 4))
      }
    }
    return ClassNameTable.RecordKey(low: low, high: high)
  }

  // MARK: - Through the archive

  /// The record of the object `uid` of an archive made by `build`, read on this thread.
  private func classRecord(
    _ build: (ArchiveBuilder) -> UInt64
  ) throws -> ArchiveClass {
    let builder = ArchiveBuilder()
    let uid = build(builder)
    let archive = try KeyedArchive(bytes: builder.bytes(root: uid))
    let index = try archive.archiveClass(uid: uid, for: 0)
    return archive.classes[index]
  }

  /// A class record whose key strings and names are given as plist objects (so that several
  /// records can share them, as NSKeyedArchiver's do).
  private func record(
    _ builder: ArchiveBuilder, nameKey: Int, classesKey: Int, name: Int, chain: [Int]
  ) -> UInt64 {
    builder.inline(
      .dictionary(keys: [nameKey, classesKey], values: [name, builder.add(.array(chain))]))
  }

  func testSameNameOtherChains_EachItsOwnRecord_AcrossArchives() throws {
    for _ in 0..<2 {
      let long = try classRecord { b in
        let x = b.add(.string("XResult"))
        return self.record(
          b, nameKey: b.add(.string("$classname")), classesKey: b.add(.string("$classes")),
          name: x, chain: [x, b.add(.string("ORKResult")), b.add(.string("NSObject"))])
      }
      XCTAssertEqual(long.name, "XResult")
      XCTAssertEqual(long.chain, ["XResult", "ORKResult", "NSObject"])
      let short = try classRecord { b in
        let x = b.add(.string("XResult"))
        return self.record(
          b, nameKey: b.add(.string("$classname")), classesKey: b.add(.string("$classes")),
          name: x, chain: [x, b.add(.string("NSObject"))])
      }
      XCTAssertEqual(short.chain, ["XResult", "NSObject"])
      let date = try classRecord { b in
        self.record(
          b, nameKey: b.add(.string("$classname")), classesKey: b.add(.string("$classes")),
          name: b.add(.string("NSDate")),
          chain: [b.add(.string("NSDate")), b.add(.string("NSObject"))])
      }
      XCTAssertEqual(date.foundation, .date)
    }
  }

  func testSharedStrings_ManyRecords_EachDecodedAsItsBytes() throws {
    // One archive, four records sharing their key strings and chain names (as NSKeyedArchiver
    // writes them): the archive's memo of string numbers serves the later ones.
    let builder = ArchiveBuilder()
    let nameKey = builder.add(.string("$classname"))
    let classesKey = builder.add(.string("$classes"))
    let object = builder.add(.string("NSObject"))
    let result = builder.add(.string("ORKResult"))
    let question = builder.add(.string("ORKQuestionResult"))
    let names = ["ORKChoiceQuestionResult", "ORKScaleQuestionResult", "ORKStepResult", "NSArray"]
    var uids: [UInt64] = []
    for name in names {
      let own = builder.add(.string(name))
      let chain =
        name.hasPrefix("NS")
        ? [own, object]
        : name == "ORKStepResult" ? [own, result, object] : [own, question, result, object]
      uids.append(
        record(builder, nameKey: nameKey, classesKey: classesKey, name: own, chain: chain))
    }
    let archive = try KeyedArchive(bytes: builder.bytes(root: uids[0]))
    var chains: [[String]] = []
    for uid in uids {
      chains.append(archive.classes[try archive.archiveClass(uid: uid, for: 0)].chain)
    }
    XCTAssertEqual(
      chains,
      [
        ["ORKChoiceQuestionResult", "ORKQuestionResult", "ORKResult", "NSObject"],
        ["ORKScaleQuestionResult", "ORKQuestionResult", "ORKResult", "NSObject"],
        ["ORKStepResult", "ORKResult", "NSObject"],
        ["NSArray", "NSObject"],
      ])
    XCTAssertEqual(
      archive.classes[try archive.archiveClass(uid: uids[3], for: 0)].foundation, .array)
    XCTAssertEqual(
      archive.classes[try archive.archiveClass(uid: uids[0], for: 0)].family, .choice)
  }

  func testDeclinedShapes_DecodedByTheSignaturePath() throws {
    // Ten chain entries (one more than a key holds), a UTF-16 name, the keys in other order
    // and a name missing from its chain: each read twice, so a second read finds nothing
    // wrongly remembered.
    let ten = (0..<9).map { "Level\($0)" } + ["NSObject"]
    for _ in 0..<2 {
      let deep = try classRecord { b in
        self.record(
          b, nameKey: b.add(.string("$classname")), classesKey: b.add(.string("$classes")),
          name: b.add(.string("Level0")), chain: ten.map { b.add(.string($0)) })
      }
      XCTAssertEqual(deep.chain, ten)
      let zurich = try classRecord { b in
        self.record(
          b, nameKey: b.add(.string("$classname")), classesKey: b.add(.string("$classes")),
          name: b.add(.string("Zürich")),
          chain: [b.add(.string("Zürich")), b.add(.string("NSObject"))])
      }
      XCTAssertEqual(zurich.chain, ["Zürich", "NSObject"])
      let reversed = try classRecord { b in
        let chain = b.add(.array([b.add(.string("NSUUID")), b.add(.string("NSObject"))]))
        return b.inline(
          .dictionary(
            keys: [b.add(.string("$classes")), b.add(.string("$classname"))],
            values: [chain, b.add(.string("NSUUID"))]))
      }
      XCTAssertEqual(reversed.chain, ["NSUUID", "NSObject"])
      XCTAssertEqual(reversed.foundation, .uuid)
      let apart = try classRecord { b in
        self.record(
          b, nameKey: b.add(.string("$classname")), classesKey: b.add(.string("$classes")),
          name: b.add(.string("AppResult")), chain: [b.add(.string("ORKResult"))])
      }
      // The decoder puts a name missing from its chain in front.
      XCTAssertEqual(apart.chain, ["AppResult", "ORKResult"])
    }
  }
}
