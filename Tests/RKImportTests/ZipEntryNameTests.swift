// Entry names split by bytes: a slash or a dot followed by a combining mark is one Character
// with it, so splitting or searching by Characters misread such names.
import Foundation
import RKModel
import XCTest
import ZIPFoundation

@testable import RKImport

final class ZipEntryNameTests: XCTestCase {
  func testComponents_SplitAtEverySlashByte() {
    XCTAssertEqual(zipEntryComponents("P001/a/b.archive"), ["P001", "a", "b.archive"])
    XCTAssertEqual(
      zipEntryComponents("P001/\u{301}a/b.archive"), ["P001", "\u{301}a", "b.archive"])
    XCTAssertEqual(zipEntryComponents("/a//b/"), ["a", "b"])
    XCTAssertEqual(zipEntryComponents("é/\u{20DD}"), ["é", "\u{20DD}"])
    XCTAssertEqual(zipEntryComponents(""), [])
  }

  func testBaseName_LastComponentWithoutItsExtension() {
    XCTAssertEqual(BridgeAnswerFile.baseName("dir/mood.json"), "mood")
    XCTAssertEqual(BridgeAnswerFile.baseName("dir/\u{301}x.json"), "\u{301}x")
    XCTAssertEqual(BridgeAnswerFile.baseName("x.\u{301}json"), "x")
    XCTAssertEqual(BridgeAnswerFile.baseName(".hidden"), ".hidden")
    XCTAssertEqual(BridgeAnswerFile.baseName("a/b/"), "b")
    XCTAssertEqual(BridgeAnswerFile.baseName("noext"), "noext")
  }

  /// A Bridge upload zip whose upload sits in a folder: a file whose name starts with a
  /// combining mark is one of the upload's files (a Character prefix test left it out); a
  /// hidden file is not, and a dot followed by a combining mark is no hidden file (as the
  /// folder walk judges names).
  func testBridgeZip_FileNamedWithACombiningMark_InTheUpload() throws {
    let folder = NSTemporaryDirectory() + "rkexport-zipnames-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/upload.zip"
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    let files: [(String, String)] = [
      (
        "up/info.json", #"{"files":[],"item":"t","taskRun":"0A1B2C3D-0000-4000-8000-000000000001"}"#
      ),
      ("up/\u{301}mood.json", #"{"item":"mood","questionTypeName":"Text","textAnswer":"ok"}"#),
      ("up/.\u{301}shown.json", #"{"item":"shown","questionTypeName":"Text","textAnswer":"yes"}"#),
      ("up/.hidden.json", #"{"item":"hidden","questionTypeName":"Text","textAnswer":"no"}"#),
    ]
    for (name, text) in files {
      let data = Data(text.utf8)
      try archive.addEntry(
        with: name, type: .file, uncompressedSize: Int64(data.count),
        provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
    }
    let reader = try ZipReader(path: path, limits: ZipLimits())
    let upload = BridgeUploadFiles.zip(reader, root: "up/")
    XCTAssertEqual(upload.names, [".\u{301}shown.json", "info.json", "\u{301}mood.json"])
    guard case .run(let run, _) = try BridgeUploadReader.read(upload) else {
      return XCTFail("no run")
    }
    XCTAssertEqual(run.steps.map(\.identifier), ["shown", "mood"])
    XCTAssertEqual(run.steps.map { $0.results.first?.answer }, [.text("yes"), .text("ok")])
  }
}
