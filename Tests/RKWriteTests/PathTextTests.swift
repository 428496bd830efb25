// A path's folder part, as Foundation's NSString gives it, without its trap on one-character
// paths.
import Foundation
import RKTable
import XCTest

final class PathTextTests: XCTestCase {
  /// Paths Foundation answers without trapping: the same folder part.
  func testParent_SameAsNSString() {
    let paths = [
      "ab", "state.json", "out/state.json", "./s", "../ab", "x//ab", "a/b/", "/ab", "/ab/",
      "/", "ab//", "/srv/study/export.state", "résumé/état.json", "é/ab", ".rk/.s.next",
      "a/b/c/d", "//srv//x", "../", "/x//",
    ]
    for path in paths {
      XCTAssertEqual(
        PathText.parent(of: path), (path as NSString).deletingLastPathComponent, path)
    }
  }

  /// One-character paths, on which `NSString.deletingLastPathComponent` traps in
  /// swift-corelibs-foundation (`--state s` ended the run with SIGILL after the outputs were
  /// staged).
  func testParent_OneCharacterPaths() {
    XCTAssertEqual(PathText.parent(of: "s"), "")
    XCTAssertEqual(PathText.parent(of: "é"), "")
    XCTAssertEqual(PathText.parent(of: "a/"), "")
    XCTAssertEqual(PathText.parent(of: "./"), "")
    XCTAssertEqual(PathText.parent(of: "x/s"), "x")
    XCTAssertEqual(PathText.parent(of: ""), "")
  }
}
