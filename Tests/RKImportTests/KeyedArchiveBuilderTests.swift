// A small keyed-archive builder for tests (Darwin-only and hostile shapes), and its own check.
import XCTest

@testable import RKImport

/// Builds NSKeyedArchiver-shaped binary plists object by object. UIDs are handed out in
/// order (`nextUID` tells the next one, so tests can build cycles); nothing is validated.
final class ArchiveBuilder {
  /// A value stored under a key of an archived object.
  enum Value {
    case uid(UInt64)
    case int(Int64)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    case string(String)
    /// An inline plist array of UIDs (what `NS.objects` holds).
    case uids([UInt64])
  }

  private(set) var plist = [PlistObject]()
  private var archiveObjects = [Int]()
  private var classUIDs = [String: UInt64]()

  init() {
    archiveObjects.append(add(.string("$null")))
  }

  var nextUID: UInt64 { UInt64(archiveObjects.count) }

  @discardableResult
  func add(_ object: PlistObject) -> Int {
    plist.append(object)
    return plist.count - 1
  }

  /// An inline primitive in `$objects` (NSString, NSNumber, NSData encoded with encodeObject).
  func inline(_ object: PlistObject) -> UInt64 {
    archiveObjects.append(add(object))
    return UInt64(archiveObjects.count - 1)
  }

  func string(_ text: String) -> UInt64 { inline(.string(text)) }

  /// An object with `$class` → a class record named `className` with chain `classes`.
  func object(
    _ className: String, classes: [String]? = nil, _ fields: [(String, Value)]
  ) -> UInt64 {
    let uid = nextUID
    archiveObjects.append(-1)
    let classUID = classRecord(className, classes ?? [className, "NSObject"])
    var keys = [Int]()
    var values = [Int]()
    for (key, value) in fields + [("$class", .uid(classUID))] {
      keys.append(add(.string(key)))
      values.append(add(plistObject(value)))
    }
    archiveObjects[Int(uid)] = add(.dictionary(keys: keys, values: values))
    return uid
  }

  private func plistObject(_ value: Value) -> PlistObject {
    switch value {
    case .uid(let uid): return .uid(uid)
    case .int(let number): return .integer(number)
    case .real(let number): return .real(number)
    case .bool(let flag): return .bool(flag)
    case .data(let bytes): return .data(bytes)
    case .string(let text): return .string(text)
    case .uids(let uids): return .array(uids.map { add(.uid($0)) })
    }
  }

  /// The UID of the class record named `name`, once an object of it was added.
  func classUID(_ name: String) -> UInt64? { classUIDs[name] }

  private func classRecord(_ name: String, _ classes: [String]) -> UInt64 {
    if let uid = classUIDs[name] { return uid }
    let keys = [add(.string("$classname")), add(.string("$classes"))]
    let values = [add(.string(name)), add(.array(classes.map { add(.string($0)) }))]
    archiveObjects.append(add(.dictionary(keys: keys, values: values)))
    let uid = UInt64(archiveObjects.count - 1)
    classUIDs[name] = uid
    return uid
  }

  func date(_ secondsSince2001: Double) -> UInt64 {
    object("NSDate", [("NS.time", .real(secondsSince2001))])
  }

  func array(_ uids: [UInt64]) -> UInt64 {
    object("NSArray", [("NS.objects", .uids(uids))])
  }

  /// The archive with `$top` = {root: root}.
  func bytes(root: UInt64) -> [UInt8] {
    let objectsRef = add(.array(archiveObjects))
    let topTable = add(.dictionary(keys: [add(.string("root"))], values: [add(.uid(root))]))
    let keys = ["$archiver", "$version", "$objects", "$top"].map { add(.string($0)) }
    let values = [add(.string("NSKeyedArchiver")), add(.integer(100_000)), objectsRef, topTable]
    let top = add(.dictionary(keys: keys, values: values))
    return BPlistWriter.write(plist, top: top)
  }
}

final class KeyedArchiveBuilderTests: XCTestCase {
  func testBuilder_StringArray_ReadsBack() throws {
    let builder = ArchiveBuilder()
    let root = builder.array([builder.string("a"), builder.string("b")])
    let archive = try KeyedArchive(bytes: builder.bytes(root: root))
    XCTAssertEqual(
      try archive.keyedValue(archive.root(), depth: 0), .array([.string("a"), .string("b")]))
  }

  func testBuilder_Output_IsReadByPythonPlistlib() throws {
    // An independent reader (Python's plistlib) must see the same archive structure.
    let builder = ArchiveBuilder()
    let root = builder.array([builder.string("é"), builder.inline(.integer(-3))])
    let path = NSTemporaryDirectory() + "builder-\(UUID().uuidString).plist"
    try Data(builder.bytes(root: root)).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = """
      import plistlib,sys
      d=plistlib.load(open(sys.argv[1],'rb'))
      o=d['$objects']; r=o[d['$top']['root'].data]
      print([o[u.data] for u in r['NS.objects']], o[r['$class'].data]['$classname'])
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(output, "['é', -3] NSArray\n")
  }
}
