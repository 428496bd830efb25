// ResearchKit task/step structure, dates and numbering, location, file and generic results.
import RKModel
import XCTest

@testable import RKImport

final class ResearchKitTaskTests: XCTestCase {
  func testTask_UUIDDeviceOutputDirectoryUserInfo() throws {
    let rk = ResearchKitArchive()
    let b = rk.builder
    let uuid = b.object(
      "NSUUID",
      [
        (
          "NS.uuidbytes",
          .data([
            0x59, 0xC6, 0x29, 0x3B, 0x55, 0x60, 0x4E, 0x37,
            0x8F, 0xB8, 0x77, 0xB3, 0x17, 0x6C, 0x83, 0x98,
          ])
        )
      ])
    let device = b.object(
      "ORKDevice",
      [
        ("product", .uid(b.string("iPhone15,2"))), ("platform", .uid(b.string("iOS"))),
        ("osVersion", .uid(b.string("17.4"))), ("osBuild", .uid(b.string("21E219"))),
      ])
    let info = b.object(
      "NSDictionary",
      [("NS.keys", .uids([b.string("site")])), ("NS.objects", .uids([b.string("A")]))])
    let step = rk.step("intro", [], [("enabledAssistiveTechnology", .uid(b.string("VoiceOver")))])
    let root = rk.task(
      "survey", [step], userInfo: info,
      [
        ("taskRunUUID", .uid(uuid)), ("device", .uid(device)),
        ("outputDirectory", .uid(b.string("Library/Application%20Support/59C6293B"))),
      ])
    let run = try XCTUnwrap(
      KeyedArchiveImporter.importRuns(from: b.bytes(root: root)).first)
    XCTAssertEqual(run.taskIdentifier, "survey")
    XCTAssertEqual(run.runUUID, "59C6293B-5560-4E37-8FB8-77B3176C8398")
    XCTAssertEqual(
      run.device,
      DeviceInfo(product: "iPhone15,2", platform: "iOS", osVersion: "17.4", osBuild: "21E219"))
    XCTAssertEqual(
      run.metadata,
      [
        Field("outputDirectory", .string("Library/Application Support/59C6293B")),
        Field("userInfo.site", .string("A")),
      ])
    XCTAssertEqual(run.steps.map(\.identifier), ["intro"])
    XCTAssertEqual(run.steps[0].extra, [Field("enabledAssistiveTechnology", .string("VoiceOver"))])
    XCTAssertEqual(run.participantID, "")
    XCTAssertEqual(run.source, "")
  }

  func testRootArray_TwoRuns_InOrder() throws {
    let rk = ResearchKitArchive()
    let first = rk.task("a", [])
    let second = rk.task("b", [])
    let runs = try KeyedArchiveImporter.importRuns(
      from: rk.builder.bytes(root: rk.builder.array([first, second])))
    XCTAssertEqual(runs.map(\.taskIdentifier), ["a", "b"])
  }

  // MARK: - Date-only inference (formats.md §3.3)

  private func dateRecords(
    _ dateType: Int64, evidence: [(String, Int64)], typed: Bool = false
  ) throws -> DateAnswer? {
    let rk = ResearchKitArchive()
    let b = rk.builder
    let calendar = b.object("NSCalendar", [("NS.identifier", .uid(b.string("gregorian")))])
    let zone = b.object("NSTimeZone", [("NS.name", .uid(b.string("America/Los_Angeles")))])
    var results = [
      rk.result(
        "ORKDateQuestionResult", id: "d",
        [
          ("questionType", .int(dateType)),
          (typed ? "typedAnswerOrNoAnswer" : "dateAnswer", .uid(b.date(1000))),
          ("calendar", .uid(calendar)), ("timeZone", .uid(zone)),
        ])
    ]
    for (className, type) in evidence {
      results.append(rk.result(className, id: "e", [("questionType", .int(type))]))
    }
    guard case .date(let date)? = try rk.runs(results).first?.steps.first?.results.first?.answer
    else { return nil }
    return date
  }

  func testDate_ZoneAndCalendarKept() throws {
    let date = try dateRecords(10, evidence: [])
    XCTAssertEqual(date?.instant, Instant(secondsSinceReferenceDate: 1000))
    XCTAssertEqual(date?.timeZone, TimeZoneInfo(name: "America/Los_Angeles"))
    XCTAssertEqual(date?.calendar, "gregorian")
  }

  func testDate_Type10WithoutEvidence_Unknown() throws {
    XCTAssertNil(try dateRecords(10, evidence: [])?.isDateOnly)
  }

  func testDate_Type10WithOldBoolean6_DateOnly() throws {
    XCTAssertEqual(
      try dateRecords(10, evidence: [("ORKBooleanQuestionResult", 6)])?.isDateOnly, true)
  }

  func testDate_Type10WithNewBoolean7_DateAndTime() throws {
    XCTAssertEqual(
      try dateRecords(10, evidence: [("ORKBooleanQuestionResult", 7)])?.isDateOnly, false)
  }

  func testDate_Type11Typed_DateOnly() throws {
    XCTAssertEqual(try dateRecords(11, evidence: [], typed: true)?.isDateOnly, true)
  }

  func testDate_Type9_OldNumberingSelfEvident_DateAndTime() throws {
    XCTAssertEqual(try dateRecords(9, evidence: [])?.isDateOnly, false)
  }

  func testDate_ConflictingEvidence_Unknown() throws {
    let evidence = [("ORKBooleanQuestionResult", Int64(6)), ("ORKTextQuestionResult", Int64(8))]
    XCTAssertNil(try dateRecords(10, evidence: evidence)?.isDateOnly)
  }

  // MARK: - Location, file and generic results

  func testLocation_PostalAddressAndRegion() throws {
    let rk = ResearchKitArchive()
    let b = rk.builder
    let address = b.object(
      "CNPostalAddress",
      [
        ("_street", .uid(b.string("1 Infinite Loop"))), ("_city", .uid(b.string("Cupertino"))),
        ("_state", .uid(b.string("CA"))), ("_subLocality", .uid(0)),
      ])
    let location = b.object(
      "ORKLocation",
      [
        ("coordinate.latitude", .real(37.33)), ("coordinate.longitude", .real(-122.03)),
        ("userInput", .uid(b.string("apple"))), ("postalAddress", .uid(address)),
        ("region.radius", .uid(b.inline(.real(100)))),
        ("region.identifier", .uid(b.string("r1"))),
      ])
    let record = try rk.only(
      rk.result("ORKLocationQuestionResult", id: "where", [("locationAnswer", .uid(location))]))
    guard case .location(let answer) = record.answer else { return XCTFail("\(record.answer)") }
    XCTAssertEqual(answer.latitude, 37.33)
    XCTAssertEqual(answer.longitude, -122.03)
    XCTAssertEqual(answer.userInput, "apple")
    XCTAssertEqual(answer.address, "1 Infinite Loop, Cupertino, CA")
    XCTAssertEqual(answer.regionRadius, 100)
    XCTAssertEqual(answer.regionIdentifier, "r1")
    XCTAssertEqual(answer.addressFields.map(\.name), ["street", "city", "state"])
  }

  func testFile_RelativeAbsoluteAndNSURL_PercentDecoded() throws {
    let rk = ResearchKitArchive()
    let b = rk.builder
    let chain = ["ORKResult", "NSObject"]
    let relative = rk.result(
      "ORKFileResult", chain: chain, id: "a",
      [
        ("fileURL", .uid(b.string("Library/Application%20Support/rec/audio_1.m4a"))),
        ("contentType", .uid(b.string("audio/mp4"))),
      ])
    let absolute = rk.result(
      "ORKFileResult", chain: chain, id: "b",
      [("fileURL", .uid(b.string("file:///var/mobile/x%C3%A9.json")))])
    let url = b.object(
      "NSURL", [("NS.base", .uid(0)), ("NS.relative", .uid(b.string("file:///tmp/a%20b")))])
    let old = rk.result("ORKFileResult", chain: chain, id: "c", [("fileURL", .uid(url))])
    let records = try XCTUnwrap(rk.runs([relative, absolute, old]).first?.steps.first?.results)
    XCTAssertEqual(
      records.map(\.answer),
      [
        .file(
          FileAnswer(path: "Library/Application Support/rec/audio_1.m4a", contentType: "audio/mp4")),
        .file(FileAnswer(path: "/var/mobile/xé.json")), .file(FileAnswer(path: "/tmp/a b")),
      ])
  }

  func testGenericResult_TappingKeepsEveryKey() throws {
    let rk = ResearchKitArchive()
    let b = rk.builder
    let sample = b.object(
      "ORKTappingSample",
      [
        ("timestamp", .real(0.5)), ("buttonIdentifier", .int(1)),
        ("location", .uid(b.string("{99, 518.5}"))),
      ])
    let record = try rk.only(
      rk.result(
        "ORKTappingIntervalResult", chain: ["ORKResult", "NSObject"], id: "tap",
        [
          ("samples", .uid(b.array([sample]))),
          ("stepViewSize", .uid(b.string("{375, 603}"))),
        ]))
    XCTAssertEqual(record.answerType, .other)
    XCTAssertEqual(
      record.answer,
      .fields([
        Field(
          "samples",
          .array([
            .object(
              className: "ORKTappingSample",
              fields: [
                Field("timestamp", .number(NumberValue(0.5))),
                Field("buttonIdentifier", .number(NumberValue(1))),
                Field("location", .string("{99, 518.5}")),
              ])
          ])),
        Field("stepViewSize", .string("{375, 603}")),
      ]))
  }
}
