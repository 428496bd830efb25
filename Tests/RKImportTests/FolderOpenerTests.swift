// Opening by name within the last folder: the file a full path names, whatever came before.
import Foundation
import XCTest

@testable import RKImport

final class FolderOpenerTests: XCTestCase {
  private var root = ""

  override func setUpWithError() throws {
    root = NSTemporaryDirectory() + "rkexport-opener-\(UUID().uuidString)"
    let manager = FileManager.default
    for folder in ["/a", "/b", "/a/sub"] {
      try manager.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
    }
    // The same names in several folders, each file's text its own path.
    for path in ["/a/x", "/a/y", "/b/x", "/a/sub/x", "/top"] {
      try Data(path.utf8).write(to: URL(fileURLWithPath: root + path))
    }
    try manager.createSymbolicLink(atPath: root + "/linked", withDestinationPath: root + "/b")
    try manager.createSymbolicLink(atPath: root + "/a/z", withDestinationPath: root + "/b/x")
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: root)
  }

  /// The text of the file `opener` opens at `path`, or the error's name.
  private func read(_ path: String, with opener: FolderOpener) -> String {
    let fd = opener.openFile(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "errno \(errno)" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = Glibc.read(fd, &buffer, buffer.count)
    return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
  }

  func testOpen_AlternatingFolders_EachPathItsOwnFile() {
    let opener = FolderOpener()
    // Written out by hand: each path's file says its path below the root.
    let expected: [(String, String)] = [
      ("/a/x", "/a/x"), ("/a/y", "/a/y"), ("/b/x", "/b/x"), ("/a/x", "/a/x"),
      ("/a/sub/x", "/a/sub/x"), ("/a/x", "/a/x"), ("/linked/x", "/b/x"), ("/b/x", "/b/x"),
      ("/a/z", "/b/x"), ("/a/sub/../y", "/a/y"), ("/top", "/top"), ("/a/x", "/a/x"),
    ]
    for (path, text) in expected {
      XCTAssertEqual(read(root + path, with: opener), text, path)
    }
  }

  func testOpen_MissingFileOrFolder_TheFullPathsError() {
    let opener = FolderOpener()
    XCTAssertEqual(read(root + "/a/x", with: opener), "/a/x")
    // In the folder held, in a folder that does not exist, through a file as a folder.
    XCTAssertEqual(read(root + "/a/gone", with: opener), "errno \(ENOENT)")
    XCTAssertEqual(read(root + "/nowhere/x", with: opener), "errno \(ENOENT)")
    XCTAssertEqual(read(root + "/a/x/y", with: opener), "errno \(ENOTDIR)")
    XCTAssertEqual(read(root + "/a/y", with: opener), "/a/y")
  }

  func testOpen_RelativePathsAndNamesAlone_FromTheWorkingFolder() throws {
    let opener = FolderOpener()
    let previous = FileManager.default.currentDirectoryPath
    XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(root))
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    XCTAssertEqual(read("top", with: opener), "/top")
    XCTAssertEqual(read("a/x", with: opener), "/a/x")
    XCTAssertEqual(read("./a/y", with: opener), "/a/y")
    XCTAssertEqual(read("b/x", with: opener), "/b/x")
  }

  func testOpen_AFolderReplacedByAnother_OpenedAgainByItsPath() throws {
    let opener = FolderOpener()
    XCTAssertEqual(read(root + "/b/x", with: opener), "/b/x")
    // Another folder in between: the next file of "b" is looked up by b's path again.
    XCTAssertEqual(read(root + "/a/x", with: opener), "/a/x")
    try FileManager.default.removeItem(atPath: root + "/b")
    try FileManager.default.createDirectory(atPath: root + "/b", withIntermediateDirectories: false)
    try Data("new".utf8).write(to: URL(fileURLWithPath: root + "/b/x"))
    XCTAssertEqual(read(root + "/b/x", with: opener), "new")
  }
}
