// The binary plist reader: every object type, and hostile files that must fail cleanly.
import RKModel
import RKTestSupport
import XCTest

@testable import RKImport

final class BPlistDocumentTests: XCTestCase {
  private func top(_ objects: [PlistObject], top: Int = 0) throws -> (
    BPlistDocument, PlistObjectHeader
  ) {
    let document = try BPlistDocument(bytes: BPlistWriter.write(objects, top: top))
    return (document, try document.header(document.topObject))
  }

  func testIntegers_AllWidths_ExactText() throws {
    let values: [(PlistObject, String)] = [
      (.integer(7), "7"), (.integer(300), "300"), (.integer(70_000), "70000"),
      (.integer(5_000_000_000), "5000000000"), (.integer(-1), "-1"),
      (.unsignedInteger(UInt64.max), "18446744073709551615"),
    ]
    for (object, text) in values {
      let (document, header) = try top([object])
      XCTAssertEqual(document.number(header)?.text, text)
    }
  }

  func testUnsignedAboveInt64_NotMarkedInteger() throws {
    let (document, header) = try top([.unsignedInteger(UInt64.max)])
    XCTAssertEqual(document.number(header)?.isInteger, false)
  }

  func testFloat32_TextIsShortestFloatForm() throws {
    // Hand-built: marker 0x22 then 1.1 as a big-endian Float (0x3F8CCCCD).
    var bytes = Array("bplist00".utf8) + [0x22, 0x3F, 0x8C, 0xCC, 0xCD]
    bytes += [8]  // offset table: object 0 at byte 8
    bytes += [0, 0, 0, 0, 0, 0, 1, 1] + be(1) + be(0) + be(13)
    let document = try BPlistDocument(bytes: bytes)
    XCTAssertEqual(document.number(try document.header(0))?.text, "1.1")
  }

  private func be(_ value: UInt64) -> [UInt8] {
    (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) }
  }

  func testStrings_ASCIIAndUTF16_Decoded() throws {
    let (document, header) = try top([.string("Grüße 🙂")])
    XCTAssertTrue(header.isUTF16)
    XCTAssertEqual(document.string(header), "Grüße 🙂")
    XCTAssertTrue(document.string(header, equals: "Grüße 🙂"))
    let (ascii, asciiHeader) = try top([.string(String(repeating: "x", count: 40))])
    XCTAssertEqual(ascii.string(asciiHeader).count, 40)
  }

  func testUTF16Strings_AnyUnits_SameAsStandardLibraryDecoding() throws {
    // Hand-built strings of random units, mostly around the surrogate ranges, including
    // unpaired and reversed surrogates: each must decode as `String(decoding:as:)` does.
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
    let interesting: [UInt16] = [
      0x41, 0xE9, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF,
    ]
    for trial in 0..<500 {
      let count = trial == 0 ? 0 : Int(next() % 40) + 1
      let units: [UInt16] = (0..<count).map { _ in
        let pick = next()
        return pick & 1 == 0
          ? interesting[Int(pick >> 1) % interesting.count] : UInt16(truncatingIfNeeded: pick >> 8)
      }
      // Marker 0x6F, the unit count as a two-byte integer object, the big-endian units.
      var bytes = Array("bplist00".utf8) + [0x6F, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)]
      for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
      let tableOffset = bytes.count
      bytes += [8]
      bytes += [0, 0, 0, 0, 0, 0, 1, 1] + be(1) + be(0) + be(UInt64(tableOffset))
      let document = try BPlistDocument(bytes: bytes)
      let header = try document.header(0)
      XCTAssertTrue(header.isUTF16 || count == 0)
      XCTAssertEqual(
        Array(document.string(header).utf8), Array(String(decoding: units, as: UTF16.self).utf8),
        "units \(units.map { String($0, radix: 16) })")
    }
  }

  func testScalars_DateDataUIDBoolReal() throws {
    let objects: [PlistObject] = [
      .array([1, 2, 3, 4, 5]), .date(485_124_865.5), .data([1, 2, 3]), .uid(300), .bool(true),
      .real(-2.25),
    ]
    let (document, array) = try top(objects)
    let headers = try (0..<5).map { try document.header(document.childRef(array, $0)) }
    XCTAssertEqual(document.date(headers[0]), 485_124_865.5)
    XCTAssertEqual(document.data(headers[1]), [1, 2, 3])
    XCTAssertEqual(document.uid(headers[2]), 300)
    XCTAssertEqual(document.number(headers[3])?.text, "1")
    XCTAssertEqual(document.number(headers[4])?.text, "-2.25")
  }

  func testDictionary_KeysThenValues() throws {
    let (document, header) = try top([
      .dictionary(keys: [1], values: [2]), .string("k"), .integer(9),
    ])
    XCTAssertEqual(header.count, 1)
    XCTAssertTrue(document.string(try document.header(document.childRef(header, 0)), equals: "k"))
    XCTAssertEqual(try document.number(document.header(document.childRef(header, 1)))?.text, "9")
  }

  // MARK: - Hostile input

  private func assertFails(
    _ bytes: [UInt8], _ fragment: String, line: UInt = #line
  ) {
    do {
      _ = try KeyedArchiveImporter.importRuns(from: bytes)
      XCTFail("expected an error", line: line)
    } catch let error as ImportError {
      XCTAssertTrue(error.message.contains(fragment), error.message, line: line)
    } catch {
      XCTFail("unexpected \(error)", line: line)
    }
  }

  private var validArchive: [UInt8] {
    let builder = ArchiveBuilder()
    return builder.bytes(root: builder.array([builder.string("a")]))
  }

  /// References, offsets and integers are read with one eight-byte load (the trailer follows
  /// them all): every size at every offset, up to the buffer's last eight bytes, reads what
  /// assembling the bytes one by one reads.
  func testBigEndianReads_EverySizeAndOffset_MatchBytewiseReading() {
    var random = SplitMix(seed: 0xB16_E11D)
    let bytes = (0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    bytes.withUnsafeBufferPointer { buffer in
      for size in 1...8 {
        for offset in 0...(bytes.count - 8) {
          let expected = bytes[offset..<(offset + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
          XCTAssertEqual(
            BPlistDocument.readBigEndian(buffer.baseAddress!, at: offset, size), expected,
            "size \(size) at \(offset)")
          XCTAssertEqual(
            BPlistDocument.bigEndian(bytes, at: offset, size: size), expected,
            "size \(size) at \(offset)")
        }
      }
    }
  }

  /// A UID marker may claim up to 16 bytes (0x8F): its last eight are the value, read without
  /// a trap (the one-load read takes at most eight).
  func testSixteenByteUID_ReadsItsLastEightBytes() throws {
    let payload: [UInt8] = [0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA, 0x99, 0x88] + (1...8).map { $0 }
    var bytes = Array("bplist00".utf8) + [0x8F] + payload
    bytes += [8] + [0, 0, 0, 0, 0, 0, 1, 1] + be(1) + be(0) + be(25)
    let document = try BPlistDocument(bytes: bytes)
    let header = try document.header(0)
    XCTAssertEqual(header.type, .uid)
    XCTAssertEqual(document.uid(header), 0x0102_0304_0506_0708)
  }

  func testTruncated_EveryPrefix_FailsWithoutCrash() {
    let bytes = validArchive
    for length in stride(from: 0, to: bytes.count, by: 3) {
      XCTAssertThrowsError(try KeyedArchiveImporter.importRuns(from: Array(bytes.prefix(length))))
    }
  }

  func testGarbageTrailer_Fails() {
    var bytes = validArchive
    for index in (bytes.count - 32)..<bytes.count { bytes[index] = 0xFF }
    assertFails(bytes, "trailer")
  }

  func testOffsetOutOfRange_Fails() {
    var bytes = validArchive
    let trailer = bytes.count - 32
    let table = Int(BPlistDocument.bigEndian(bytes, at: trailer + 24, size: 8))
    let top = Int(BPlistDocument.bigEndian(bytes, at: trailer + 16, size: 8))
    let offsetSize = Int(bytes[trailer + 6])
    // The top object's offset now points past the object area.
    bytes[table + top * offsetSize] = 0xFF
    assertFails(bytes, "out of range")
  }

  func testHugeArrayCount_Fails() throws {
    // An array marker claiming 2^60 elements.
    var bytes = Array("bplist00".utf8) + [0xAF, 0x13] + be(1 << 60)
    bytes += [8] + [0, 0, 0, 0, 0, 0, 1, 1] + be(1) + be(0) + be(18)
    XCTAssertThrowsError(try BPlistDocument(bytes: bytes).header(0)) { error in
      XCTAssertTrue((error as? ImportError)?.reason.contains("larger than the file") == true)
    }
  }

  func testObjectCountLargerThanFile_Fails() {
    var bytes = validArchive
    let trailer = bytes.count - 32
    for index in (trailer + 8)..<(trailer + 16) { bytes[index] = 0x7F }
    assertFails(bytes, "object count")
  }

  func testReferenceOutOfRange_Fails() throws {
    let bytes = BPlistWriter.write([.array([1, 200])], top: 0)
    let document = try BPlistDocument(bytes: bytes)
    XCTAssertThrowsError(try document.childRef(document.header(0), 0)) { error in
      XCTAssertEqual(
        (error as? ImportError)?.reason, "reference to object 1 out of range (1 objects)")
    }
  }

  func testNotAPlist_Fails() {
    assertFails([], "not a property list")
    assertFails(Array("hello, world".utf8), "not a property list")
    assertFails(Array("<plist><dict>".utf8), "XML plist: unexpected end of file")
  }

  /// Seeded, so that a crash repeats; `RKEXPORT_FUZZ_SEED` runs other mutations. (With the
  /// system's generator this test once crashed on one run in two, and then not again.)
  func testRandomMutations_NeverCrash() {
    let seed = ProcessInfo.processInfo.environment["RKEXPORT_FUZZ_SEED"].flatMap { UInt64($0) }
    var generator = SplitMix(seed: seed ?? 0x5EED_B115)
    let original = validArchive
    for _ in 0..<20_000 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
          in: 0...255, using: &generator)
      }
      _ = try? KeyedArchiveImporter.importRuns(from: bytes)
      _ = try? ArchiveInspector.render(bytes)
    }
  }
}
