// The byte buffer every CSV row is formatted into: appends of words and reserved room, across
// growth, give exactly the bytes appended.
import RKTable
import RKTestSupport
import XCTest

final class ByteWriterTests: XCTestCase {
  func testAppendWords_EveryCount_SameBytesAsAppendingThem_AcrossGrowth() {
    var generator = SplitMix(seed: 32)
    // A small first capacity, so that appends grow the buffer often.
    var writer = ByteWriter(capacity: 16)
    var expected: [UInt8] = []
    for round in 0..<2_000 {
      let words = (generator.next(), generator.next(), generator.next(), generator.next())
      let count = Int(generator.next() % 33)
      writer.appendWords(words, count: count)
      // The words' bytes in little-endian order, the first `count` of them.
      var bytes: [UInt8] = []
      for word in [words.0, words.1, words.2, words.3] {
        for shift in stride(from: 0, to: 64, by: 8) {
          bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
        }
      }
      expected += bytes.prefix(count)
      // Other appends between them: what the words' stores reach past must be overwritten.
      if round % 3 == 0 {
        writer.append(UInt8(ascii: ","))
        expected.append(UInt8(ascii: ","))
      }
      if round % 5 == 0 {
        let room = writer.reserve(3)
        room[0] = 0x61
        room[1] = 0x62
        room[2] = 0x63
        expected += [0x61, 0x62, 0x63]
      }
    }
    XCTAssertEqual(writer.count, expected.count)
    XCTAssertEqual(writer.bytes, expected)
  }
}
