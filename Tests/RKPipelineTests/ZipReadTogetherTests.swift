// Which zips found at import are read as one input on the thread that found them: few items,
// and few bytes, so that one result never holds a large zip's rows.
import RKImport
import XCTest

@testable import RKPipeline

final class ZipReadTogetherTests: XCTestCase {
  private func items(_ sizes: [Int64]) -> InputItemList {
    InputItemList(
      sizes.enumerated().map { index, size in
        InputItem(
          displayPath: "u.zip!/\(index).archive", folders: [],
          location: .zipEntry(zipPath: "/in/u.zip", entry: "\(index).archive"), size: size)
      })
  }

  func testItemsReadTogether_AtMost256ItemsOfAtMost16MB() {
    typealias Reading = ExportPass.InputReading
    XCTAssertNotNil(Reading.itemsReadTogether(items([])))
    XCTAssertNotNil(Reading.itemsReadTogether(items(Array(repeating: 20_000, count: 256))))
    XCTAssertNil(Reading.itemsReadTogether(items(Array(repeating: 1, count: 257))))
    // 16 MiB exactly, then one byte more, in two items.
    XCTAssertNotNil(Reading.itemsReadTogether(items([8 << 20, 8 << 20])))
    XCTAssertNil(Reading.itemsReadTogether(items([8 << 20, (8 << 20) + 1])))
    // One large item alone.
    XCTAssertNil(Reading.itemsReadTogether(items([(16 << 20) + 1])))
  }
}
