// A loaded --state file kept as an index over the file: the same entries, lookups and written
// bytes as the state decoded whole into a dictionary.
import Foundation
import RKModel
import XCTest

@testable import RKPipeline

final class StateInputsTests: XCTestCase {
  private var files: [String] = []

  override func tearDown() {
    for file in files { try? FileManager.default.removeItem(atPath: file) }
    files = []
  }

  private func stateFile(_ bytes: [UInt8]) throws -> String {
    let path = uniqueTemporaryPath("state-inputs", suffix: ".json")
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    files.append(path)
    return path
  }

  private func entry(_ number: Int, uuids: Int = 2) -> ExportState.Entry {
    ExportState.Entry(
      size: Int64(number), modified: 1_795_573_838.125 + Double(number),
      hash: String(format: "%016llx", UInt64(number) &* 0x9E37_79B9_7F4A_7C15),
      taskRunUUIDs: (0..<uuids).map {
        "8E8BC0EF-F004-4237-989C-3C9E3F\(100_000 + number * 7 + $0)"
      },
      status: number % 11 == 0 ? "failed" : "ok",
      path: number % 5 == 0 ? nil : "P\(number % 97)/batch-\(number).archive")
  }

  /// A state of `count` inputs, large enough (over 4 MB at 14,000) for pages to be let go of.
  private func bigState(count: Int) -> ExportState {
    var state = ExportState(exportedAt: "2026-11-26T02:15:00Z", outputDirectory: "out")
    for number in 0..<count {
      state.inputs["/srv/study/results/P\(number % 97)/batch-\(number).archive"] = entry(number)
    }
    return state
  }

  func testLoad_HandWrittenOutOfOrderRepeatedEscaped_SameEntriesAsTheWholeDecode() throws {
    // Keys out of order, one key twice (the later wins, as in the decoded dictionary), keys
    // spelt with escapes that decode to the same text as other spellings, non-ASCII keys.
    let text = #"""
      {"version":1,"exportedAt":"t","outputDirectory":"o","inputs":{
      "r|z":{"size":1,"modified":1,"hash":"a","taskRunUUIDs":["U1"],"status":"ok"},
      "r|\u00e9\/x":{"size":2,"modified":2.5,"hash":"b","taskRunUUIDs":[],"status":"ok","path":"é/x"},
      "r|a":{"size":3,"modified":3,"hash":"c","taskRunUUIDs":["U2","U3"],"status":"failed","path":null},
      "r|m":{"size":4,"modified":4,"hash":"d","taskRunUUIDs":[],"status":"ok"},
      "r|\u0061":{"size":5,"modified":5,"hash":"e","taskRunUUIDs":["U4"],"status":"ok"},
      "r|日本":{"size":6,"modified":6,"hash":"f","taskRunUUIDs":[],"status":"skipped"},
      "r|":{"size":7,"modified":7,"hash":"","taskRunUUIDs":[""],"status":"ok"}}}
      """#
    let bytes = Array(text.utf8)
    let whole = try ExportState.decode(bytes)
    let loaded = try XCTUnwrap(try ExportState.load(path: try stateFile(bytes)))
    XCTAssertEqual(loaded, whole)
    for key in ["r|z", "r|é/x", "r|a", "r|m", "r|日本", "r|", "r|b", "r", "r|aa", ""] {
      XCTAssertEqual(loaded.inputs[key], whole.inputs[key], key)
      let fingerprint = whole.inputs[key].map {
        InputFingerprint(size: $0.size, modified: $0.modified)
      }
      XCTAssertEqual(loaded.inputs.fingerprint(forKey: key), fingerprint, key)
    }
    XCTAssertEqual(loaded.inputs["r|a"]?.size, 5)
    XCTAssertEqual(loaded.inputs.count, 6)
    XCTAssertEqual(
      loaded.inputs.sorted().map(\.key), ["r|", "r|a", "r|m", "r|z", "r|é/x", "r|日本"])
    var written: [UInt8] = []
    try loaded.writeJSON { written += $0 }
    var expected: [UInt8] = []
    try whole.writeJSON { expected += $0 }
    XCTAssertEqual(written, expected)
  }

  func testWriteJSON_LoadedStateReplacing_SameBytesAsTheStateInMemory() throws {
    let state = bigState(count: 14_000)
    var file: [UInt8] = []
    try state.writeJSON { file += $0 }
    XCTAssertGreaterThan(file.count, 4 << 20)
    let loaded = try XCTUnwrap(try ExportState.load(path: try stateFile(file)))
    // Replaced, added before, between and after the stored keys.
    var newer: [String: ExportState.Entry] = [:]
    for number in stride(from: 3, to: 14_000, by: 997) {
      newer["/srv/study/results/P\(number % 97)/batch-\(number).archive"] = entry(number + 1)
    }
    newer["/"] = entry(1, uuids: 0)
    newer["/srv/study/results/P5/batch-5.archivf"] = entry(2)
    newer["~"] = entry(3, uuids: 5)
    for _ in 0..<2 {  // twice: the pages let go of in the first pass are read again
      var fromLoaded: [UInt8] = []
      try loaded.writeJSON(replacing: newer) { fromLoaded += $0 }
      var fromMemory: [UInt8] = []
      try state.writeJSON(replacing: newer) { fromMemory += $0 }
      XCTAssertEqual(fromLoaded, fromMemory)
    }
    XCTAssertEqual(loaded, state)
  }

  func testLoad_BigFileOutOfOrder_SameAsInOrder() throws {
    // A state file whose members run backwards: sorted when loaded, and read in key order
    // (against file order) without losing an entry.
    let state = bigState(count: 14_000)
    var members: [String] = []
    for (key, entry) in state.inputs.sorted() {
      let uuids = entry.taskRunUUIDs.map { "\"\($0)\"" }.joined(separator: ",")
      let path = entry.path.map { ",\"path\":\"\($0)\"" } ?? ""
      members.append(
        "\"\(key)\":{\"size\":\(entry.size),\"modified\":\(entry.modified),"
          + "\"hash\":\"\(entry.hash)\",\"taskRunUUIDs\":[\(uuids)],"
          + "\"status\":\"\(entry.status)\"\(path)}")
    }
    let text =
      "{\"version\":1,\"exportedAt\":\"\(state.exportedAt)\",\"outputDirectory\":\"out\","
      + "\"inputs\":{\(members.reversed().joined(separator: ",\n"))}}"
    let loaded = try XCTUnwrap(try ExportState.load(path: try stateFile(Array(text.utf8))))
    XCTAssertEqual(loaded, state)
    XCTAssertEqual(loaded.inputs.count, 14_000)
  }

  func testInputs_SetOverStoredEntries_LookupsAndWritesFollow() throws {
    var state = bigState(count: 50)
    var file: [UInt8] = []
    try state.writeJSON { file += $0 }
    var loaded = try XCTUnwrap(try ExportState.load(path: try stateFile(file)))
    let gone = "/srv/study/results/P7/batch-7.archive"
    let changed = "/srv/study/results/P8/batch-8.archive"
    loaded.inputs[gone] = nil
    loaded.inputs[changed] = entry(800)
    loaded.inputs["new"] = entry(900)
    state.inputs[gone] = nil
    state.inputs[changed] = entry(800)
    state.inputs["new"] = entry(900)
    XCTAssertNil(loaded.inputs[gone])
    XCTAssertNil(loaded.inputs.fingerprint(forKey: gone))
    XCTAssertEqual(loaded.inputs[changed], entry(800))
    XCTAssertEqual(loaded.inputs.fingerprint(forKey: changed)?.size, 800)
    XCTAssertEqual(loaded.inputs.count, 50)
    XCTAssertEqual(loaded, state)
    var fromLoaded: [UInt8] = []
    try loaded.writeJSON { fromLoaded += $0 }
    var fromMemory: [UInt8] = []
    try state.writeJSON { fromMemory += $0 }
    XCTAssertEqual(fromLoaded, fromMemory)
    loaded.inputs[gone] = entry(7)
    XCTAssertEqual(loaded.inputs[gone], entry(7))
    XCTAssertEqual(loaded.inputs.count, 51)
    // Codable as the dictionary it stands for.
    let decoded = try JSONDecoder().decode(ExportState.self, from: JSONEncoder().encode(loaded))
    XCTAssertEqual(decoded, loaded)
  }

  /// Which files the walk may leave unopened in a nightly run: those with no entry under
  /// their own path nor under a zip entry's (`path!…`), stored or set in memory.
  func testHasEntries_OwnPathOrZipEntries_OthersNone() throws {
    var state = ExportState(exportedAt: "t", outputDirectory: "o")
    state.inputs["in/a.archive"] = entry(1)
    state.inputs["in/b.zip!x/1.archive"] = entry(2)
    state.inputs["in/c.zip!"] = entry(3)
    state.inputs["in/d"] = entry(4)
    let loaded = try XCTUnwrap(try ExportState.load(path: try stateFile(Array(state.encoded()))))
    var mixed = loaded
    mixed.inputs["in/e.zip!y.json"] = entry(5)
    for inputs in [state.inputs, loaded.inputs, mixed.inputs] {
      for path in ["in/a.archive", "in/b.zip", "in/c.zip", "in/d"] {
        XCTAssertTrue(inputs.hasEntries(forFile: path), path)
      }
      // Names that only begin a key, or that a key only begins.
      for path in [
        "in/a", "in/a.archiv", "in/b", "in/b.zi", "in/b.zip!x", "in/c.zip!!", "in/", "in/e",
      ] {
        XCTAssertFalse(inputs.hasEntries(forFile: path), path)
      }
    }
    XCTAssertTrue(mixed.inputs.hasEntries(forFile: "in/e.zip"))
    XCTAssertFalse(loaded.inputs.hasEntries(forFile: "in/e.zip"))
  }

  func testLoad_EmptyInputs_EmptyAndWritesAsBefore() throws {
    let state = ExportState(exportedAt: "t", outputDirectory: "o")
    var file: [UInt8] = []
    try state.writeJSON { file += $0 }
    let loaded = try XCTUnwrap(try ExportState.load(path: try stateFile(file)))
    XCTAssertTrue(loaded.inputs.isEmpty)
    XCTAssertNil(loaded.inputs["x"])
    var again: [UInt8] = []
    try loaded.writeJSON { again += $0 }
    XCTAssertEqual(again, file)
  }

  func testKnownRuns_StoredEntries_DuplicateWarningsNameTheirFiles() throws {
    // Runs exported earlier, read from a loaded state: the warning names the entry's path (or
    // its key when it has none); a replaced input's runs are not known.
    var state = ExportState(exportedAt: "t", outputDirectory: "o")
    state.inputs["r|P1/a.archive"] = ExportState.Entry(
      size: 1, modified: 1, hash: "", taskRunUUIDs: ["12FBA9B5-8DC1-43E4-BD4A-FE9467BA93F6"],
      status: "ok", path: "P1/a.archive")
    state.inputs["r|P1/b.archive"] = ExportState.Entry(
      size: 1, modified: 1, hash: "",
      taskRunUUIDs: ["not-a-uuid", "EE7AAF17-4149-4CA7-9E8E-403507219CA0"],
      status: "ok", path: nil)
    state.inputs["r|P1/c.archive"] = ExportState.Entry(
      size: 1, modified: 1, hash: "", taskRunUUIDs: ["FFEB7FA3-6A95-432F-9777-77C0214B756F"],
      status: "ok", path: "P1/c.archive")
    var file: [UInt8] = []
    try state.writeJSON { file += $0 }
    var loaded = try XCTUnwrap(try ExportState.load(path: try stateFile(file)))
    // One entry set in memory over the stored ones: named by its text.
    loaded.inputs["r|P0/z.archive"] = ExportState.Entry(
      size: 1, modified: 1, hash: "", taskRunUUIDs: ["A150C40A-7466-431B-89D1-A1FBA3FDB2F8"],
      status: "ok", path: "P0/z.archive")
    let known = loaded.inputs.knownRuns(skipping: ["r|P1/c.archive"])
    XCTAssertEqual(known.map(\.0).count, 4)
    var warnings = DataWarnings(
      now: Date(), knownUUIDs: known, knownFileName: loaded.inputs.knownFileName
    ) { _ in "P9/new.archive" }
    var messages: [String] = []
    for uuid in [
      "12FBA9B5-8DC1-43E4-BD4A-FE9467BA93F6", "EE7AAF17-4149-4CA7-9E8E-403507219CA0",
      "not-a-uuid", "A150C40A-7466-431B-89D1-A1FBA3FDB2F8", "FFEB7FA3-6A95-432F-9777-77C0214B756F",
    ] {
      let run = TaskRun(taskIdentifier: "survey", runUUID: uuid, source: "P9/new.archive")
      messages += warnings.check(CheckedRun(run, file: "P9/new.archive"), inputNumber: 0)
        .map(\.message)
    }
    // Duplicates come once every run was checked, in the order the runs came.
    XCTAssertEqual(messages, [])
    messages = warnings.duplicates().map(\.message)
    let tail = "; both are kept"
    XCTAssertEqual(
      messages,
      [
        "P9/new.archive: task run 12FBA9B5-8DC1-43E4-BD4A-FE9467BA93F6 was already exported from P1/a.archive"
          + tail,
        "P9/new.archive: task run EE7AAF17-4149-4CA7-9E8E-403507219CA0 was already exported from r|P1/b.archive"
          + tail,
        "P9/new.archive: task run not-a-uuid was already exported from r|P1/b.archive" + tail,
        "P9/new.archive: task run A150C40A-7466-431B-89D1-A1FBA3FDB2F8 was already exported from P0/z.archive"
          + tail,
      ])
  }

  func testEntrySpool_OnDiskOrInMemory_SameEntriesSortedLaterWins() throws {
    let folder = try makeTemporaryFolder("spool")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keys = ["r|b", "r|a", "r|\u{e9}", "r|c", "r|a", "r|"]
    var results: [ExportState.Inputs] = []
    for directory in [folder, nil] {
      let spool = EntrySpool(directory: directory)
      for (number, key) in keys.enumerated() {
        try spool.add(key: key, entry: entry(number, uuids: number % 3))
      }
      results.append(try spool.finish())
    }
    // The spool file is unlinked: the folder stays empty.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
    let expected: ExportState.Inputs = [
      "r|": entry(5, uuids: 2), "r|a": entry(4, uuids: 1), "r|b": entry(0, uuids: 0),
      "r|c": entry(3, uuids: 0), "r|\u{e9}": entry(2, uuids: 2),
    ]
    for inputs in results {
      XCTAssertEqual(inputs, expected)
      XCTAssertEqual(inputs.sorted().map(\.key), ["r|", "r|a", "r|b", "r|c", "r|\u{e9}"])
    }
  }

  /// The spool's entries are copied into the state file as the spool holds them: the bytes
  /// must be those of the same entries written from memory, over a loaded state too (entries
  /// replacing stored ones, and new ones between them), with paths, UUIDs and hashes that need
  /// escapes.
  func testWriteJSON_SpooledEntries_SameBytesAsFromMemory() throws {
    let folder = try makeTemporaryFolder("spool-verbatim")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let previous = bigState(count: 300)
    let loaded = try XCTUnwrap(try ExportState.load(path: try stateFile(Array(previous.encoded()))))
    var newer: [String: ExportState.Entry] = [:]
    for number in stride(from: 0, to: 600, by: 7) {
      var changed = entry(number + 1_000, uuids: number % 4)
      if number % 3 == 0 { changed.path = "P\(number)/a \"quoted\" \\ é\u{1}/b.archive" }
      if number % 5 == 0 { changed.taskRunUUIDs = ["with/slash", "tab\there"] }
      newer["/srv/study/results/P\(number % 97)/batch-\(number).archive"] = changed
    }
    let spool = EntrySpool(directory: folder)
    for (key, entry) in newer { try spool.add(key: key, entry: entry) }
    let spooled = try spool.finish()
    for state in [previous, loaded] {
      var fromSpool: [UInt8] = []
      try state.writeJSON(replacing: spooled) { fromSpool += $0 }
      var fromMemory: [UInt8] = []
      try state.writeJSON(replacing: newer) { fromMemory += $0 }
      XCTAssertEqual(fromSpool.count, fromMemory.count)
      XCTAssertTrue(fromSpool == fromMemory)
    }
  }

  /// Resident bytes of the mapping that starts at `base`, from `/proc/self/smaps`.
  private func residentBytes(ofMappingAt base: UnsafeRawPointer) throws -> Int {
    // Read with read(2): /proc files report no size, which Foundation's readers trust.
    let fd = open("/proc/self/smaps", O_RDONLY)
    guard fd >= 0 else { throw XCTSkip("no /proc/self/smaps") }
    defer { close(fd) }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if got <= 0 { break }
      data += chunk[0..<got]
    }
    let smaps = String(decoding: data, as: UTF8.self)
    let start = String(UInt(bitPattern: base), radix: 16) + "-"
    var inMapping = false
    for line in smaps.split(separator: "\n") {
      if line.first?.isHexDigit == true, line.contains("-"), !line.hasPrefix("Rss") {
        inMapping = line.hasPrefix(start)
      } else if inMapping, line.hasPrefix("Rss:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return try XCTUnwrap(kilobytes) * 1024
      }
    }
    throw XCTSkip("no mapping at \(start) in /proc/self/smaps")
  }

  /// A pass in key order over entries stored in another order (this run's spool over roots
  /// not given in sorted order; here the reverse) lets go of the file's pages as it goes:
  /// stopping at the first jump back kept every page read after it.
  func testSortedPass_EntriesOutOfFileOrder_PagesLetGo() throws {
    let folder = try makeTemporaryFolder("spool-order")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let spool = EntrySpool(directory: folder)
    let count = 50_000
    for number in (0..<count).reversed() {
      try spool.add(key: String(format: "k%06d", number), entry: entry(number, uuids: 4))
    }
    let inputs = try spool.finish()
    let bytes = try XCTUnwrap(inputs.storedBytes)
    let base = try XCTUnwrap(UnsafeRawPointer(bytes.baseAddress))
    XCTAssertGreaterThan(bytes.count, 16 << 20)
    var read = 0
    var largest = 0
    for (key, _) in inputs.sorted() {
      XCTAssertEqual(key, String(format: "k%06d", read))
      read += 1
      if read % 1_000 == 0 { largest = max(largest, try residentBytes(ofMappingAt: base)) }
    }
    XCTAssertEqual(read, count)
    XCTAssertGreaterThan(largest, 0)
    XCTAssertLessThan(largest, 12 << 20, "of \(bytes.count) bytes mapped")
  }

  func testWriteJSON_StateFileRewrittenInPlace_RefusesRatherThanDropEntries() throws {
    let state = bigState(count: 20)
    var file: [UInt8] = []
    try state.writeJSON { file += $0 }
    let path = try stateFile(file)
    let loaded = try XCTUnwrap(try ExportState.load(path: path))
    // Another program rewrites the file in place (same length): an entry no longer parses.
    var damaged = file
    let start = try XCTUnwrap(
      damaged.indices.first { damaged[$0...].starts(with: Array("\"size\"".utf8)) })
    damaged.replaceSubrange(start..<start + 6, with: Array("\"s!ze\"".utf8))
    let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: Data(damaged))
    try handle.close()
    XCTAssertThrowsError(try loaded.writeJSON { _ in }) { error in
      XCTAssertTrue("\(error)".contains("1 entries of the state changed"), "\(error)")
    }
  }
}
