// The flat JSON document against the tree parser: the same values, the same errors, the same
// member lookups, on real files and on documents changed at random.
import Foundation
import RKTestSupport
import XCTest

@testable import RKImport

final class JSONDocumentTests: XCTestCase {
  /// What parsing gives: the value, or the error's text.
  private enum Outcome: Equatable {
    case value(JSONValue, nesting: Int)
    case error(String)
  }

  private func treeOutcome(_ bytes: [UInt8], _ parser: JSONParser) -> Outcome {
    do {
      let value = try parser.parse(bytes)
      return .value(value, nesting: Self.nesting(of: value))
    } catch {
      return .error("\(error)")
    }
  }

  private func documentOutcome(_ bytes: [UInt8], _ parser: JSONParser) -> Outcome {
    do {
      let document = try parser.parseDocument(bytes)
      return .value(document.root.value, nesting: document.nesting)
    } catch {
      return .error("\(error)")
    }
  }

  /// How deeply containers nest in `value`, counted as `JSONDocument.nesting` is.
  private static func nesting(of value: JSONValue) -> Int {
    switch value {
    case .array(let elements): 1 + (elements.map(nesting).max() ?? 0)
    case .object(let members): 1 + (members.map { nesting(of: $0.value) }.max() ?? 0)
    default: 0
    }
  }

  /// The JSON files of the samples, the test fixtures and the real corpus (beside the
  /// package, when there).
  private func jsonFiles() throws -> [[UInt8]] {
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let roots = [
      package.path + "/samples", fixturesPath,
      package.deletingLastPathComponent().path + "/shared/corpus/real",
    ]
    var files: [[UInt8]] = []
    for root in roots {
      guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
      for case let relative as String in walker where relative.hasSuffix(".json") {
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
        files.append(Array(data))
      }
    }
    return files
  }

  func testRealFiles_SameValuesAsTheTree() throws {
    let files = try jsonFiles()
    XCTAssertGreaterThan(files.count, 40)
    var parsed = 0
    for (index, bytes) in files.enumerated() {
      let tree = treeOutcome(bytes, JSONParser())
      XCTAssertEqual(documentOutcome(bytes, JSONParser()), tree, "file \(index)")
      if case .value = tree { parsed += 1 }
    }
    XCTAssertGreaterThan(parsed, 40)
  }

  /// Bytes removed, replaced or inserted (escapes, surrogates, non-ASCII and broken UTF-8,
  /// structure, numbers): both readers accept the same documents with the same values and
  /// refuse the others with the same error, at the same byte.
  func testMutatedDocuments_SameOutcomeAsTheTree() throws {
    let seeds = try jsonFiles().filter { $0.count < 20_000 }
    XCTAssertFalse(seeds.isEmpty)
    let texts = [
      #"\""#, #"\\"#, #"\u00e9"#, #"\ud83d\ude00"#, #"\ud83d"#, #"\udc00"#, #"\x"#, "{", "}",
      "[", "]", ",", ":", "\"", "1e5", "-0", "0.5E-3", "01", "1.", "tru", "null", "é",
      "e\u{301}", "\u{212A}", "\t",
    ]
    let pieces: [[UInt8]] =
      texts.map { Array($0.utf8) } + [
        [0x80], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x01], [0xEF, 0xBB, 0xBF],
      ]
    var random = SplitMix(seed: 2026_11_28)
    var accepted = 0
    var refused = 0
    let shallow = JSONParser(maximumDepth: 6)
    for round in 0..<20_000 {
      var bytes = seeds.randomElement(using: &random)!
      for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
        default: bytes[at] = UInt8.random(in: 0...255, using: &random)
        }
      }
      // Every tenth round with a low depth limit, so that the depth error is met too.
      let parser = round % 10 == 0 ? shallow : JSONParser()
      let tree = treeOutcome(bytes, parser)
      XCTAssertEqual(documentOutcome(bytes, parser), tree, "round \(round)")
      if case .value = tree { accepted += 1 } else { refused += 1 }
    }
    XCTAssertGreaterThan(accepted, 1_000)
    XCTAssertGreaterThan(refused, 1_000)
  }

  /// An object of up to `maximum` members named from `names` (JSON text: escapes allowed),
  /// numbered in order: its members' text and its bytes.
  private func randomObject(
    names: [String], upTo maximum: Int, _ random: inout SplitMix
  ) -> (members: [String], bytes: [UInt8]) {
    let count = Int.random(in: 0...maximum, using: &random)
    let members = (0..<count).map { index in
      "\"\(names.randomElement(using: &random)!)\": \(index)"
    }
    return (members, Array("{\(members.joined(separator: ", "))}".utf8))
  }

  /// A member is found as `JSONValue`'s subscript finds it: the first whose name is equal as
  /// a String, so canonically equivalent spellings (composed and decomposed, the Kelvin sign
  /// for K, an escaped letter) are the same name, and ASCII names are compared by bytes.
  func testSubscript_FindsWhatTheTreeFinds() throws {
    let names = [
      "a", "K", "\u{212A}", "café", "cafe\u{301}", "_class", "_cl\\u0061ss", "\\u00e9", "é",
      "e\u{301}", "", "identifier", "identifiers", "\\\"q\\\"", "ab", "a\\u0000",
    ]
    var random = SplitMix(seed: 99)
    for round in 0..<3_000 {
      let (members, bytes) = randomObject(names: names, upTo: 6, &random)
      let tree = try JSONParser().parse(bytes)
      let document = try JSONParser().parseDocument(bytes)
      let decodedNames = names.map { try? JSONParser().parse("\"\($0)\"").stringValue }
      for case let name? in decodedNames {
        XCTAssertEqual(
          document.root[name]?.value, tree[name], "round \(round): \(name) in \(members)")
      }
    }
  }

  /// An object's `FieldKey`s are the keys a by-name lookup finds a member for, and it has
  /// other names when a name is neither a key's nor `_class`: names
  /// spelled plainly or with an escaped first letter, near misses (another case, a letter
  /// more or less, an accent after a key's name) and names too long for the byte matcher.
  func testFieldKeys_TheKeysALookupFinds() throws {
    let escapedNames = FieldKey.allCases.prefix(40).map { key in
      // The first letter as a \u escape.
      let name = key.name
      let first = name.unicodeScalars.first!.value
      return "\\u" + String(format: "%04x", first) + String(name.dropFirst())
    }
    let names =
      FieldKey.allCases.map(\.name) + escapedNames + [
        "identifie", "identifierX", "Identifier", "\u{212A}", "userInfo\u{301}",
        "a-name-far-too-long-for-the-byte-matcher-to-hold-it", "", "_class",
      ]
    var random = SplitMix(seed: 4_711)
    for round in 0..<1_000 {
      let (members, bytes) = randomObject(names: names, upTo: 8, &random)
      let document = try JSONParser().parseDocument(bytes)
      let (keys, hasOtherNames, classValue) = document.fieldKeys(ofObject: 0)
      XCTAssertEqual(
        classValue.map { JSONItem(document: document, index: $0).value },
        document.root["_class"]?.value,
        "round \(round): \(members)")
      for key in FieldKey.allCases {
        XCTAssertEqual(
          keys.contains(key), document.root[key.name] != nil,
          "round \(round): \(key.name) in \(members)")
      }
      let names = try JSONParser().parse(bytes).objectMembers?.map(\.key) ?? []
      XCTAssertEqual(
        hasOtherNames, names.contains { $0 != "_class" && FieldKey.named($0) == nil },
        "round \(round): \(members)")
      // The JSON object's shortcut lists what the shared listing lists, for the keys it has
      // skipped, for every key and for a random half.
      let object = try XCTUnwrap(ResearchKitJSONObject(document.root, trail: .root()))
      let half = FieldKeySet { _ in Bool.random(using: &random) }
      for skipped in [keys, FieldKeySet { _ in true }, half] {
        XCTAssertEqual(
          try object.otherFields(skipping: skipped), try object.namedFields(skipping: skipped),
          "round \(round): \(members)")
      }
    }
  }

  /// A string read as a date from the document's bytes is the date its text gives, escaped
  /// or not, valid or not.
  func testDateText_AsTheStringsDate() throws {
    let texts = [
      "2019-05-27T00:35:06-0700", #"2019-05-27T00:35:06\u002D0700"#,
      "2017-09-13T15:58:52.704-07:00",
      "2015-02-25T16:42:11+00:00", "2015-02-15", "2015-02-30", "2015-02-15T25:00:00Z", "",
      "yesterday", "2015-02-15T10:00:00", #"2015-02-15T10:00:00\/Z"#, "2015-02-15T10:00:00.Z",
    ]
    for text in texts {
      let bytes = Array("[\"\(text)\", 20150215]".utf8)
      let items = try XCTUnwrap(JSONParser().parseDocument(bytes).root.arrayValue)
      let string = try XCTUnwrap(items[0].stringValue)
      XCTAssertEqual(items[0].dateText, JSONDateText(string), text)
      XCTAssertNil(items[1].dateText, text)
    }
  }

  /// A node is 16 bytes (offsets and four one-byte flags): documents are about a node per 12
  /// bytes of JSON.
  func testNode_SixteenBytes() {
    XCTAssertEqual(MemoryLayout<JSONNode>.stride, 16)
  }

  func testAccessors_AnswerAsTheTree() throws {
    let bytes = Array(
      #"{"s": "x\ty", "n": -12.50, "i": 7, "t": true, "f": false, "z": null, "a": [1, "b"], "o": {}}"#
        .utf8)
    let root = try JSONParser().parseDocument(bytes).root
    let tree = try JSONParser().parse(bytes)
    for key in ["s", "n", "i", "t", "f", "z", "a", "o"] {
      let item = try XCTUnwrap(root[key])
      let value = try XCTUnwrap(tree[key])
      XCTAssertEqual(item.stringValue, value.stringValue, key)
      XCTAssertEqual(item.numberValue, value.numberValue, key)
      XCTAssertEqual(item.boolValue, value.boolValue, key)
      XCTAssertEqual(item.isNull, value.isNull, key)
      XCTAssertEqual(item.isObject, value.objectMembers != nil, key)
      XCTAssertEqual(item.isArray, value.arrayValue != nil, key)
      XCTAssertEqual(item.arrayValue?.map(\.value), value.arrayValue, key)
      XCTAssertEqual(item.objectMembers?.map(\.key), value.objectMembers?.map(\.key), key)
      XCTAssertEqual(item.kindDescription, value.kindDescription, key)
    }
    XCTAssertEqual(root.objectMembers?.map(\.value.value), tree.objectMembers?.map(\.value))
    XCTAssertNil(root["missing"])
    XCTAssertNil(root["s"]?["x"])
  }
}
