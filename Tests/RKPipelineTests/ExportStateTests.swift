// The state file written a chunk at a time: the very bytes Foundation's JSONEncoder gives.
import Foundation
import XCTest

@testable import RKPipeline

final class ExportStateTests: XCTestCase {
  /// What the state file held before it was streamed: JSONEncoder, sorted keys, pretty printed.
  private func encoderBytes(_ state: ExportState) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    return Array(try encoder.encode(state)) + Array("\n".utf8)
  }

  private func streamedBytes(_ state: ExportState) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var chunks = 0
    try state.writeJSON {
      bytes += $0
      chunks += 1
    }
    XCTAssertGreaterThan(chunks, 0)
    return bytes
  }

  func testWriteJSON_AwkwardKeysAndValues_SameBytesAsJSONEncoder() throws {
    var controls = ""
    for value in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
    var state = ExportState(
      exportedAt: "2026-11-25T10:00:00Z", outputDirectory: "/srv/study/export \"nightly\"")
    let keys = [
      "results|P001/a.archive", "results|P001/b.archive", "Results|Z", "a10", "a9", "\u{e9}a",
      "e\u{301}b", "back\\slash", "tab\there", controls, "del\u{7f}", "emoji😀", "\u{2028}",
    ]
    let times: [Double] = [
      1_795_573_838, 1_795_573_838.198_243_4, 0.1, 1e21, 1e-7, .leastNonzeroMagnitude, -3.5,
    ]
    for (index, key) in keys.enumerated() {
      state.inputs[key] = ExportState.Entry(
        size: Int64(index * 1_000), modified: times[index % times.count],
        hash: index % 3 == 0 ? "" : "347a688f02e2d5cd",
        taskRunUUIDs: Array(
          repeating: "8E8BC0EF-F004-4237-989C-3C9E3FBFFB17", count: index % 3),
        status: ["ok", "failed", "skipped"][index % 3], path: index % 2 == 0 ? key : nil)
    }
    // Run "UUIDs" as an app may have written them: empty, with a line break.
    state.inputs["odd uuids"] = ExportState.Entry(
      size: 1, modified: 2, hash: "h", taskRunUUIDs: ["", "a\nb", "", "c"], status: "ok",
      path: nil)
    state.inputs["one empty uuid"] = ExportState.Entry(
      size: 1, modified: 2, hash: "h", taskRunUUIDs: [""], status: "ok", path: nil)
    XCTAssertEqual(state.inputs["odd uuids"]?.taskRunUUIDs, ["", "a\nb", "", "c"])
    XCTAssertEqual(state.inputs["one empty uuid"]?.taskRunUUIDs, [""])
    XCTAssertEqual(try streamedBytes(state), try encoderBytes(state))
    // And it reads back as the same state.
    let decoded = try JSONDecoder().decode(ExportState.self, from: Data(try streamedBytes(state)))
    XCTAssertEqual(decoded, state)
  }

  func testWriteJSON_ReplacingEntries_SameBytesAsTheMergedState() throws {
    func entry(_ size: Int64) -> ExportState.Entry {
      ExportState.Entry(
        size: size, modified: 1_795_573_838.5, hash: "ab", taskRunUUIDs: [], status: "ok",
        path: nil)
    }
    let previous = ExportState(
      exportedAt: "2026-11-24T02:15:00Z", outputDirectory: "out",
      inputs: ["r|a": entry(1), "r|c": entry(3), "r|e": entry(5)])
    let newer = ["r|c": entry(30), "r|b": entry(2), "r|f": entry(6)]
    var merged = previous
    for (key, value) in newer { merged.inputs[key] = value }
    var streamed: [UInt8] = []
    try previous.writeJSON(replacing: newer) { streamed += $0 }
    XCTAssertEqual(streamed, try encoderBytes(merged))
  }

  func testDecode_WhatJSONDecoderReads_SameState() throws {
    // The written files, and hand-written ones in another layout (members reordered, compact,
    // escapes JSONEncoder does not use, a null path, an unknown member, integers as times).
    var state = ExportState(exportedAt: "2026-11-25T10:00:00Z", outputDirectory: "o/ut")
    state.inputs["r|P1/a\u{e9}\"x\".archive"] = ExportState.Entry(
      size: 12_782, modified: 1_795_573_838.198_243_4, hash: "347a", taskRunUUIDs: ["A", "B"],
      status: "ok", path: "P1/a.archive")
    state.inputs["r|b"] = ExportState.Entry(
      size: 0, modified: 0, hash: "", taskRunUUIDs: [], status: "failed", path: nil)
    var documents = [
      try streamedBytes(state), try streamedBytes(ExportState(exportedAt: "", outputDirectory: "")),
    ]
    documents.append(
      Array(
        #"""
        {"version":1,"inputs":{"k\u00e9\/":{"taskRunUUIDs":["\u0041"],"status":"ok","size":5,
        "path":null,"modified":17,"hash":"h","extra":[1,{"x":null}]}},"outputDirectory":"o",
        "exportedAt":"t","comment":"ignored"}
        """#.utf8))
    for bytes in documents {
      let reference = try JSONDecoder().decode(ExportState.self, from: Data(bytes))
      XCTAssertEqual(try ExportState.decode(bytes), reference)
    }
  }

  func testDecode_NotAState_RefusedAsJSONDecoderRefuses() throws {
    let documents = [
      #"{"exportedAt":"t","outputDirectory":"o","inputs":{}}"#,  // no version
      #"{"exportedAt":"t","outputDirectory":"o","version":1}"#,  // no inputs
      #"{"exportedAt":"t","outputDirectory":"o","version":1,"inputs":[]}"#,
      #"{"exportedAt":1,"outputDirectory":"o","version":1,"inputs":{}}"#,
      #"{"exportedAt":"t","outputDirectory":"o","version":1,"inputs":{"k":{"size":"5","modified":1,"hash":"","taskRunUUIDs":[],"status":"ok"}}}"#,
      #"{"exportedAt":"t","outputDirectory":"o","version":1,"inputs":{"k":{"size":5,"modified":1,"hash":"","status":"ok"}}}"#,
      #"{"exportedAt":"t","outputDirectory":"o","version":1,"inputs":{"k":{"size":5,"modified":1,"hash":"","taskRunUUIDs":[1],"status":"ok"}}}"#,
      #"{"exportedAt":"t","outputDirectory":"o","version":1,"inputs":{"k":{"size":5,"modified":1,"hash":"","taskRunUUIDs":[],"status":"ok","path":3}}}"#,
      #"[1]"#, #"{"exportedAt":"t""#, "",
    ]
    for text in documents {
      XCTAssertThrowsError(
        try JSONDecoder().decode(ExportState.self, from: Data(text.utf8)), "reference: \(text)")
      XCTAssertThrowsError(try ExportState.decode(Array(text.utf8)), text)
    }
  }

  func testLoad_StateOfManyMegabytes_ReadBackWhole() throws {
    // Over 4 MB: the mapped file's pages are let go of while it is read.
    var state = ExportState(exportedAt: "2026-11-25T10:00:00Z", outputDirectory: "out")
    for number in 0..<25_000 {
      state.inputs["/srv/study/results/P\(number % 97)/batch-\(number).archive"] =
        ExportState.Entry(
          size: Int64(number), modified: 1_795_573_838.125 + Double(number),
          hash: "347a688f02e2d5cd",
          taskRunUUIDs: (0..<(number % 6)).map { "8E8BC0EF-F004-4237-989C-3C9E3FBF\(1000 + $0)" },
          status: "ok", path: "P\(number % 97)/batch-\(number).archive")
    }
    let path = uniqueTemporaryPath("state", suffix: ".json")
    defer { try? FileManager.default.removeItem(atPath: path) }
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: try state.encoded()))
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    XCTAssertGreaterThan(size ?? 0, 8 << 20)
    XCTAssertEqual(try ExportState.load(path: path), state)
  }

  func testWriteJSON_NoInputs_SameBytesAsJSONEncoder() throws {
    let state = ExportState(exportedAt: "", outputDirectory: "out")
    XCTAssertEqual(try streamedBytes(state), try encoderBytes(state))
  }

  func testWriteJSON_ManyInputs_SameBytesInSeveralChunks() throws {
    var state = ExportState(exportedAt: "2026-11-25T10:00:00Z", outputDirectory: "out")
    for number in 0..<2_000 {
      state.inputs["results|P\(number % 37)/batch-\(number).archive"] = ExportState.Entry(
        size: Int64(number), modified: 1_795_573_838.25 + Double(number), hash: "00ff",
        taskRunUUIDs: ["A150C40A-7466-431B-89D1-A1FBA3FDB2F8"], status: "ok",
        path: "P\(number % 37)/batch-\(number).archive")
    }
    var chunks = 0
    try state.writeJSON { _ in chunks += 1 }
    XCTAssertGreaterThan(chunks, 3)
    XCTAssertEqual(try streamedBytes(state), try encoderBytes(state))
  }
}

final class JoinedStringsTests: XCTestCase {
  func testJoinedStrings_ListsComeBackAsGiven() {
    for list in [[], [""], ["", ""], ["a"], ["a", "b", "c"], ["a\nb", "c"], ["\n"], ["x", ""]] {
      XCTAssertEqual(JoinedStrings(list).strings, list)
    }
    XCTAssertEqual(JoinedStrings(["a", "b"]), JoinedStrings(["a", "b"]))
    XCTAssertNotEqual(JoinedStrings([]), JoinedStrings([""]))
  }
}

final class HashCacheTests: XCTestCase {
  func testHashCache_RemembersTheLatestFilesOnly_HashesStayRight() throws {
    let folder = try makeTemporaryFolder("hashcache")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let paths = (0..<10).map { folder + "/f\($0)" }
    for (number, path) in paths.enumerated() {
      XCTAssertTrue(
        FileManager.default.createFile(atPath: path, contents: Data("file \(number)".utf8)))
    }
    let cache = HashCache(capacity: 3)
    var first: [String] = []
    for path in paths {
      first.append(try XCTUnwrap(cache.hash(ofFile: path)))
      XCTAssertLessThanOrEqual(cache.count, 3)
    }
    XCTAssertEqual(Set(first).count, 10)
    // Forgotten or remembered, a file's hash is its content's.
    for (path, hash) in zip(paths, first) {
      XCTAssertEqual(cache.hash(ofFile: path), hash)
      XCTAssertEqual(ContentHash.ofFile(atPath: path), hash)
    }
    XCTAssertEqual(cache.count, 3)
  }
}
