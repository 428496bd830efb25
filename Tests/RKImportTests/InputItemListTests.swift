// The compact walk: the same items as a path-by-path walk would give, in display-path order,
// with links followed, loops cut, hidden and dangling entries skipped.
import Foundation
import XCTest

@testable import RKImport

final class InputItemListTests: XCTestCase {
  private var root = ""

  override func setUpWithError() throws {
    root = NSTemporaryDirectory() + "rkexport-list-\(UUID().uuidString)"
    let manager = FileManager.default
    for folder in ["/a/b", "/a/.hidden", "/c"] {
      try manager.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
    }
    for (path, text) in [
      ("/a/b/x.json", "{}"), ("/a-c", "text"), ("/a/.hidden/h.json", "{}"), ("/a/.dot", "."),
      ("/c/ü.txt", "u"), ("/c/z.txt", "zz"),
    ] {
      try Data(text.utf8).write(to: URL(fileURLWithPath: root + path))
    }
    // A link to a file (followed), a dangling link (skipped), a loop back to the root (cut).
    try manager.createSymbolicLink(atPath: root + "/c/link.txt", withDestinationPath: root + "/a-c")
    try manager.createSymbolicLink(atPath: root + "/c/gone", withDestinationPath: root + "/nope")
    try manager.createSymbolicLink(atPath: root + "/a/b/up", withDestinationPath: root)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: root)
  }

  func testWalk_Folders_SortedByDisplayPathNotByFolder() {
    let (items, problems) = InputWalker(roots: [root]).items()
    XCTAssertEqual(problems, [])
    // "a-c" sorts before "a/…" ("-" < "/"), although the walk visits folder "a" first.
    XCTAssertEqual(
      items.map(\.displayPath), ["a-c", "a/b/x.json", "c/link.txt", "c/z.txt", "c/ü.txt"])
    XCTAssertEqual(items.map(\.folders), [[], ["a", "b"], ["c"], ["c"], ["c"]])
    XCTAssertEqual(items[1].location, .file(path: root + "/a/b/x.json"))
    XCTAssertEqual(items.map(\.size), [4, 2, 4, 2, 1])
  }

  func testWalk_FolderNamesBeyondASCII_HiddenAndOrderedAsStrings() throws {
    // A dot followed by a combining mark is another Character: that file is not hidden (as
    // for zip entries). A folder holding such names is ordered as Strings compare them: the
    // decomposed "e\u{301}" as its composed form U+00E9, after "f", where its bytes (0x65…)
    // would put it before.
    let folder = root + "/d"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in [".\u{301}x", "f", "e\u{301}", "\u{E9}z", ".plain"] {
      try Data("1".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
    }
    let (items, problems) = InputWalker(roots: [folder]).items()
    XCTAssertEqual(problems, [])
    XCTAssertEqual(
      items.map(\.displayPath).map { Array($0.unicodeScalars) },
      [".\u{301}x", "f", "e\u{301}", "\u{E9}z"].map { Array($0.unicodeScalars) })
    XCTAssertEqual(
      items.map(\.displayPath), items.map(\.displayPath).sorted(), "String order")
  }

  func testWalk_SeveralRoots_DisplayPathsNameTheRoot() {
    let (items, _) = InputWalker(roots: [root + "/c/", root + "/a-c"]).items()
    XCTAssertEqual(
      items.map(\.displayPath),
      [root + "/c/link.txt", root + "/c/z.txt", root + "/c/ü.txt", root + "/a-c"])
    XCTAssertEqual(items.map(\.pathBelowRoot), ["link.txt", "z.txt", "ü.txt", "a-c"])
    XCTAssertEqual(items[0].location, .file(path: root + "/c/" + "/link.txt"))
  }

  func testWalk_SeveralRoots_ARootThatIsAZipOrAnUpload_ItsLabelReplacesItsName() throws {
    // A zip given as a root keeps its entry paths after its label (they were all shown as the
    // label alone), and a Bridge upload folder given as a root is shown as its label (it was
    // shown as the label, `/` and its name again).
    let upload = root + "/upload"
    try FileManager.default.copyItem(atPath: fixturesPath + "/bridge-ruxf-v1", toPath: upload)
    let zip = root + "/in.zip"
    try FileManager.default.copyItem(atPath: fixturesPath + "/zip-mixed.zip", toPath: zip)
    let walk = InputWalker(roots: [zip, upload, root + "/a-c"]).items()
    // By hand: zip-mixed's three readable entries, in path order, then the upload and the file.
    XCTAssertEqual(
      walk.items.map(\.displayPath),
      [
        zip + "!/P001/photo.png", zip + "!/P001/submission.json", zip + "!/notes.txt", upload,
        root + "/a-c",
      ])
    // Its two entries escaping it, named the same way.
    XCTAssertEqual(walk.problems.map(\.file), [zip + "!/../evil.json", zip + "!//abs.json"])
  }

  func testZipEntries_StoredCompactly_SameItemsBeforeAndAfterMovingToDisk() throws {
    var list = InputItemList()
    list.beginRoot(path: "/in", label: "in", isDirectory: true, labelsRoots: false)
    let outer = list.beginZip(
      zipPath: "/in/site/u.zip", nestedZip: nil, display: "site/u.zip",
      entryFolders: ["site", "u.zip"])
    let nested = list.beginZip(
      zipPath: "/in/site/u.zip", nestedZip: "b/inner.bin", display: "site/u.zip!/b/inner.bin",
      entryFolders: ["site", "u.zip", "b", "inner.bin"])
    list.appendZipEntry(zip: outer, path: "P1/a.archive", size: 12)
    list.appendZipEntry(zip: nested, path: "x/y.json", size: 5)
    list.appendZipEntry(zip: outer, path: "Z\u{FC}rich/\u{FC}.txt", size: 1)
    // Over the 64 KiB a compact record's path may take: kept whole, the same item.
    let long = String(repeating: "n", count: 70_000)
    list.appendZipEntry(zip: outer, path: long, size: 2)
    // Over the 4 GiB a compact record's size may take: kept whole too.
    list.appendZipEntry(zip: outer, path: "big.bin", size: 5 << 30)
    let expected = [
      InputItem(
        displayPath: "site/u.zip!/P1/a.archive", folders: ["site", "u.zip", "P1"],
        location: .zipEntry(zipPath: "/in/site/u.zip", entry: "P1/a.archive"), size: 12),
      InputItem(
        displayPath: "site/u.zip!/b/inner.bin!/x/y.json",
        folders: ["site", "u.zip", "b", "inner.bin", "x"],
        location: .nestedZipEntry(
          zipPath: "/in/site/u.zip", nestedZip: "b/inner.bin", entry: "x/y.json"),
        size: 5),
      InputItem(
        displayPath: "site/u.zip!/Z\u{FC}rich/\u{FC}.txt",
        folders: ["site", "u.zip", "Z\u{FC}rich"],
        location: .zipEntry(zipPath: "/in/site/u.zip", entry: "Z\u{FC}rich/\u{FC}.txt"), size: 1),
      InputItem(
        displayPath: "site/u.zip!/" + long, folders: ["site", "u.zip"],
        location: .zipEntry(zipPath: "/in/site/u.zip", entry: long), size: 2),
      InputItem(
        displayPath: "site/u.zip!/big.bin", folders: ["site", "u.zip"],
        location: .zipEntry(zipPath: "/in/site/u.zip", entry: "big.bin"), size: 5 << 30),
    ]
    XCTAssertEqual(Array(list), expected)
    list.moveToDisk(directory: root)
    XCTAssertEqual(Array(list), expected)
  }

  func testFolders_AllButTheLastComponent_EmptyOnesKept() {
    // Written out by hand: the components before the last `/`, empty ones included.
    let cases: [(String, [String])] = [
      ("", []), ("x.json", []), ("P1/x.json", ["P1"]), ("P1/s/x", ["P1", "s"]),
      ("a//b", ["a", ""]), ("/x", [""]), ("a/", ["a"]), ("ü/é/x", ["ü", "é"]),
    ]
    for (path, folders) in cases {
      XCTAssertEqual(InputItemList.folders(ArraySlice(path.utf8)), folders, path)
      // A slice that does not start at 0, as the list's text gives.
      let padded = Array(("zz" + path).utf8)
      XCTAssertEqual(InputItemList.folders(padded[2...]), folders, path)
    }
  }

  func testDiskPath_TheRootASlashAndThePath() {
    // Written out by hand: short (inline) and long strings, an empty root or path, text
    // beyond ASCII.
    let cases: [(root: String, below: String, path: String)] = [
      ("/r", "x", "/r/x"), ("", "x.json", "/x.json"), ("/r", "", "/r/"),
      (
        "/tmp/rkexport-bench/corpus-10000", "participant-0001/task-0001.rkarchive",
        "/tmp/rkexport-bench/corpus-10000/participant-0001/task-0001.rkarchive"
      ),
      ("/données", "é/ü 😀.json", "/données/é/ü 😀.json"),
    ]
    for (root, below, path) in cases {
      let made = InputItemList.diskPath(.init(path: root, label: "", isDirectory: true), below)
      XCTAssertEqual(made, path)
      XCTAssertEqual(Array(made.utf8), Array(path.utf8), "the same bytes, not only equal")
    }
  }

  func testList_FromItems_GivesThemBack() {
    let items = [
      InputItem(displayPath: "p/q.json", folders: ["p"], location: .file(path: "/r/q"), size: 3)
    ]
    XCTAssertEqual(Array(InputItemList(items)), items)
  }
}
