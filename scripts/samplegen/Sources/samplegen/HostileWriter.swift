// Hostile inputs for the importers: every file here must be reported (ok, failed or skipped),
// never crash, hang or exhaust memory. The list and expected outcomes are in the README written
// alongside (and in Tests/RKExportTests/Fixtures/hostile/README.md).
import Foundation

enum HostileWriter {
  /// `small` keeps nesting shallow enough for the committed copy (still far past any sane limit).
  static func write(directory: String, small: Bool) throws {
    let root = URL(fileURLWithPath: directory)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    var rng = SeededRandom(seed: StudyPlan.seed ^ 0xBAD)
    let study = StudyPlan.files()
    let legacyGood = try SampleWriter.archive(study[0])
    guard let current = study.first(where: { $0.runs[0].layout == .current }) else {
      throw ArchiveError.unexpectedShape("study has no current-layout run")
    }
    let currentGood = try SampleWriter.archive(current)
    let xmlGood = try KeyedArchive.data(
      root: RunEncoder().taskResult(study[0].runs[0], device: nil), format: .xml)

    var files: [(String, Data)] = [
      ("good-rk1-eligibility.archive", legacyGood),
      ("good-rk3-\(current.runs[0].taskID).archive", currentGood),
      ("truncated-binary.archive", legacyGood.prefix(legacyGood.count * 6 / 10)),
      ("truncated-xml.plist", xmlGood.prefix(xmlGood.count / 2)),
      ("wrong-magic-bplist99.archive", Data("bplist99".utf8) + legacyGood.dropFirst(8)),
      (
        "garbage-random-bytes.bin",
        Data([0x7F] + (0..<2999).map { _ in UInt8.random(in: 0...255, using: &rng) })
      ),
      ("empty.archive", Data()),
      ("photo.png", pngHeader()),
      (
        "voice.m4a",
        Data(
          [0, 0, 0, 0x20] + Array("ftypM4A ".utf8)
            + (0..<500).map { _ in UInt8.random(in: 0...255, using: &rng) })
      ),
      ("cyclic-uid.archive", cyclic()),
      ("deep-uid-chain.archive", deepUIDChain(depth: small ? 1_000 : 100_000)),
      ("deep-plist-nesting.archive", deepPlistNesting(depth: small ? 5_000 : 100_000)),
      ("huge-array-count.archive", hugeArrayCount()),
      ("uid-out-of-range.archive", uidOutOfRange()),
      ("huge-object-count.archive", trailerLie(numObjects: 1 << 62)),
      ("offset-table-out-of-range.archive", trailerLie(offsetTable: 1 << 40)),
      ("not-a-task-result.archive", try notATaskResult()),
    ]
    files.sort { $0.0 < $1.0 }
    for (name, data) in files {
      try data.write(to: root.appendingPathComponent(name))
    }
    print("samplegen: \(files.count) hostile files in \(root.path)")
  }

  /// A task result whose `results` array contains itself and the task: two UID cycles.
  private static func cyclic() -> Data {
    keyedArchive { b in
      [
        b.dict([
          ("$class", b.add(.uid(3))), ("identifier", b.add(.uid(2))), ("results", b.add(.uid(4))),
        ]),
        b.string("cyclic"),
        classRecord(b, ["ORKTaskResult", "ORKCollectionResult", "ORKResult", "NSObject"]),
        b.dict([
          ("$class", b.add(.uid(5))),
          ("NS.objects", b.add(.array([b.add(.uid(4)), b.add(.uid(1))]))),
        ]),
        classRecord(b, ["NSArray", "NSObject"]),
      ]
    }
  }

  /// `results` → NSArray → NSArray → … `depth` arrays deep, each a separate UID reference.
  private static func deepUIDChain(depth: Int) -> Data {
    keyedArchive { b in
      let arrayClass = UInt32(4 + depth)
      var entries = [
        b.dict([
          ("$class", b.add(.uid(2))), ("identifier", b.add(.uid(3))), ("results", b.add(.uid(4))),
        ]),
        classRecord(b, ["ORKTaskResult", "ORKCollectionResult", "ORKResult", "NSObject"]),
        b.string("deep"),
      ]
      let classRef = b.add(.uid(arrayClass))
      for level in 0..<depth {
        let children = level + 1 < depth ? [b.add(.uid(UInt32(5 + level)))] : []
        entries.append(b.dict([("$class", classRef), ("NS.objects", b.add(.array(children)))]))
      }
      entries.append(classRecord(b, ["NSArray", "NSObject"]))
      return entries
    }
  }

  /// A task result whose `userInfo` is a plist array nested `depth` levels (no UIDs involved).
  private static func deepPlistNesting(depth: Int) -> Data {
    keyedArchive { b in
      var nested = b.add(.array([]))
      for _ in 0..<depth { nested = b.add(.array([nested])) }
      return [
        b.dict([("$class", b.add(.uid(3))), ("identifier", b.add(.uid(2))), ("userInfo", nested)]),
        b.string("deep-plist"),
        classRecord(b, ["ORKTaskResult", "ORKCollectionResult", "ORKResult", "NSObject"]),
      ]
    }
  }

  /// An NSArray whose header claims 2^39 − 1 elements in a file of a few hundred bytes.
  private static func hugeArrayCount() -> Data {
    keyedArchive { b in
      let lying = b.add(.raw([0xAF, 0x13, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF]))
      return [
        b.dict([
          ("$class", b.add(.uid(3))), ("identifier", b.add(.uid(2))), ("results", b.add(.uid(4))),
        ]),
        b.string("huge-count"),
        classRecord(b, ["ORKTaskResult", "ORKCollectionResult", "ORKResult", "NSObject"]),
        b.dict([("$class", b.add(.uid(5))), ("NS.objects", lying)]),
        classRecord(b, ["NSArray", "NSObject"]),
      ]
    }
  }

  /// `results` points at UID 4,000,000,000 in an archive of five objects.
  private static func uidOutOfRange() -> Data {
    keyedArchive { b in
      [
        b.dict([
          ("$class", b.add(.uid(3))), ("identifier", b.add(.uid(2))),
          ("results", b.add(.uid(4_000_000_000))),
        ]),
        b.string("uid-range"),
        classRecord(b, ["ORKTaskResult", "ORKCollectionResult", "ORKResult", "NSObject"]),
      ]
    }
  }

  /// A small, otherwise valid archive whose trailer lies about the object count or table offset.
  private static func trailerLie(numObjects: UInt64? = nil, offsetTable: UInt64? = nil) -> Data {
    let b = BPlistBuilder()
    let entries = b.add(.array([b.string("$null"), b.string("x")]))
    let top = b.dict([("root", b.add(.uid(1)))])
    let document = b.dict([
      ("$archiver", b.string("NSKeyedArchiver")), ("$objects", entries), ("$top", top),
      ("$version", b.add(.int(100_000))),
    ])
    return b.data(top: document, numObjectsOverride: numObjects, offsetTableOverride: offsetTable)
  }

  /// A well-formed keyed archive (Foundation's own) whose root is an NSDictionary, not a result.
  private static func notATaskResult() throws -> Data {
    let root = NSDictionary(dictionary: ["hello": "world" as NSString])
    return try KeyedArchive.data(root: root, format: .binary)
  }

  /// The 8-byte PNG signature and the start of an IHDR chunk.
  private static func pngHeader() -> Data {
    Data(
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D] + Array("IHDR".utf8) + [
        0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
      ])
  }
}
