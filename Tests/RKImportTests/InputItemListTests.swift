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

  func testWalk_SeveralRoots_DisplayPathsNameTheRoot() {
    let (items, _) = InputWalker(roots: [root + "/c/", root + "/a-c"]).items()
    XCTAssertEqual(
      items.map(\.displayPath),
      [root + "/c/link.txt", root + "/c/z.txt", root + "/c/ü.txt", root + "/a-c"])
    XCTAssertEqual(items.map(\.pathBelowRoot), ["link.txt", "z.txt", "ü.txt", "a-c"])
    XCTAssertEqual(items[0].location, .file(path: root + "/c/" + "/link.txt"))
  }

  func testList_FromItems_GivesThemBack() {
    let items = [
      InputItem(displayPath: "p/q.json", folders: ["p"], location: .file(path: "/r/q"), size: 3)
    ]
    XCTAssertEqual(Array(InputItemList(items)), items)
  }
}
