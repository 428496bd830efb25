// CXLSXCells replaces libxlsxwriter's per-cell and per-row helpers under their own names. Each
// is called here directly (this test binary links ours) and compared with the library's own
// definition, found with dlsym in the loaded library.
import CXLSXWriter
import Foundation
import XCTest

final class XLSXCellHelpersTests: XCTestCase {
  private typealias CellName = @convention(c) (UnsafeMutablePointer<CChar>?, UInt32, UInt16) -> Void
  private typealias Escape = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?

  /// The library's own definitions.
  private struct Library {
    let handle: UnsafeMutableRawPointer

    init() throws {
      // The loaded libxlsxwriter, whatever its soname, as the process maps it.
      // (Read to its end: /proc files report no size.)
      let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
      defer { try? file.close() }
      let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
      let path = try XCTUnwrap(
        maps.split(separator: "\n").lazy.compactMap { line in
          line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
        }.first { ($0 as NSString).lastPathComponent.hasPrefix("libxlsxwriter.so") },
        "libxlsxwriter is mapped")
      handle = try XCTUnwrap(dlopen(path, RTLD_NOW | RTLD_NOLOAD), "\(path) is loaded")
    }

    func symbol<T>(_ name: String, as type: T.Type) throws -> T {
      unsafeBitCast(try XCTUnwrap(dlsym(handle, name), name), to: type)
    }

    /// The address the process (and the library's PLT) resolves `name` to.
    func resolved(_ name: String) -> UnsafeMutableRawPointer? {
      dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)
    }

    func own(_ name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }
  }

  private static let replaced = [
    "lxw_rowcol_to_cell", "lxw_has_control_characters", "lxw_escape_data",
    "lxw_new_attribute_str", "lxw_new_attribute_int", "lxw_xml_start_tag", "lxw_xml_empty_tag",
    "lxw_xml_end_tag", "lxw_utf8_strlen",
  ]

  func testOurDefinitions_ComeBeforeTheLibrarys() throws {
    let library = try Library()
    for name in Self.replaced {
      let resolved = try XCTUnwrap(library.resolved(name), name)
      let own = try XCTUnwrap(library.own(name), name)
      XCTAssertNotEqual(resolved, own, "\(name): the process calls CXLSXCells', not the library's")
    }
  }

  func testCellName_SameTextAsTheLibrary() throws {
    let theirs = try Library().symbol("lxw_rowcol_to_cell", as: CellName.self)
    var rows = Array(UInt32(0)...2_100)
    rows += [9, 99, 999, 9_999, 99_999, 999_999, 1_048_574, 1_048_575, 1_048_576]
    // Beyond the sheet (the library checks before it asks): int wrap-around and snprintf's cut.
    rows += [9_999_998, 99_999_999, 2_147_483_646, 2_147_483_647, .max - 1, .max]
    var columns = Array(UInt16(0)...800)
    columns += [701, 702, 703, 18_277, 18_278, 16_383, 16_384, 65_534, 65_535]
    var compared = 0
    for row in rows {
      for column in (row < 60 ? columns : [0, 1, 25, 26, 27, 16_383, 65_535]) {
        let ours = Self.cellName(row, column, lxw_rowcol_to_cell)
        let expected = Self.cellName(row, column, theirs)
        if ours != expected {
          XCTFail("row \(row), column \(column): \(ours) against the library's \(expected)")
          return
        }
        compared += 1
      }
    }
    XCTAssertGreaterThan(compared, 60_000)
    XCTAssertEqual(Self.cellName(0, 0, lxw_rowcol_to_cell), "A1")
    XCTAssertEqual(Self.cellName(1_048_575, 16_383, lxw_rowcol_to_cell), "XFD1048576")
    XCTAssertEqual(Self.cellName(26, 26, lxw_rowcol_to_cell), "AA27")
  }

  func testEscapeData_SameTextAsTheLibrary() throws {
    let theirs = try Library().symbol("lxw_escape_data", as: Escape.self)
    for text in Self.texts {
      let ours = try Self.escaped(text, lxw_escape_data)
      XCTAssertEqual(ours, try Self.escaped(text, theirs), text.debugDescription)
    }
    XCTAssertEqual(
      try Self.escaped("a & <b> \"c\"", lxw_escape_data), "a &amp; &lt;b&gt; \"c\"")
  }

  /// What the library stores for a string cell: `lxw_escape_control_characters` when
  /// `lxw_has_control_characters` says so, else `lxw_strdup`, the same bytes. (Before 1.1.9
  /// the library's own check says so for every string.)
  func testControlCharacters_StoredTextAsTheLibraryEscapesIt() throws {
    let library = try Library()
    let escapeControls = try library.symbol("lxw_escape_control_characters", as: Escape.self)
    for text in Self.texts {
      let escaped = try Self.escaped(text, escapeControls)
      let stored = lxw_has_control_characters(text) == 1 ? escaped : text
      XCTAssertEqual(stored, escaped, text.debugDescription)
    }
    XCTAssertEqual(lxw_has_control_characters(""), 0)
    XCTAssertEqual(lxw_has_control_characters("tab\tand\nnewline, Zürich"), 0)
    XCTAssertEqual(lxw_has_control_characters("delete \u{7F}"), 0)
    XCTAssertEqual(lxw_has_control_characters("carriage\rreturn"), 1)
    XCTAssertEqual(lxw_has_control_characters("unit \u{1F}"), 1)
    XCTAssertEqual(lxw_has_control_characters("\u{01}"), 1)
    XCTAssertEqual(lxw_has_control_characters("sixteen bytes ok\u{02}"), 1)
    XCTAssertEqual(lxw_has_control_characters("\t\n\t\n\t\n\t\n\t\n\t\n\t\n\t\n"), 0)
  }

  func testUTF8Length_SameCountAsTheLibrary() throws {
    let theirs = try Library().symbol("lxw_utf8_strlen", as: Length.self)
    var samples = Self.texts.map { Array($0.utf8) }
    // Every byte value (but NUL) at every place of a string longer than two words, and runs
    // of continuation bytes across word edges: the library counts bytes, valid UTF-8 or not.
    for byte in UInt8(1)...255 {
      for place in [0, 5, 7, 8, 15, 16, 20] {
        var bytes = Array("abcdefghijklmnopqrstu".utf8)
        bytes[place] = byte
        samples.append(bytes)
      }
    }
    samples.append(Array(repeating: 0x80, count: 37))
    samples.append(Array("é🙂東".utf8) + Array(repeating: 0xBF, count: 9))
    for bytes in samples {
      let text = bytes.map { CChar(bitPattern: $0) } + [0]
      let expected = text.withUnsafeBufferPointer { theirs($0.baseAddress) }
      XCTAssertEqual(text.withUnsafeBufferPointer { lxw_utf8_strlen($0.baseAddress) }, expected)
    }
    XCTAssertEqual(lxw_utf8_strlen("Zürich 東京 🙂"), 11)
  }

  func testAttributes_SameKeyAndValueAsTheLibrary() throws {
    let library = try Library()
    let theirText = try library.symbol("lxw_new_attribute_str", as: NewText.self)
    let theirInteger = try library.symbol("lxw_new_attribute_int", as: NewInteger.self)
    let long = String(repeating: "0123456789", count: 300)  // cut at 2,079 bytes
    for (key, value) in [("r", "1"), ("spans", "1:12"), ("", ""), (long, long), ("v", "a&<>\"")] {
      let ours = try XCTUnwrap(lxw_new_attribute_str(key, value))
      let theirs = try XCTUnwrap(theirText(key, value))
      defer {
        free(ours)
        free(theirs)
      }
      XCTAssertEqual(Self.texts(of: ours).key, Self.texts(of: theirs).key)
      XCTAssertEqual(Self.texts(of: ours).value, Self.texts(of: theirs).value)
    }
    let cut = try XCTUnwrap(lxw_new_attribute_str("k", long))
    defer { free(cut) }
    XCTAssertEqual(Self.texts(of: cut).value.count, 2_079)
    let integers: [UInt32] = [0, 1, 9, 10, 99, 100, 1_048_576, 2_147_483_647, 2_147_483_648, .max]
    for value in integers {
      let ours = try XCTUnwrap(lxw_new_attribute_int("r", value))
      let theirs = try XCTUnwrap(theirInteger("r", value))
      defer {
        free(ours)
        free(theirs)
      }
      XCTAssertEqual(Self.texts(of: ours).value, Self.texts(of: theirs).value, "\(value)")
      XCTAssertEqual(Self.texts(of: ours).key, "r")
    }
  }

  func testTags_SameBytesAsTheLibrary() throws {
    let library = try Library()
    let theirStart = try library.symbol("lxw_xml_start_tag", as: Tag.self)
    let theirEmpty = try library.symbol("lxw_xml_empty_tag", as: Tag.self)
    let theirEnd = try library.symbol("lxw_xml_end_tag", as: EndTag.self)
    let lists: [[(String, String)]?] = [
      nil, [], [("r", "1")],
      [("r", "1048576"), ("spans", "1:12"), ("s", "3"), ("customFormat", "1")],
      [("quoted", "a & b < c > d \" e \n f ' g \t h"), ("plain", "x")],
      [("escapes", "&&<<>>\"\"\n\n")], [("long", String(repeating: "&x", count: 900))],
    ]
    var compared = 0
    for list in lists {
      for tag in ["row", "c", "x14ac:sparklineGroup"] {
        let ours = try Self.written { file in
          try Self.withAttributes(list) { lxw_xml_start_tag(file, tag, $0) }
          try Self.withAttributes(list) { lxw_xml_empty_tag(file, tag, $0) }
          lxw_xml_end_tag(file, tag)
        }
        let theirs = try Self.written { file in
          try Self.withAttributes(list) { theirStart(file, tag, $0) }
          try Self.withAttributes(list) { theirEmpty(file, tag, $0) }
          theirEnd(file, tag)
        }
        XCTAssertEqual(ours, theirs, "\(tag) \(String(describing: list))")
        compared += 1
      }
    }
    XCTAssertEqual(compared, 21)
    let sample = try Self.written { file in
      try Self.withAttributes([("r", "7"), ("t", "a\"b")]) { lxw_xml_start_tag(file, "row", $0) }
      lxw_xml_end_tag(file, "row")
    }
    XCTAssertEqual(sample, #"<row r="7" t="a&quot;b"></row>"#)
  }

  // MARK: - Helpers

  private typealias NewText =
    @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<
      xml_attribute
    >?
  private typealias NewInteger =
    @convention(c) (UnsafePointer<CChar>?, UInt32) -> UnsafeMutablePointer<xml_attribute>?
  private typealias Length = @convention(c) (UnsafePointer<CChar>?) -> Int
  private typealias Tag =
    @convention(c) (
      UnsafeMutablePointer<FILE>?, UnsafePointer<CChar>?, UnsafeMutablePointer<xml_attribute_list>?
    ) -> Void
  private typealias EndTag =
    @convention(c) (UnsafeMutablePointer<FILE>?, UnsafePointer<CChar>?) -> Void

  private static func texts(of attribute: UnsafeMutablePointer<xml_attribute>) -> (
    key: String, value: String
  ) {
    func text<T>(_ field: UnsafeMutablePointer<T>) -> String {
      UnsafeRawPointer(field).withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
    }
    return (text(&attribute.pointee.key), text(&attribute.pointee.value))
  }

  /// An attribute list as the library's LXW_PUSH_ATTRIBUTES macros build it (nil: no list),
  /// made with our `lxw_new_attribute_str`, freed afterwards.
  private static func withAttributes(
    _ pairs: [(String, String)]?, _ body: (UnsafeMutablePointer<xml_attribute_list>?) -> Void
  ) throws {
    guard let pairs else { return body(nil) }
    let attributes = try pairs.map { try XCTUnwrap(lxw_new_attribute_str($0.0, $0.1)) }
    let list = UnsafeMutablePointer<xml_attribute_list>.allocate(capacity: 1)
    defer {
      for attribute in attributes { free(attribute) }
      list.deallocate()
    }
    // The writers follow `stqh_first` and each `stqe_next`; only insertion reads `stqh_last`.
    list.initialize(to: xml_attribute_list(stqh_first: attributes.first, stqh_last: nil))
    for (index, attribute) in attributes.enumerated() {
      attribute.pointee.list_entries.stqe_next =
        index + 1 < attributes.count ? attributes[index + 1] : nil
    }
    body(list)
  }

  /// What `write` writes to a stdio stream.
  private static func written(_ write: (UnsafeMutablePointer<FILE>) throws -> Void) throws
    -> String
  {
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    let file = try XCTUnwrap(open_memstream(&buffer, &size))
    try write(file)
    fclose(file)
    defer { free(buffer) }
    guard let buffer else { return "" }
    return String(
      decoding: UnsafeRawBufferPointer(start: buffer, count: size), as: UTF8.self)
  }

  /// Strings as cells hold them: plain, XML's three characters, every control character but
  /// NUL, white space at either end, UTF-8, long.
  private static let texts: [String] = {
    var texts = [
      "", "plain", "a&b", "<tag>", "&&&", "x>y<z", "&amp;", " leading", "trailing ",
      "Zürich & 東京 < 🙂", "quote \" apostrophe '", "_x0001_ already escaped",
    ]
    texts += (1..<32).map { "before\(String(UnicodeScalar(UInt8($0))))after" }
    // A control character, a tab or a newline at every place of a string longer than two
    // words (the check reads eight bytes at a time).
    let plain = Array("abcdefghijklmnopqrstu")
    for place in plain.indices {
      for mark: Character in ["\u{01}", "\u{1F}", "\t", "\n", "\r", "é"] {
        var characters = plain
        characters[place] = mark
        texts.append(String(characters))
      }
    }
    texts.append(String(repeating: "a&<>b", count: 3_000))
    texts.append(String(repeating: "x", count: 32_767))
    return texts
  }()

  private static func cellName(
    _ row: UInt32, _ column: UInt16,
    _ write: (UnsafeMutablePointer<CChar>?, UInt32, UInt16) -> Void
  ) -> String {
    var buffer = [CChar](repeating: 0, count: 32)
    buffer.withUnsafeMutableBufferPointer { write($0.baseAddress, row, column) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func escaped(
    _ text: String, _ escape: (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
  ) throws -> String {
    let result = try XCTUnwrap(text.withCString { escape($0) })
    defer { free(result) }
    return String(cString: result)
  }
}
