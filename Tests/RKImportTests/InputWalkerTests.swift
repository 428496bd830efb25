// Walking folders: Bridge upload folders as one item, participant folders, definitions among
// inputs, and importing through the walker's items with options.
import Foundation
import RKModel
import XCTest

@testable import RKImport

final class InputWalkerTests: XCTestCase {
  private var root = ""

  override func setUpWithError() throws {
    root = NSTemporaryDirectory() + "rkexport-walk-\(UUID().uuidString)"
    let manager = FileManager.default
    try manager.createDirectory(atPath: root + "/P012", withIntermediateDirectories: true)
    try manager.copyItem(atPath: fixturesPath + "/bridge-ruxf-v1", toPath: root + "/P012/upload2")
    try manager.copyItem(atPath: fixturesPath + "/bridgepf-2014-upload", toPath: root + "/old")
    try manager.copyItem(atPath: fixturesPath + "/surveynative", toPath: root + "/survey")
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: root)
  }

  func testLastComponent_SameAsFoundations() {
    // (Not "//", for which Foundation on Linux gives "" where "/" gives "/": no input file has
    // such a path.)
    let paths = [
      "a/b.zip", "/x/y/upload.zip", "upload.zip", "a/b/", "results//", "/", "", "a//b",
      "./P001/z.zip", "Zürich/é.zip", "P\u{EFE9}/caf\u{EFE9}.zip", "/a",
    ]
    for path in paths {
      XCTAssertEqual(
        InputWalker.lastComponent(path), (path as NSString).lastPathComponent, "\(path)")
    }
  }

  func testWalk_BridgeFolders_OneItemParticipantAbove() {
    let (items, problems) = InputWalker(roots: [root]).items()
    XCTAssertEqual(problems, [])
    XCTAssertEqual(
      items.map(\.displayPath),
      [
        "P012/upload2", "old", "survey/P001/submission-2017-03-01.json",
        "survey/P002/submission-2017-03-02.json", "survey/lifestyle.json",
      ])
    XCTAssertEqual(items[0].folders, ["P012"])
    XCTAssertEqual(items[0].location, .bridgeFolder(path: root + "/P012/upload2"))
    XCTAssertEqual(items[1].folders, [])
    XCTAssertEqual(items[2].folders, ["survey", "P001"])
  }

  func testWalk_ManyFilesAcrossFolders_ProbedConcurrently_SizesInWalkOrder() throws {
    // 8 folders of 20 files: enough for the concurrent probe of the whole tree; sizes tell each
    // item's file apart, so a probe landing on the wrong item would show.
    let tree = root + "/many"
    var expected: [(path: String, size: Int64)] = []
    for folder in 0..<8 {
      let path = tree + "/d\(folder)"
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      for number in 0..<20 {
        let name = String(format: "f%02d.json", number)
        let size = folder * 20 + number + 1
        try Data(repeating: 0x20, count: size).write(to: URL(fileURLWithPath: path + "/" + name))
        expected.append(("d\(folder)/" + name, Int64(size)))
      }
    }
    let (items, problems) = InputWalker(roots: [tree]).items()
    XCTAssertEqual(problems, [])
    XCTAssertEqual(items.map(\.displayPath), expected.map(\.path))
    XCTAssertEqual(items.map(\.size), expected.map(\.size))
  }

  func testWalk_ProbedInBatches_BatchesEndMidFolderAndAroundSubfolders_SameItems() throws {
    // Files before and after a subfolder, nested twice: with a batch of 3 files, batches end
    // inside folders and inside the recursion, so a folder's files must be re-registered after
    // each batch. Sizes tell each item's file apart.
    let tree = root + "/batches"
    var size = 0
    func write(_ relative: String) throws {
      size += 1
      let path = tree + "/" + relative
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(repeating: 0x20, count: size).write(to: URL(fileURLWithPath: path))
    }
    let files = [
      "a1.json", "a2.json", "m/b1.json", "m/b2.json", "m/n/c1.json", "m/n/c2.json",
      "m/n/c3.json", "m/n/c4.json", "m/z.json", "y1.json", "y2.json", "y3.json", "y4.json",
    ]
    for file in files { try write(file) }
    let whole = InputWalker(roots: [tree]).items()
    var batched = InputWalker(roots: [tree])
    batched.probeBatch = 3
    let (items, problems) = batched.items()
    XCTAssertEqual(problems, [])
    XCTAssertEqual(items.map(\.displayPath), files)
    XCTAssertEqual(items.map(\.size), (1...files.count).map { Int64($0) })
    XCTAssertEqual(items.map(\.folders), whole.items.map(\.folders))
    XCTAssertEqual(items.map(\.location), whole.items.map(\.location))
    // Listed unopened (as an export lists them), each batch's names kept as bytes: the same
    // paths, folders and files, their sizes left for the reader.
    batched.opensFilesAtImport = true
    let unopened = batched.items()
    XCTAssertEqual(unopened.problems, [])
    XCTAssertEqual(unopened.items.map(\.displayPath), files)
    XCTAssertEqual(unopened.items.map(\.folders), whole.items.map(\.folders))
    XCTAssertEqual(unopened.items.map(\.location), whole.items.map(\.location))
    XCTAssertEqual(unopened.items.map(\.mayBeZip), files.map { _ in true })
  }

  func testWalk_ManySubfolders_LookedAtAhead_SameItemsInOrder() throws {
    // More subfolders than the lookahead keeps ahead (chunks of 16, two ahead), two levels
    // deep, with uploads, a link back to the top (cut), an empty folder and a link to a folder
    // (looked at in place) among them: the items a folder-by-folder walk lists.
    let tree = root + "/wide"
    let manager = FileManager.default
    var expected: [String] = []
    for site in ["s1", "s2"] {
      for number in 0..<40 {
        let folder = "\(site)/P\(String(format: "%03d", number))"
        try manager.createDirectory(atPath: tree + "/" + folder, withIntermediateDirectories: true)
        if number % 13 == 5 {
          try manager.removeItem(atPath: tree + "/" + folder)
          try manager.copyItem(
            atPath: fixturesPath + "/bridge-ruxf-v1", toPath: tree + "/" + folder)
          expected.append(folder)
          continue
        }
        if number == 7 { continue }  // empty
        for file in ["a.json", "b.json"] {
          try Data("{}".utf8).write(to: URL(fileURLWithPath: tree + "/" + folder + "/" + file))
          expected.append(folder + "/" + file)
        }
      }
    }
    try manager.createSymbolicLink(atPath: tree + "/s1/P001/up", withDestinationPath: tree)
    // A link to a folder outside the tree (holding an upload): walked where the link is.
    try manager.createSymbolicLink(atPath: tree + "/s2/zlink", withDestinationPath: root + "/P012")
    expected += ["s2/zlink/upload2"]
    for opensFilesAtImport in [false, true] {
      var walker = InputWalker(roots: [tree])
      walker.opensFilesAtImport = opensFilesAtImport
      let (items, problems) = walker.items()
      XCTAssertEqual(problems, [])
      XCTAssertEqual(items.map(\.displayPath), expected)
      XCTAssertEqual(items.first?.location, .file(path: tree + "/s1/P000/a.json"))
      XCTAssertEqual(
        items.first { $0.displayPath == "s1/P005" }?.location,
        .bridgeFolder(path: tree + "/s1/P005"))
    }
  }

  func testWalk_NamedPipeAmongFiles_ProblemNotOpenedOthersListed() throws {
    // Opening a named pipe for reading waits for a writer: a walk that did so would hang.
    let folder = root + "/pipes"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/a.json"))
    XCTAssertEqual(mkfifo(folder + "/b.archive", 0o644), 0)
    try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/c.json"))
    let (items, problems) = InputWalker(roots: [folder]).items()
    XCTAssertEqual(items.map(\.displayPath), ["a.json", "c.json"])
    XCTAssertEqual(problems.map(\.file), ["b.archive"])
    XCTAssertEqual(
      problems.map(\.reason), ["not a regular file (a named pipe, socket or device); not read"])
  }

  func testWalk_UploadFolderAsRoot_OneItem() {
    let items = InputWalker(roots: [root + "/P012/upload2"]).items().items
    XCTAssertEqual(items.map(\.displayPath), ["upload2"])
    XCTAssertEqual(items.first?.folders, [])
  }

  func testImport_WalkedItems_OutcomesPerFormat() throws {
    let definition = try SurveyDefinitionReader.read(path: root + "/survey/lifestyle.json")
    let importer = InputImporter(options: ImportOptions(surveyDefinitions: [definition]))
    let outcomes = InputWalker(roots: [root]).items().items.map { importer.importItem($0) }
    guard case .imported(let bridge) = outcomes[0] else { return XCTFail("bridge") }
    XCTAssertEqual(bridge.format, .bridgeUpload)
    XCTAssertEqual(bridge.runs.first?.source, "P012/upload2")
    XCTAssertEqual(bridge.runs.first?.taskIdentifier, "SleepSurvey")
    guard case .skipped(.bridgeUpload, let reason) = outcomes[1] else { return XCTFail("2014") }
    XCTAssertTrue(reason.hasPrefix("Bridge upload of 2014 prototype format"), reason)
    guard case .imported(let survey) = outcomes[2] else { return XCTFail("survey") }
    XCTAssertEqual(survey.runs.first?.taskIdentifier, "lifestyle")
    XCTAssertEqual(survey.notes.count, 1)  // the age validation
    guard case .skipped(.unknown, let definitionReason) = outcomes[4] else {
      return XCTFail("definition")
    }
    XCTAssertEqual(
      definitionReason,
      "SurveyNative survey definition, not answers (pass it with --survey-definition)")
  }

  func testImport_NoMatchingDefinition_ReadWithout() throws {
    let other = try SurveyDefinitionReader.read(
      Array(#"{"questions":[{"id":"x","question_type":"year_picker"}]}"#.utf8), fileName: "o.json")
    let options = ImportOptions(
      surveyDefinitions: [SurveyDefinition(definition: other.0, rules: other.1)])
    XCTAssertNil(options.definition(forAnswerIDs: ["ice_cream", "age"]))
    XCTAssertEqual(options.definition(forAnswerIDs: ["x"])?.rules.taskIdentifier, "o")
  }

  func testWalk_MissingRoot_Problem() {
    let (items, problems) = InputWalker(roots: [root + "/nope"]).items()
    XCTAssertEqual(items, [])
    XCTAssertEqual(problems.map(\.reason), ["no such file or folder"])
  }

  func testImport_OversizedFile_FailsUnread() throws {
    let importer = InputImporter(options: ImportOptions(maximumFileSize: 100))
    let item = try XCTUnwrap(
      InputWalker(roots: [root + "/survey/P001/submission-2017-03-01.json"]).items().items.first)
    guard case .failed(_, let error) = importer.importItem(item) else { return XCTFail() }
    XCTAssertTrue(
      error.description.hasPrefix("submission-2017-03-01.json: file is "), error.description)
    XCTAssertTrue(error.description.hasSuffix(" bytes, over the limit of 100 bytes"))
  }
}

final class InputSamplesTests: XCTestCase {
  private let samples =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path + "/samples"

  func testSamples_BridgeUploads_OneRunEach() throws {
    let items = InputWalker(roots: [samples + "/bridge-upload"]).items().items
    XCTAssertEqual(
      items.map(\.displayPath),
      ["P011/upload1.zip", "P012/upload2", "P013/upload3.zip", "README.md"])
    XCTAssertEqual(items.map { $0.folders.first ?? "" }, ["P011", "P012", "P013", ""])
    let outcomes = items.map { InputImporter().importItem($0) }
    let runs = outcomes.compactMap { outcome -> TaskRun? in
      if case .imported(let input) = outcome { return input.runs.first }
      return nil
    }
    XCTAssertEqual(runs.map(\.taskIdentifier), ["DailyPrompt", "SleepCheck", "WeeklyHeart"])
    XCTAssertEqual(runs.map(\.steps.count), [3, 4, 5])
    XCTAssertEqual(
      runs[0].steps[2].results[0].answer,
      .numeric(NumberValue(420), unit: "L/min", displayUnit: nil))
    XCTAssertEqual(runs[1].steps[1].results[0].answer, .scale(NumberValue(7)))
  }

  func testSamples_SurveyNative_ShowIfAndValidation() throws {
    let definition = try SurveyDefinitionReader.read(path: samples + "/surveynative/lifestyle.json")
    let importer = InputImporter(options: ImportOptions(surveyDefinitions: [definition]))
    let items = InputWalker(roots: [samples + "/surveynative"]).items().items
    var byParticipant: [String: (TaskRun, [String])] = [:]
    for item in items {
      if case .imported(let input) = importer.importItem(item), let run = input.runs.first {
        byParticipant[item.folders.first ?? ""] = (run, input.notes)
      }
    }
    let steps = byParticipant.mapValues { $0.0.steps.map(\.identifier) }
    XCTAssertEqual(steps["P021"]?.contains("concerts"), true)  // music_types contains Pop
    XCTAssertEqual(steps["P023"]?.contains("book_first"), false)  // watch_tv = No hides it
    XCTAssertEqual(
      byParticipant["P022"]?.1,
      ["age: answer breaks validation \"greater than 10\" (Age must be at least 10)"])
    let p023 = try XCTUnwrap(byParticipant["P023"]?.0)
    let sports = try XCTUnwrap(p023.steps.first { $0.identifier == "sports" })
    XCTAssertEqual(sports.results.map(\.answer), [.choices([.text("Yes")]), .skipped])
  }
}
