// The XML plist reader: Apple's element set, entities, CF$UID references, and bad input.
import RKModel
import XCTest

@testable import RKImport

final class XMLPlistReaderTests: XCTestCase {
  /// The XML document's top value, read through the keyed-archive layer's generic decoder.
  private func value(_ body: String) throws -> KeyedValue {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      \(body)
      </plist>
      """
    let document = try BPlistDocument(bytes: XMLPlistReader.transcode(Array(xml.utf8)))
    return try plainValue(document, document.topObject)
  }

  /// A direct plist-to-KeyedValue reading, independent of the archive layer.
  private func plainValue(_ document: BPlistDocument, _ ref: Int) throws -> KeyedValue {
    let header = try document.header(ref)
    switch header.type {
    case .string: return .string(document.string(header))
    case .integer, .real: return .number(document.number(header) ?? NumberValue(0))
    case .bool: return .bool(header.info == 9)
    case .date: return .date(Instant(secondsSinceReferenceDate: document.date(header)))
    case .data: return .data(document.data(header))
    case .uid: return .string("UID \(document.uid(header))")
    case .array, .set:
      return .array(
        try (0..<header.count).map { try plainValue(document, document.childRef(header, $0)) })
    case .dictionary:
      return .dictionary(
        try (0..<header.count).map { index in
          let key = try document.string(document.header(document.childRef(header, index)))
          return Field(
            key, try plainValue(document, document.childRef(header, header.count + index)))
        })
    case .null: return .null
    }
  }

  func testScalars_AllElementTypes() throws {
    let result = try value(
      """
      <array>
        <string>a &amp; b &lt;c&gt; &#233;&#x1F642;</string>
        <integer>-42</integer>
        <integer>18446744073709551615</integer>
        <real>2.5</real>
        <true/>
        <false/>
        <date>2016-05-16T19:34:25Z</date>
        <data>
          AQID
          BA==
        </data>
        <string/>
        <dict/>
      </array>
      """)
    // 2016-05-16T19:34:25Z is Unix 1463427265 (date -u -d), minus 978307200.
    XCTAssertEqual(
      result,
      .array([
        .string("a & b <c> é🙂"), .number(NumberValue(-42)),
        .number(
          NumberValue(
            text: "18446744073709551615", double: 18_446_744_073_709_551_616, isInteger: false)),
        .number(NumberValue(2.5)), .bool(true), .bool(false),
        .date(Instant(secondsSinceReferenceDate: 485_120_065)), .data([1, 2, 3, 4]),
        .string(""), .dictionary([]),
      ]))
  }

  func testCFUID_BecomesUID() throws {
    let result = try value("<dict><key>CF$UID</key><integer>7</integer></dict>")
    XCTAssertEqual(result, .string("UID 7"))
  }

  func testCommentsAndCDATA_Handled() throws {
    let result = try value("<!-- note --><string><![CDATA[<raw> & text]]></string>")
    XCTAssertEqual(result, .string("<raw> & text"))
  }

  func testDeepNesting_TenThousandArrays_FailsCleanly() {
    let xml =
      "<plist>" + String(repeating: "<array>", count: 10_000)
      + String(repeating: "</array>", count: 10_000) + "</plist>"
    XCTAssertThrowsError(try XMLPlistReader.transcode(Array(xml.utf8))) { error in
      XCTAssertTrue((error as? ImportError)?.reason.contains("nesting deeper than 256") == true)
    }
  }

  func testDate_TimeFieldsOutsideAClock_ReadAsBefore() throws {
    // Only overflow is refused: an hour of 25 is the next day's first hour, as it was read.
    XCTAssertEqual(
      PlistDate.parseXMLDate("2016-05-16T25:00:00Z"), PlistDate.parseXMLDate("2016-05-17T01:00:00Z")
    )
    XCTAssertEqual(PlistDate.parseXMLDate("2001-01-01T00:00:00Z"), 0)
  }

  func testMalformed_EachFailsWithReason() {
    let cases = [
      ("<plist><string>open</plist>", "expected </string>"),
      ("<plist><integer>12x</integer></plist>", "invalid integer"),
      ("<plist><date>yesterday</date></plist>", "invalid date"),
      // Time fields that overflow when summed (found by fuzzing: they trapped).
      ("<plist><date>1-1-1T2562047788015216:0:0Z</date></plist>", "invalid date"),
      ("<plist><date>1-1-1T0:0:9223372036854775807Z</date></plist>", "invalid date"),
      ("<plist><data>*</data></plist>", "invalid base64"),
      ("<plist><dict><string>k</string></dict></plist>", "expected <key>"),
      ("<plist><blob/></plist>", "unknown element <blob>"),
      ("<plist><string>&bogus;</string></plist>", "unknown entity"),
    ]
    for (xml, fragment) in cases {
      XCTAssertThrowsError(try XMLPlistReader.transcode(Array(xml.utf8)), xml) { error in
        XCTAssertTrue((error as? ImportError)?.reason.contains(fragment) == true, "\(error)")
      }
    }
  }

  func testCorelibsXMLFixture_SameAsPythonPlistlib() throws {
    // plistlib: $objects = ['$null', {NS.keys…}, 'notification-name', …] (9 objects).
    let bytes = try corelibsFixture("NSKeyedUnarchiver-NotificationTest.plist")
    let document = try BPlistDocument(bytes: XMLPlistReader.transcode(bytes))
    guard case .dictionary(let top) = try plainValue(document, document.topObject),
      case .array(let objects)? = top.first(where: { $0.name == "$objects" })?.value
    else { return XCTFail("no $objects") }
    XCTAssertEqual(objects.count, 9)
    XCTAssertEqual(objects[2], .string("notification-name"))
  }
}
