// XLSXError: codes mirror lxw_error, text names the place.
import XCTest

@testable import RKWrite

final class XLSXErrorTests: XCTestCase {
  func testDescription_CellError_NamesPathSheetRowColumn() {
    let error = XLSXError(
      .worksheetIndexOutOfRange, path: "out/results.xlsx", sheet: "answers", row: 12, column: 9,
      columnName: "value")
    // Message text: lxw_strerror's table in libxlsxwriter 1.1.4 src/utility.c.
    XCTAssertEqual(
      error.description,
      "out/results.xlsx: sheet \"answers\" row 12 column 9 (value): "
        + "Worksheet row or column index out of range. "
        + "[LXW_ERROR_WORKSHEET_INDEX_OUT_OF_RANGE]")
  }

  func testCode_RawValues_MatchLxwErrorOrder() {
    // Positions in `lxw_error` (include/xlsxwriter/common.h): 2, 21 and 23 are named in its docs.
    XCTAssertEqual(XLSXError.Code.creatingXLSXFile.rawValue, 2)
    XCTAssertEqual(XLSXError.Code.maxStringLengthExceeded.rawValue, 21)
    XCTAssertEqual(XLSXError.Code.worksheetIndexOutOfRange.rawValue, 23)
    XCTAssertEqual(XLSXError.Code.imageDimensions.constantName, "LXW_ERROR_IMAGE_DIMENSIONS")
    let libraryCodes = XLSXError.Code.allCases.filter { $0.rawValue > 0 }
    XCTAssertEqual(libraryCodes.map(\.rawValue), Array(1...26))
  }

  func testCode_CloseFailure_MessageFromLibrary() {
    XCTAssertEqual(
      XLSXError.Code.creatingXLSXFile.standardMessage,
      "Error creating output xlsx file. Usually a permissions error.")
  }
}
