// The flat per-archive object table: key strings matched by hash, stored key/value pairs,
// values read in place, and the general path taken whenever the fast one cannot decide.
import RKModel
import XCTest

@testable import RKImport

final class KeyedArchiveObjectTableTests: XCTestCase {
  private let resultChain = ["ORKTaskResult", "ORKCollectionResult", "ORKResult", "NSObject"]

  /// `FieldKeyMatcher` on `text`, through both entry points (the loading one with garbage
  /// after the text, as in a real plist).
  private func match(_ text: String) -> (FieldKey?, FieldKey?) {
    let bytes = Array(text.utf8)
    let direct = bytes.withUnsafeBufferPointer { FieldKeyMatcher.key($0) }
    guard bytes.count < FieldKeyMatcher.lengthLimit else { return (direct, nil) }
    let padded = bytes + Array(repeating: UInt8(ascii: "x"), count: 32)
    let loaded = padded.withUnsafeBytes { raw in
      FieldKeyMatcher.key(loadingFrom: raw.baseAddress!, count: bytes.count)
    }
    return (direct, loaded)
  }

  func testFieldKeyMatcher_EveryKeyName_MatchesItsKey() {
    for key in FieldKey.allCases {
      let (direct, loaded) = match(key.name)
      XCTAssertEqual(direct, key, key.name)
      XCTAssertEqual(loaded, key, key.name)
    }
  }

  func testFieldKeyMatcher_NearMisses_MatchNothing() {
    for key in FieldKey.allCases {
      let name = key.name
      for miss in [name + "s", String(name.dropLast()), "_" + name, name.uppercased()]
      where FieldKey.byName[miss] == nil {
        let (direct, loaded) = match(miss)
        XCTAssertNil(direct, miss)
        XCTAssertNil(loaded, miss)
      }
    }
    XCTAssertEqual(match("").0, nil)
    XCTAssertEqual(match(String(repeating: "a", count: 40)).0, nil)
  }

  /// `FieldKey.named` finds what `byName` finds: every key's name, near misses, and names
  /// with non-ASCII characters (a combining accent, a leading `é`, the Kelvin sign U+212A,
  /// which String comparison takes for `K`), which go through `byName` itself. (No key's name
  /// holds a `K`, so no such name finds a key today.)
  func testFieldKeyNamed_SameAsByName() {
    var names: [String] = []
    for key in FieldKey.allCases {
      let name = key.name
      names += [
        name, name + "s", String(name.dropLast()), "_" + name, name.uppercased(),
        name + "\u{301}", "é" + name,
      ]
    }
    names += ["", String(repeating: "a", count: 40), "\u{212A}", "$class", "NS.time"]
    for name in names {
      XCTAssertEqual(FieldKey.named(name), FieldKey.byName[name], name.debugDescription)
    }
    XCTAssertEqual(FieldKey.named("identifier"), .identifier)
  }

  func testKeyPair_PacksCodeFlagAndNumber() {
    let uid = KeyPair(code: FieldKey.nsTime.rawValue, uid: 70_000)
    XCTAssertEqual(uid.code, FieldKey.nsTime.rawValue)
    XCTAssertTrue(uid.isUID)
    XCTAssertEqual(uid.number, 70_000)
    let ref = KeyPair(code: KeyPair.otherCode, ref: 12)
    XCTAssertEqual(ref.code, KeyPair.otherCode)
    XCTAssertFalse(ref.isUID)
    XCTAssertEqual(ref.number, 12)
  }

  func testObjectTable_FullPairStorage_RefusesAndGivesBack() {
    let table = ObjectTable(objectCount: 4, pairLimit: 10)
    XCTAssertEqual(table.reservePairs(6), 0)
    XCTAssertNil(table.reservePairs(5))
    XCTAssertEqual(table.reservePairs(4), 6)
    table.releasePairs(from: 6)
    XCTAssertEqual(table.reservePairs(3), 6)
  }

  func testInlineUIDAndDouble_ReadOnlyTheirOwnMarkers() throws {
    let objects: [PlistObject] = [.uid(7), .uid(300), .string("x"), .real(2.5), .integer(3)]
    let plist = try BPlistDocument(bytes: BPlistWriter.write(objects, top: 2))
    XCTAssertEqual(plist.inlineUID(0), 7)
    XCTAssertEqual(plist.inlineUID(1), 300)
    XCTAssertNil(plist.inlineUID(2))
    XCTAssertNil(plist.inlineUID(99))
    XCTAssertEqual(plist.inlineDouble(3), 2.5)
    XCTAssertNil(plist.inlineDouble(4))
    XCTAssertNil(plist.inlineDouble(2))
  }

  /// A task with an identifier and dates whose `NS.time` is `time`.
  private func task(startTime time: ArchiveBuilder.Value) -> [UInt8] {
    let builder = ArchiveBuilder()
    let start = builder.object("NSDate", [("NS.time", time)])
    let task = builder.object(
      "ORKTaskResult", classes: resultChain,
      [("identifier", .string("survey")), ("startDate", .uid(start))])
    return builder.bytes(root: task)
  }

  func testPlainDate_ReadInPlaceWithTheSameValue_ItsClassRecordReadOnTheWay() throws {
    let builder = ArchiveBuilder()
    let first = builder.date(100)
    let second = builder.date(250.5)
    let threeKeys = builder.object("NSDate", [("NS.time", .real(7)), ("note", .string("x"))])
    let fakes = (0..<2).map { _ in
      builder.object("ORKFake", classes: ["ORKFake", "NSObject"], [("NS.time", .real(3))])
    }
    let task = builder.object(
      "ORKTaskResult", classes: resultChain,
      [("identifier", .string("survey")), ("startDate", .uid(first)), ("endDate", .uid(second))])
    let bytes = builder.bytes(root: task)
    let archive = try KeyedArchive(bytes: bytes)
    // The class record is not read yet: the plain reader reads it, as resolving would.
    let dateClass = try XCTUnwrap(builder.classUID("NSDate"))
    XCTAssertNil(archive.classes.index(ofUID: Int(dateClass)))
    XCTAssertEqual(archive.plainDateSeconds(uid: Int(second), depth: 1), 250.5)
    XCTAssertNotNil(archive.classes.index(ofUID: Int(dateClass)))
    _ = try archive.value(uid: first, depth: 1)
    XCTAssertNil(archive.plainDateSeconds(uid: Int(first), depth: 1), "resolved already")
    XCTAssertNil(
      archive.plainDateSeconds(uid: Int(second), depth: KeyedArchive.maximumDepth + 1),
      "too deep: the general path reports it")
    XCTAssertNil(archive.plainDateSeconds(uid: Int(threeKeys), depth: 1))
    _ = try archive.value(uid: fakes[0], depth: 1)
    XCTAssertNil(archive.plainDateSeconds(uid: Int(fakes[1]), depth: 1), "not an NSDate class")
    XCTAssertNil(archive.plainDateSeconds(uid: Int(task), depth: 1))
    XCTAssertEqual(archive.plainDateSeconds(uid: Int(second), depth: 1), 250.5)
    let runs = try KeyedArchiveImporter.importRuns(from: bytes)
    XCTAssertEqual(runs.first?.startDate, Instant(secondsSinceReferenceDate: 100))
    XCTAssertEqual(runs.first?.endDate, Instant(secondsSinceReferenceDate: 250.5))
  }

  func testPlainDate_ReferencedTwice_SameSecondsEachTime_UntilResolved() throws {
    // NSKeyedArchiver stores an NSDate once however often it is referenced: the second read
    // gives what the first read in place; once the general path resolved the object, the
    // plain reader leaves it to that path, as for any remembered object.
    let builder = ArchiveBuilder()
    let shared = builder.date(1234.5)
    let task = builder.object(
      "ORKTaskResult", classes: resultChain,
      [("identifier", .string("t")), ("startDate", .uid(shared)), ("endDate", .uid(shared))])
    let bytes = builder.bytes(root: task)
    let archive = try KeyedArchive(bytes: bytes)
    XCTAssertEqual(archive.plainDateSeconds(uid: Int(shared), depth: 1), 1234.5)
    XCTAssertEqual(archive.plainDateSeconds(uid: Int(shared), depth: 1), 1234.5)
    XCTAssertNil(
      archive.plainDateSeconds(uid: Int(shared), depth: KeyedArchive.maximumDepth + 1),
      "too deep: the general path reports it")
    _ = try archive.value(uid: shared, depth: 1)
    XCTAssertNil(archive.plainDateSeconds(uid: Int(shared), depth: 1), "resolved now")
    let run = try XCTUnwrap(KeyedArchiveImporter.importRuns(from: bytes).first)
    XCTAssertEqual(run.startDate, Instant(secondsSinceReferenceDate: 1234.5))
    XCTAssertEqual(run.endDate, Instant(secondsSinceReferenceDate: 1234.5))
  }

  func testPlainDate_KeyObjectsShared_EitherOrder_ReadInPlace() throws {
    // NSKeyedArchiver stores each key string once: dates refer to the same two key objects,
    // in either order (the reader remembers the last two). Keys stored anew, and an object of
    // another class over the same keys, are read as before.
    let builder = ArchiveBuilder()
    let first = builder.date(1)
    let dateClass = try XCTUnwrap(builder.classUID("NSDate"))
    let fake = builder.object("ORKFake", classes: ["ORKFake", "NSObject"], [])
    let fakeClass = try XCTUnwrap(builder.classUID("ORKFake"))
    let time = builder.add(.string("NS.time"))
    let marker = builder.add(.string("$class"))
    func date(_ seconds: Double, classUID: UInt64, classFirst: Bool) -> UInt64 {
      let value = builder.add(.real(seconds))
      let type = builder.add(.uid(classUID))
      return builder.inline(
        .dictionary(
          keys: classFirst ? [marker, time] : [time, marker],
          values: classFirst ? [type, value] : [value, type]))
    }
    let dates = [
      date(10, classUID: dateClass, classFirst: false),
      date(20, classUID: dateClass, classFirst: false),
      date(30, classUID: dateClass, classFirst: true),
      date(40, classUID: dateClass, classFirst: false),
    ]
    let other = date(50, classUID: fakeClass, classFirst: false)
    let task = builder.object(
      "ORKTaskResult", classes: resultChain, [("startDate", .uid(first)), ("endDate", .uid(fake))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    XCTAssertEqual(archive.plainDateSeconds(uid: Int(first), depth: 1), 1)
    XCTAssertEqual(
      dates.map { archive.plainDateSeconds(uid: Int($0), depth: 1) }, [10, 20, 30, 40])
    _ = try archive.value(uid: fake, depth: 1)
    XCTAssertNil(archive.plainDateSeconds(uid: Int(other), depth: 1), "not an NSDate class")
  }

  func testKeyLayout_SharedKeyObjects_ReusedOnlyForTheSameReferences() throws {
    // Dictionaries whose key references are the same bytes as an earlier one's take its key
    // codes (`ObjectTable.keyLayout`); the same count of other keys, or the same keys in
    // another order, are read anew, and each object answers for its own keys.
    let builder = ArchiveBuilder()
    let first = builder.object(
      "ORKBooleanQuestionResult", classes: ["ORKBooleanQuestionResult", "ORKResult", "NSObject"],
      [("identifier", .string("first"))])
    let resultClass = try XCTUnwrap(builder.classUID("ORKBooleanQuestionResult"))
    let identifier = builder.add(.string("identifier"))
    let questionType = builder.add(.string("questionType"))
    let appNote = builder.add(.string("appNote"))
    let marker = builder.add(.string("$class"))
    func result(_ keys: [Int], _ name: String) -> UInt64 {
      let values = keys.map { key in
        switch key {
        case identifier: builder.add(.string(name))
        case questionType: builder.add(.integer(1))
        case appNote: builder.add(.string("note"))
        default: builder.add(.uid(resultClass))
        }
      }
      return builder.inline(.dictionary(keys: keys, values: values))
    }
    let typed = result([identifier, questionType, marker], "typed")
    let noted = result([identifier, appNote, marker], "noted")
    let typedAgain = result([identifier, questionType, marker], "again")
    let swapped = result([questionType, identifier, marker], "swapped")
    let thirdKind = result([appNote, identifier, marker], "third")
    let task = builder.object(
      "ORKTaskResult", classes: resultChain,
      [("results", .uids([first, typed, noted, typedAgain, swapped, thirdKind]))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    func object(_ uid: UInt64) throws -> ArchivedObject {
      // Anything but an object fails the test (an error thrown).
      guard case .object(let object) = try archive.value(uid: uid, depth: 1) else {
        throw ImportError(reason: "object \(uid) did not resolve to an object")
      }
      return object
    }
    /// Whether the table would give `uid`'s dictionary the codes of one read before.
    func reuses(_ uid: UInt64) throws -> Bool {
      let header = try archive.plist.header(archive.objectRefs[Int(uid)])
      return archive.plist.bytes.withUnsafeBufferPointer { buffer in
        archive.objects.keyLayout(
          count: header.count, keyReferences: header.payloadOffset,
          refSize: archive.plist.refSize, in: buffer.baseAddress!) != nil
      }
    }
    let typedObject = try object(typed)
    XCTAssertTrue(try reuses(typedAgain), "the same key references as `typed`")
    XCTAssertFalse(try reuses(noted), "another key in place of questionType")
    XCTAssertFalse(try reuses(swapped), "the same keys in another order")
    let objects = [typedObject, try object(noted), try object(typedAgain), try object(swapped)]
    XCTAssertEqual(
      try objects.map { try $0.string(.identifier) }, ["typed", "noted", "again", "swapped"])
    XCTAssertEqual(objects.map { $0.knownKeys.contains(.questionType) }, [true, false, true, true])
    XCTAssertEqual(try objects.map { try $0.integer(.questionType) }, [1, nil, 1, 1])
    XCTAssertEqual(
      try objects.map { try $0.otherFields(skipping: KeysRead.base).map(\.name) },
      [["questionType"], ["appNote"], ["questionType"], ["questionType"]])
    // A third order of three keys, after `swapped` and `noted` took the two places: read anew.
    let third = try object(thirdKind)
    XCTAssertEqual(try third.string(.identifier), "third")
    XCTAssertEqual(try third.otherFields(skipping: KeysRead.base).map(\.name), ["appNote"])
  }

  func testPlainDate_ClassRecordUnreadable_LeftToTheGeneralPathsError() throws {
    // `$class` names a string, not a class record: the plain reader gives up, and resolving
    // the date reports it.
    let builder = ArchiveBuilder()
    let notAClass = builder.string("NSDate")
    let date = builder.inline(
      .dictionary(
        keys: [builder.add(.string("NS.time")), builder.add(.string("$class"))],
        values: [builder.add(.real(5)), builder.add(.uid(notAClass))]))
    let task = builder.object(
      "ORKTaskResult", classes: resultChain, [("startDate", .uid(date))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    XCTAssertNil(archive.plainDateSeconds(uid: Int(date), depth: 1))
    XCTAssertThrowsError(try archive.value(uid: date, depth: 1)) { error in
      XCTAssertTrue("\(error)".contains("class record is"), "\(error)")
    }
  }

  func testPlainDate_LookAlikeKeys_NotReadInPlace() throws {
    // Keys compared in place as words: one byte off, or a prefix, is another key.
    let builder = ArchiveBuilder()
    let real = builder.date(1)
    let lookAlikes = ["NS.timf", "NS.tim", "NS.timex", "MS.time"].map {
      builder.object("NSDate", [($0, .real(2))])
    }
    let task = builder.object(
      "ORKTaskResult", classes: resultChain, [("startDate", .uid(real))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    _ = try archive.value(uid: real, depth: 1)
    for uid in lookAlikes {
      XCTAssertNil(archive.plainDateSeconds(uid: Int(uid), depth: 1), "object \(uid)")
    }
    // Hand-made dates: `NS.time` and a class key, the class being NSDate's record (numbered
    // right after the first object of its class); `$class` itself as the control.
    let another = ArchiveBuilder()
    let first = another.date(1)
    func date(classKey: String) -> UInt64 {
      let keys = [another.add(.string("NS.time")), another.add(.string(classKey))]
      let values = [another.add(.real(2)), another.add(.uid(first + 1))]
      return another.inline(.dictionary(keys: keys, values: values))
    }
    let control = date(classKey: "$class")
    let crafted = ["$clasz", "$clas", "%class"].map { date(classKey: $0) }
    let root = another.object("ORKTaskResult", classes: resultChain, [("startDate", .uid(first))])
    let second = try KeyedArchive(bytes: another.bytes(root: root))
    _ = try second.value(uid: first, depth: 1)
    XCTAssertEqual(second.plainDateSeconds(uid: Int(control), depth: 1), 2)
    for uid in crafted {
      XCTAssertNil(second.plainDateSeconds(uid: Int(uid), depth: 1), "object \(uid)")
    }
  }

  func testPlainDate_EitherKeyOrder_ReadInPlace_RepeatedKeysNot() throws {
    // The two pairs in either order are a plain date; a key twice (and no `$class`, or no
    // `NS.time`) is not, and the general path reads it.
    let builder = ArchiveBuilder()
    let first = builder.date(1)
    func date(_ keys: [String], _ values: [PlistObject]) -> UInt64 {
      let keyRefs = keys.map { builder.add(.string($0)) }
      let valueRefs = values.map { builder.add($0) }
      return builder.inline(.dictionary(keys: keyRefs, values: valueRefs))
    }
    let classUID = PlistObject.uid(first + 1)
    let timeFirst = date(["NS.time", "$class"], [.real(2), classUID])
    let classFirst = date(["$class", "NS.time"], [classUID, .real(3)])
    let twoTimes = date(["NS.time", "NS.time"], [.real(4), .real(5)])
    let twoClasses = date(["$class", "$class"], [classUID, classUID])
    let root = builder.object("ORKTaskResult", classes: resultChain, [("startDate", .uid(first))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: root))
    _ = try archive.value(uid: first, depth: 1)
    XCTAssertEqual(archive.plainDateSeconds(uid: Int(timeFirst), depth: 1), 2)
    XCTAssertEqual(archive.plainDateSeconds(uid: Int(classFirst), depth: 1), 3)
    XCTAssertNil(archive.plainDateSeconds(uid: Int(twoTimes), depth: 1))
    XCTAssertNil(archive.plainDateSeconds(uid: Int(twoClasses), depth: 1))
  }

  func testValueOutOfRange_PairsNotStored_ClassAndKeysStillRead() throws {
    // A value reference out of range before, at or after `$class`, and `$class` twice (the
    // last counts): the object resolves through the checked path where its pairs cannot be
    // trusted, and the bad key alone is reported.
    let builder = ArchiveBuilder()
    let task = builder.object("ORKTaskResult", classes: resultChain, [])
    let step = builder.object(
      "ORKStepResult", classes: ["ORKStepResult", "ORKCollectionResult", "ORKResult", "NSObject"],
      [])
    let (taskClass, stepClass) = (task + 1, step + 1)
    func object(_ entries: [(String, PlistObject?)]) -> UInt64 {
      // nil: a reference to plist object 250, which does not exist.
      let keys = entries.map { builder.add(.string($0.0)) }
      let values = entries.map { entry in entry.1.map { builder.add($0) } ?? 250 }
      return builder.inline(.dictionary(keys: keys, values: values))
    }
    let badBefore = object([
      ("identifier", .string("a")), ("note", nil), ("$class", .uid(taskClass)),
    ])
    let badAfter = object([
      ("$class", .uid(taskClass)), ("identifier", .string("b")), ("note", nil),
    ])
    let twice = object([
      ("$class", .uid(taskClass)), ("identifier", .string("c")), ("$class", .uid(stepClass)),
    ])
    let twiceBadLast = object([
      ("$class", .uid(stepClass)), ("note", nil), ("$class", .uid(taskClass)),
    ])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    func resolved(_ uid: UInt64) throws -> ArchivedObject {
      guard case .object(let object) = try archive.value(uid: uid, depth: 1) else {
        throw ImportError(reason: "object \(uid) is not an object")
      }
      return object
    }
    for (uid, identifier) in [(badBefore, "a"), (badAfter, "b")] {
      let object = try resolved(uid)
      XCTAssertEqual(object.className, "ORKTaskResult")
      XCTAssertLessThan(object.resolved.pairStart, 0, "pairs not stored")
      XCTAssertEqual(try object.string(.identifier), identifier)
      XCTAssertThrowsError(try object.value(forKey: "note")) { error in
        XCTAssertEqual((error as? ImportError)?.reason.contains("out of range"), true)
      }
    }
    let both = try resolved(twice)
    XCTAssertEqual(both.className, "ORKStepResult")
    XCTAssertGreaterThanOrEqual(both.resolved.pairStart, 0, "pairs stored")
    XCTAssertEqual(try both.string(.identifier), "c")
    XCTAssertEqual(try resolved(twiceBadLast).className, "ORKTaskResult")
  }

  func testHasKey_FromStoredPairs_SameAsScanningTheKeys() throws {
    // A key holding `$null` is present; an absent key, and one only in another object, not.
    let builder = ArchiveBuilder()
    let other = builder.object(
      "ORKBooleanQuestionResult", classes: ["ORKBooleanQuestionResult", "ORKResult", "NSObject"],
      [("booleanAnswer", .bool(true))])
    let result = builder.object(
      "ORKBooleanQuestionResult", classes: ["ORKBooleanQuestionResult", "ORKResult", "NSObject"],
      [
        ("identifier", .string("q1")), ("typedAnswerOrNoAnswer", .uid(0)),
        ("questionType", .int(1)), ("note", .string("kept")),
      ])
    let task = builder.object(
      "ORKTaskResult", classes: resultChain, [("results", .uid(result)), ("other", .uid(other))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    guard case .object(let object) = try archive.value(uid: result, depth: 1) else {
      return XCTFail("not an object")
    }
    XCTAssertGreaterThanOrEqual(object.resolved.pairStart, 0, "pairs stored")
    let expected: [FieldKey: Bool] = [
      .identifier: true, .typedAnswerOrNoAnswer: true, .questionType: true,
      .booleanAnswer: false, .startDate: false, .userInfo: false,
    ]
    for (key, present) in expected {
      XCTAssertEqual(try object.hasKey(key), present, key.name)
      XCTAssertEqual(try object.ref(forKey: key) != nil, present, "scan: \(key.name)")
    }
  }

  func testNullKeys_EveryLookupAnswersAsTheGeneralPath() throws {
    // ResearchKit archives nil properties as `$null` (UID 0): the lookups answer nil (false)
    // without resolving them, as the general path (`value(forKey:)`) reads them; keys holding
    // values, and absent keys, answer as before.
    let builder = ArchiveBuilder()
    let start = builder.date(100)
    let info = builder.object("NSDictionary", [("NS.keys", .uids([])), ("NS.objects", .uids([]))])
    let nullKeys: [FieldKey] = [
      .userInfo, .enabledAssistiveTechnology, .identifier, .endDate, .taskRunUUID, .device,
      .results, .outputDirectory, .typedAnswerOrNoAnswer, .questionType,
    ]
    let step = builder.object(
      "ORKStepResult", classes: ["ORKStepResult", "ORKCollectionResult", "ORKResult", "NSObject"],
      nullKeys.map { ($0.name, .uid(0)) } + [("startDate", .uid(start)), ("note", .uid(info))])
    let steps = builder.object("NSArray", [("NS.objects", .uids([step]))])
    let task = builder.object("ORKTaskResult", classes: resultChain, [("results", .uid(steps))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    guard case .object(let object) = try archive.value(uid: step, depth: 1) else {
      return XCTFail("not an object")
    }
    XCTAssertGreaterThanOrEqual(object.resolved.pairStart, 0, "pairs stored: the fast test runs")
    for key in nullKeys {
      XCTAssertEqual(try object.value(forKey: key).map { "\($0)" }, "null", key.name)
      XCTAssertFalse(try object.isPresent(key), key.name)
      XCTAssertNil(try object.string(key), key.name)
      XCTAssertNil(try object.instant(key), key.name)
      XCTAssertNil(try object.uuidString(key), key.name)
      XCTAssertNil(try object.keyedValue(key), key.name)
      XCTAssertNil(try object.object(key), key.name)
      XCTAssertNil(try object.objects(key), key.name)
      XCTAssertNil(try object.integer(key), key.name)
      XCTAssertFalse(try object.isNoAnswer(key), key.name)
    }
    // Present values are read; a mismatched one still throws; an absent key is nil.
    XCTAssertEqual(try object.instant(.startDate), Instant(secondsSinceReferenceDate: 100))
    XCTAssertTrue(try object.isPresent(.startDate))
    XCTAssertThrowsError(try object.string(.startDate))
    XCTAssertNotNil(try object.keyedValue(named: "note"))
    XCTAssertFalse(try object.isPresent(.choiceAnswers))
    XCTAssertNil(try object.keyedValue(.choiceAnswers))
    // The decoded step: no userInfo or assistive-technology field (null); the keys a step
    // does not have are kept as fields, null or not (nothing lost).
    let runs = try KeyedArchiveImporter.importRuns(from: builder.bytes(root: task))
    XCTAssertEqual(runs.first?.steps.first?.identifier, "")
    XCTAssertEqual(
      runs.first?.steps.first?.extra.map(\.name),
      ["taskRunUUID", "device", "outputDirectory", "typedAnswerOrNoAnswer", "questionType", "note"])
  }

  func testPlainString_EveryLengthEncoding_SameTextAsTheGeneralPath() throws {
    let builder = ArchiveBuilder()
    // Lengths in the marker, in a one-byte and a two-byte integer, in a four-byte one (the
    // general path's), and a UTF-16 string (also the general path's).
    let texts = [
      "", "a", String(repeating: "b", count: 14), String(repeating: "c", count: 15),
      String(repeating: "d", count: 255), String(repeating: "e", count: 256),
      String(repeating: "f", count: 70_000), "Zürich",
    ]
    let uids = texts.map { builder.string($0) }
    let task = builder.object(
      "ORKTaskResult", classes: resultChain, [("identifier", .uid(uids[3]))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    for (text, uid) in zip(texts, uids) {
      let general = try archive.string(archive.value(uid: uid, depth: 1))
      XCTAssertEqual(general, text)
      let plain = archive.plainString(uid: Int(uid))
      if text.utf8.count >= 65_536 || text == "Zürich" {
        XCTAssertNil(plain, "left to the general path")
      } else {
        XCTAssertEqual(plain, text)
      }
    }
    XCTAssertNil(archive.plainString(uid: 0), "$null")
    XCTAssertNil(archive.plainString(uid: Int(task)), "a dictionary")
    XCTAssertNil(archive.plainString(uid: 1 << 20), "out of range")
  }

  func testPlainString_BytesOver0x7F_RepairedAsTheGeneralPathDoes() throws {
    // A hand-built plist whose "ASCII" string holds é in UTF-8 and a stray 0xFF.
    let builder = ArchiveBuilder()
    let placeholder = builder.string("XXXXX")
    let task = builder.object(
      "ORKTaskResult", classes: resultChain, [("identifier", .uid(placeholder))])
    var bytes = builder.bytes(root: task)
    let marker = Array("XXXXX".utf8)
    let at = try XCTUnwrap(
      (0..<(bytes.count - 6)).first {
        bytes[$0] == 0x55 && Array(bytes[($0 + 1)...($0 + 5)]) == marker
      })
    bytes.replaceSubrange((at + 1)...(at + 5), with: [0x61, 0xC3, 0xA9, 0xFF, 0x62])
    let archive = try KeyedArchive(bytes: bytes)
    let general = try archive.string(archive.value(uid: placeholder, depth: 1))
    XCTAssertEqual(general, "aé\u{FFFD}b")
    XCTAssertEqual(archive.plainString(uid: Int(placeholder)), general)
  }

  func testDateTime_IntegerOrFloat_TakesTheGeneralPath() throws {
    for time in [ArchiveBuilder.Value.real(100), .int(100)] {
      let runs = try KeyedArchiveImporter.importRuns(from: task(startTime: time))
      XCTAssertEqual(runs.first?.startDate, Instant(secondsSinceReferenceDate: 100))
      XCTAssertEqual(runs.first?.taskIdentifier, "survey")
    }
    XCTAssertThrowsError(
      try KeyedArchiveImporter.importRuns(from: task(startTime: .string("soon")))
    ) { error in
      XCTAssertEqual((error as? ImportError)?.reason, "missing or not a number")
    }
  }

  func testObjectArray_BadReferenceAfterNonObject_ReportsTheReferenceFirst() {
    let builder = ArchiveBuilder()
    let text = builder.string("not an object")
    let results = builder.array([text, 9999])
    let task = builder.object("ORKTaskResult", classes: resultChain, [("results", .uid(results))])
    XCTAssertThrowsError(try KeyedArchiveImporter.importRuns(from: builder.bytes(root: task))) {
      error in
      XCTAssertEqual(
        (error as? ImportError)?.reason, "reference to object 9999 out of range (6 objects)")
    }
  }

  func testObjectArray_NonObjectElement_ReportsMismatch() {
    let builder = ArchiveBuilder()
    let text = builder.string("not an object")
    let results = builder.array([text])
    let task = builder.object("ORKTaskResult", classes: resultChain, [("results", .uid(results))])
    XCTAssertThrowsError(try KeyedArchiveImporter.importRuns(from: builder.bytes(root: task))) {
      error in
      XCTAssertEqual((error as? ImportError)?.location, "object 4 (ORKTaskResult) results")
      XCTAssertEqual(
        (error as? ImportError)?.reason, "expected an array of objects, found a string")
    }
  }

  func testForEachObject_PlainArray_SameObjectsAndErrorsAsObjects() throws {
    // The task's `results` is a plain NSArray once the root array has read NSArray's class
    // record: `forEachObject` then reads it in place, and must agree with `objects(_:)`.
    let stepChain = ["ORKStepResult", "ORKCollectionResult", "ORKResult", "NSObject"]
    func archive(results: (ArchiveBuilder) -> [UInt64]) throws -> (KeyedArchive, UInt64) {
      let builder = ArchiveBuilder()
      let list = builder.array(results(builder))
      let task = builder.object(
        "ORKTaskResult", classes: resultChain, [("results", .uid(list))])
      return (try KeyedArchive(bytes: builder.bytes(root: builder.array([task]))), task)
    }
    func task(_ archive: KeyedArchive, _ uid: UInt64) throws -> ArchivedObject {
      _ = try archive.root()  // reads NSArray's class record
      guard case .object(let object) = try archive.value(uid: uid, depth: 1) else {
        throw ImportError(reason: "not an object")
      }
      return object
    }
    func outcome(_ read: () throws -> [Int]) -> String {
      do { return try read().map(String.init).joined(separator: ",") } catch {
        return
          "\((error as? ImportError)?.location ?? "") | \((error as? ImportError)?.reason ?? "")"
      }
    }
    let shapes: [(String, (ArchiveBuilder) -> [UInt64])] = [
      (
        "two steps",
        { b in
          [
            b.object("ORKStepResult", classes: stepChain, [("identifier", .string("s1"))]),
            b.object("ORKStepResult", classes: stepChain, [("identifier", .string("s2"))]),
          ]
        }
      ),
      ("a string", { b in [b.string("not an object")] }),
      ("a string, then a reference out of range", { b in [b.string("x"), 9999] }),
      (
        "a step, then a reference out of range",
        { b in
          [b.object("ORKStepResult", classes: stepChain, [("identifier", .int(7))]), 9999]
        }
      ),
      ("empty", { _ in [] }),
    ]
    for (name, results) in shapes {
      let (first, firstTask) = try archive(results: results)
      let (second, secondTask) = try archive(results: results)
      let viaArray = outcome {
        try withExtendedLifetime(first) {
          try task(first, firstTask).objects(.results)?.map(\.uid) ?? []
        }
      }
      let viaVisitor = outcome {
        try withExtendedLifetime(second) {
          let object = try task(second, secondTask)
          var uids: [Int] = []
          var counted = -1
          try object.forEachObject(.results) {
            counted = $0
          } body: {
            uids.append($0.uid)
          }
          XCTAssertEqual(counted, uids.count, name)
          return uids
        }
      }
      XCTAssertEqual(viaVisitor, viaArray, name)
    }
    // By hand: the two steps in order, and a reference out of range reported before the
    // string (the mismatch), as every element is read first.
    let (archiveOfTwo, taskOfTwo) = try archive(results: shapes[0].1)
    try withExtendedLifetime(archiveOfTwo) {
      var identifiers: [String] = []
      try task(archiveOfTwo, taskOfTwo).forEachObject(.results) { _ in
      } body: { step throws(ImportError) in
        identifiers.append(try step.string(.identifier) ?? "")
      }
      XCTAssertEqual(identifiers, ["s1", "s2"])
    }
    let (archiveOfBad, taskOfBad) = try archive(results: shapes[2].1)
    try withExtendedLifetime(archiveOfBad) {
      XCTAssertThrowsError(
        try task(archiveOfBad, taskOfBad).forEachObject(.results) { _ in
        } body: { _ in
        }
      ) { error in
        XCTAssertEqual(
          (error as? ImportError)?.reason.hasPrefix("reference to object 9999 out of range"), true)
      }
    }
  }

  func testSharedObject_ReadTwice_GivesTheSameValues() throws {
    let builder = ArchiveBuilder()
    let date = builder.date(500)
    let step = builder.object(
      "ORKStepResult", classes: ["ORKStepResult", "ORKCollectionResult", "ORKResult"],
      [("identifier", .string("step")), ("startDate", .uid(date)), ("endDate", .uid(date))])
    let results = builder.array([step, step])
    let task = builder.object(
      "ORKTaskResult", classes: resultChain,
      [("startDate", .uid(date)), ("results", .uid(results))])
    let run = try XCTUnwrap(KeyedArchiveImporter.importRuns(from: builder.bytes(root: task)).first)
    XCTAssertEqual(run.steps.count, 2)
    for step in run.steps {
      XCTAssertEqual(step.identifier, "step")
      XCTAssertEqual(step.startDate, Instant(secondsSinceReferenceDate: 500))
      XCTAssertEqual(step.endDate, Instant(secondsSinceReferenceDate: 500))
    }
  }

  func testKeyCodes_LongUnknownAndNonStringKeys() throws {
    // A 26-byte key (stored with a separate length), an app's own key, and a key that is a
    // number: each object has its own key strings, as in archives that do not unique them.
    let builder = ArchiveBuilder()
    let step = builder.object(
      "ORKStepResult", classes: ["ORKStepResult", "ORKCollectionResult", "ORKResult"],
      [
        ("identifier", .string("step")), ("enabledAssistiveTechnology", .string("VoiceOver")),
        ("appNote", .string("kept")),
      ])
    let results = builder.array([step])
    let task = builder.object("ORKTaskResult", classes: resultChain, [("results", .uid(results))])
    let run = try XCTUnwrap(KeyedArchiveImporter.importRuns(from: builder.bytes(root: task)).first)
    let record = try XCTUnwrap(run.steps.first)
    XCTAssertEqual(record.identifier, "step")
    XCTAssertEqual(
      record.extra,
      [
        Field("enabledAssistiveTechnology", .string("VoiceOver")),
        Field("appNote", .string("kept")),
      ])
  }

  func testKeyIDTable_BufferPathAgreesWithCheckedPath() throws {
    let objects: [PlistObject] = [
      .string("identifier"), .string("enabledAssistiveTechnology"), .string("identifieR"),
      .integer(7), .string("NS.time"), .string("Zürich"),
    ]
    let plist = try BPlistDocument(bytes: BPlistWriter.write(objects, top: 0))
    let fast = KeyIDTable(objectCount: objects.count)
    let checked = KeyIDTable(objectCount: objects.count)
    for ref in objects.indices {
      let code = plist.bytes.withUnsafeBufferPointer { buffer in
        fast.code(
          ref, at: buffer.baseAddress!, count: buffer.count, in: plist,
          matching: FieldKeyMatcher.table)
      }
      XCTAssertEqual(code, checked.code(ref, in: plist), "object \(ref)")
    }
    XCTAssertEqual(checked.slot(0, in: plist), .known(.identifier))
    XCTAssertEqual(checked.slot(1, in: plist), .known(.enabledAssistiveTechnology))
    XCTAssertEqual(checked.slot(2, in: plist), .other)
    XCTAssertEqual(checked.slot(3, in: plist), .notString)
    XCTAssertEqual(checked.slot(4, in: plist), .known(.nsTime))
  }

  func testUUIDBytes_AreUpperCaseHyphenatedText() throws {
    let builder = ArchiveBuilder()
    let bytes: [UInt8] = [
      0x00, 0x1F, 0xA0, 0xFF, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x0A, 0xB0, 0x01,
      0x10,
    ]
    let uuid = builder.object("NSUUID", [("NS.uuidbytes", .data(bytes))])
    let task = builder.object("ORKTaskResult", classes: resultChain, [("taskRunUUID", .uid(uuid))])
    let run = try XCTUnwrap(KeyedArchiveImporter.importRuns(from: builder.bytes(root: task)).first)
    XCTAssertEqual(run.runUUID, "001FA0FF-1234-5678-9ABC-DEF00AB00110")
  }

  func testPlainUUID_SameTextAsTheGeneralPath_OnlyForItsExactShape() throws {
    let builder = ArchiveBuilder()
    let bytes: [UInt8] = (0..<16).map { UInt8($0 * 17) }
    let first = builder.object("NSUUID", [("NS.uuidbytes", .data(bytes))])
    let second = builder.object("NSUUID", [("NS.uuidbytes", .data(bytes.reversed()))])
    let lookAlikes = ["NS.uuidbytez", "NS.uuidbyte", "NS.uuidbytess", "MS.uuidbytes"].map {
      builder.object("NSUUID", [($0, .data(bytes))])
    }
    let short = builder.object("NSUUID", [("NS.uuidbytes", .data(Array(bytes.prefix(15))))])
    let notData = builder.object("NSUUID", [("NS.uuidbytes", .string("0123456789abcdef"))])
    let fakes = (0..<2).map { _ in
      builder.object("ORKFake", classes: ["ORKFake", "NSObject"], [("NS.uuidbytes", .data(bytes))])
    }
    let task = builder.object("ORKTaskResult", classes: resultChain, [("taskRunUUID", .uid(first))])
    let archive = try KeyedArchive(bytes: builder.bytes(root: task))
    // The class record is not read yet: the plain reader reads it, as resolving would.
    XCTAssertEqual(
      archive.plainUUID(uid: Int(second), depth: 1), "FFEEDDCC-BBAA-9988-7766-554433221100")
    let general = try archive.uuid(archive.value(uid: first, depth: 1))
    XCTAssertEqual(general, "00112233-4455-6677-8899-AABBCCDDEEFF")
    XCTAssertNil(archive.plainUUID(uid: Int(first), depth: 1), "resolved already")
    for uid in lookAlikes + [short, notData] {
      XCTAssertNil(archive.plainUUID(uid: Int(uid), depth: 1), "object \(uid)")
    }
    _ = try archive.value(uid: fakes[0], depth: 1)
    XCTAssertNil(archive.plainUUID(uid: Int(fakes[1]), depth: 1), "not an NSUUID class")
    XCTAssertEqual(
      archive.plainUUID(uid: Int(second), depth: 1), "FFEEDDCC-BBAA-9988-7766-554433221100")
    // Read again, the same object takes the general path, with the same text.
    XCTAssertEqual(
      try archive.uuid(archive.value(uid: second, depth: 1)), "FFEEDDCC-BBAA-9988-7766-554433221100"
    )
  }

  func testClassSignature_EqualBytes_HashEqually() {
    let left = ClassSignature(bytes: Array("ORKTaskResult ORKResult NSObject".utf8))
    let right = ClassSignature(bytes: Array("ORKTaskResult ORKResult NSObject".utf8))
    let other = ClassSignature(bytes: Array("ORKStepResult ORKResult NSObject".utf8))
    XCTAssertEqual(left, right)
    XCTAssertEqual(left.hashValue, right.hashValue)
    XCTAssertNotEqual(left, other)
    XCTAssertEqual(Set([left, right, other]).count, 2)
    XCTAssertEqual(left.mixedHash, right.mixedHash)
  }

  func testSignatureTable_CollidingHashes_EachSignatureFindsItsRecord() {
    func record(_ name: String) -> ArchiveClass {
      ArchiveClass(
        name: name, chain: [name, "NSObject"], foundation: nil,
        family: .generic, knownClasses: 0)
    }
    func signature(_ name: String) -> ClassSignature { ClassSignature(bytes: Array(name.utf8)) }
    var table = SignatureTable()
    // Three signatures forced onto one hash, and its neighbouring slot taken by a fourth: the
    // probe walks past the others and compares bytes, not only hashes.
    let shared: UInt64 = 0x1234_5678_9ABC_DEF0
    for name in ["ORKA", "ORKB", "ORKC"] {
      table.insert(record(name), for: signature(name), hash: shared)
    }
    table.insert(record("ORKD"), for: signature("ORKD"), hash: shared + 1)
    for name in ["ORKA", "ORKB", "ORKC"] {
      XCTAssertEqual(table.record(for: signature(name), hash: shared)?.name, name)
    }
    XCTAssertEqual(table.record(for: signature("ORKD"), hash: shared + 1)?.name, "ORKD")
    XCTAssertNil(table.record(for: signature("ORKE"), hash: shared))
    XCTAssertNil(table.record(for: signature("ORKA"), hash: shared + 2))
    // The same signature again keeps the first record.
    table.insert(record("other"), for: signature("ORKB"), hash: shared)
    XCTAssertEqual(table.record(for: signature("ORKB"), hash: shared)?.name, "ORKB")
    XCTAssertEqual(table.count, 4)
  }
}
