// Archives written by Foundation's own NSKeyedArchiver (swift-corelibs on Linux): an
// independent writer for the ResearchKit decoding path.
import Foundation
import RKModel
import XCTest

@testable import RKImport

/// Stand-ins for ResearchKit classes: they write the keys ResearchKit's encodeWithCoder: writes.
class ArchiverStubResult: NSObject, NSCoding {
  let identifier: String
  let start = NSDate(timeIntervalSinceReferenceDate: 485_124_865.5)
  init(identifier: String) { self.identifier = identifier }
  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(identifier as NSString, forKey: "identifier")
    coder.encode(start, forKey: "startDate")
    coder.encode(start.addingTimeInterval(1.25), forKey: "endDate")
    coder.encode(nil as NSDictionary?, forKey: "userInfo")
  }
}

final class ArchiverStubChoice: ArchiverStubResult {
  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(3, forKey: "questionType")
    coder.encode(["red", 2] as NSArray, forKey: "choiceAnswers")
  }
}

final class ArchiverStubBoolean: ArchiverStubResult {
  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(7, forKey: "questionType")
    coder.encode(NSNumber(value: true), forKey: "typedAnswerOrNoAnswer")
  }
}

final class ArchiverStubStep: ArchiverStubResult {
  var results: [ArchiverStubResult] = []
  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(results as NSArray, forKey: "results")
  }
}

final class ArchiverStubTask: ArchiverStubResult {
  var steps: [ArchiverStubStep] = []
  let uuid = NSUUID(uuidString: "59C6293B-5560-4E37-8FB8-77B3176C8398")
  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(steps as NSArray, forKey: "results")
    coder.encode(uuid, forKey: "taskRunUUID")
  }
}

final class ResearchKitFoundationArchiverTests: XCTestCase {
  /// corelibs' `setClassName(_:for:)` does not rename Swift classes, so Python's plistlib (a
  /// third, independent plist writer) renames the stubs to the ResearchKit class names.
  private func renamingClasses(_ data: Data) throws -> [UInt8] {
    let path = NSTemporaryDirectory() + "stub-\(UUID().uuidString).plist"
    try data.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = """
      import plistlib,sys
      names={'ArchiverStubTask':'ORKTaskResult','ArchiverStubStep':'ORKStepResult',
        'ArchiverStubChoice':'ORKChoiceQuestionResult','ArchiverStubBoolean':'ORKBooleanQuestionResult'}
      def fix(s): return names.get(s.split('.')[-1], s)
      d=plistlib.load(open(sys.argv[1],'rb'))
      for o in d['$objects']:
        if isinstance(o,dict) and '$classname' in o:
          o['$classname']=fix(o['$classname']); o['$classes']=[fix(c) for c in o['$classes']]
      plistlib.dump(d,open(sys.argv[1],'wb'),fmt=plistlib.FMT_BINARY)
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func testLinuxNSKeyedArchiver_TaskWithChoiceAndBoolean() throws {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    let step = ArchiverStubStep(identifier: "form")
    step.results = [ArchiverStubChoice(identifier: "color"), ArchiverStubBoolean(identifier: "ok")]
    let task = ArchiverStubTask(identifier: "survey")
    task.steps = [step]
    archiver.encode(task, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    let data = try renamingClasses(archiver.encodedData)

    let runs = try KeyedArchiveImporter.importRuns(from: data)
    XCTAssertEqual(runs.count, 1)
    let run = try XCTUnwrap(runs.first)
    XCTAssertEqual(run.taskIdentifier, "survey")
    XCTAssertEqual(run.runUUID, "59C6293B-5560-4E37-8FB8-77B3176C8398")
    XCTAssertEqual(run.startDate, Instant(secondsSinceReferenceDate: 485_124_865.5))
    XCTAssertEqual(run.steps.map(\.identifier), ["form"])
    let results = run.steps[0].results
    XCTAssertEqual(results.map(\.identifier), ["color", "ok"])
    XCTAssertEqual(results[0].answer, .choices([.text("red"), .number(NumberValue(2))]))
    XCTAssertEqual(results[0].questionType, 3)
    XCTAssertEqual(results[1].answer, .boolean(true))
    XCTAssertEqual(results[1].durationSeconds, 1.25)
    XCTAssertEqual(results[1].extra, [])
  }
}
