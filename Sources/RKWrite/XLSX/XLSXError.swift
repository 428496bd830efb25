// Errors from the XLSX writer: libxlsxwriter's `lxw_error` codes with the place they happened.
internal import CXLSXWriter

/// A failure while writing a workbook, with the output file and, when known, the cell.
///
/// `code` mirrors libxlsxwriter's `lxw_error`; `message` is `lxw_strerror`'s text for it (or
/// rkexport's own text for failures outside the library, such as the final rename).
///
/// ```
/// results.xlsx: sheet "answers" row 12 column 9 (value): Worksheet row or column index out of
/// range. [LXW_ERROR_WORKSHEET_INDEX_OUT_OF_RANGE]
/// ```
public struct XLSXError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public var code: Code
  /// Human-readable reason, from `lxw_strerror` for library codes.
  public var message: String
  /// The workbook being written (the final path, not the temporary one).
  public var path: String
  /// The worksheet name as written in the workbook, when the failure belongs to one sheet.
  public var sheet: String?
  /// Excel row number, 1-based (row 1 is the header), when known.
  public var row: Int?
  /// Excel column number, 1-based, when known.
  public var column: Int?
  /// The table column's name, when known.
  public var columnName: String?

  /// Creates an error; `message` defaults to the code's standard text.
  public init(
    _ code: Code, path: String, sheet: String? = nil, row: Int? = nil, column: Int? = nil,
    columnName: String? = nil, message: String? = nil
  ) {
    self.code = code
    self.message = message ?? code.standardMessage
    self.path = path
    self.sheet = sheet
    self.row = row
    self.column = column
    self.columnName = columnName
  }

  /// One line: path, then sheet, row and column when known, then the reason and the C constant.
  public var description: String {
    var place = path
    if let sheet { place += ": sheet \"\(sheet)\"" }
    if let row { place += " row \(row)" }
    if let column { place += " column \(column)" }
    if let columnName { place += " (\(columnName))" }
    return "\(place): \(message) [\(code.constantName)]"
  }

  /// The kinds of failure: one case per `lxw_error` value, plus rkexport's own.
  public enum Code: Int32, Sendable, Equatable, CaseIterable {
    /// `LXW_ERROR_MEMORY_MALLOC_FAILED`: the library could not allocate memory.
    case memoryMallocFailed = 1
    /// `LXW_ERROR_CREATING_XLSX_FILE`: the output file could not be created (permissions,
    /// missing folder).
    case creatingXLSXFile = 2
    /// `LXW_ERROR_CREATING_TMPFILE`: a temporary file could not be created.
    case creatingTmpfile = 3
    /// `LXW_ERROR_READING_TMPFILE`: a temporary file could not be read back.
    case readingTmpfile = 4
    /// `LXW_ERROR_ZIP_FILE_OPERATION`: a zip I/O error (disk full, file removed).
    case zipFileOperation = 5
    /// `LXW_ERROR_ZIP_PARAMETER_ERROR`: zip parameter error.
    case zipParameterError = 6
    /// `LXW_ERROR_ZIP_BAD_ZIP_FILE`: bad zip file (the zip64 option may be required).
    case zipBadZipFile = 7
    /// `LXW_ERROR_ZIP_INTERNAL_ERROR`: zip internal error.
    case zipInternalError = 8
    /// `LXW_ERROR_ZIP_FILE_ADD`: a part could not be added to the zip container.
    case zipFileAdd = 9
    /// `LXW_ERROR_ZIP_CLOSE`: the zip container could not be closed.
    case zipClose = 10
    /// `LXW_ERROR_FEATURE_NOT_SUPPORTED`: not supported in this configuration.
    case featureNotSupported = 11
    /// `LXW_ERROR_NULL_PARAMETER_IGNORED`: a NULL parameter was ignored.
    case nullParameterIgnored = 12
    /// `LXW_ERROR_PARAMETER_VALIDATION`: a parameter failed validation.
    case parameterValidation = 13
    /// `LXW_ERROR_SHEETNAME_LENGTH_EXCEEDED`: sheet name longer than 31 characters.
    case sheetnameLengthExceeded = 14
    /// `LXW_ERROR_INVALID_SHEETNAME_CHARACTER`: sheet name contains one of `[ ] : * ? / \`.
    case invalidSheetnameCharacter = 15
    /// `LXW_ERROR_SHEETNAME_START_END_APOSTROPHE`: sheet name starts or ends with `'`.
    case sheetnameStartEndApostrophe = 16
    /// `LXW_ERROR_SHEETNAME_ALREADY_USED`: sheet name already in use.
    case sheetnameAlreadyUsed = 17
    /// `LXW_ERROR_32_STRING_LENGTH_EXCEEDED`: parameter longer than 32 characters.
    case string32LengthExceeded = 18
    /// `LXW_ERROR_128_STRING_LENGTH_EXCEEDED`: parameter longer than 128 characters.
    case string128LengthExceeded = 19
    /// `LXW_ERROR_255_STRING_LENGTH_EXCEEDED`: parameter longer than 255 characters.
    case string255LengthExceeded = 20
    /// `LXW_ERROR_MAX_STRING_LENGTH_EXCEEDED`: string longer than 32,767 characters.
    case maxStringLengthExceeded = 21
    /// `LXW_ERROR_SHARED_STRING_INDEX_NOT_FOUND`: internal shared-string index missing.
    case sharedStringIndexNotFound = 22
    /// `LXW_ERROR_WORKSHEET_INDEX_OUT_OF_RANGE`: row or column out of range, or (constant-memory
    /// mode) a row above the one being written: that cell would be lost.
    case worksheetIndexOutOfRange = 23
    /// `LXW_ERROR_WORKSHEET_MAX_URL_LENGTH_EXCEEDED`: hyperlink longer than 2079 characters.
    case worksheetMaxURLLengthExceeded = 24
    /// `LXW_ERROR_WORKSHEET_MAX_NUMBER_URLS_EXCEEDED`: more than 65,530 hyperlinks in a sheet.
    case worksheetMaxNumberURLsExceeded = 25
    /// `LXW_ERROR_IMAGE_DIMENSIONS`: image dimensions or DPI unreadable.
    case imageDimensions = 26
    /// rkexport: a code this wrapper does not know (a newer libxlsxwriter).
    case unknown = -1
    /// rkexport: the finished temporary file could not be renamed to the output path, or the
    /// temporary file could not be reserved.
    case outputFile = -2
    /// rkexport: the workbook was already closed.
    case workbookClosed = -3

    /// The C constant's name (`LXW_ERROR_…`) or an `RKEXPORT_…` name for rkexport's own cases.
    public var constantName: String {
      switch self {
      case .unknown: return "RKEXPORT_UNKNOWN_LXW_ERROR"
      case .outputFile: return "RKEXPORT_OUTPUT_FILE"
      case .workbookClosed: return "RKEXPORT_WORKBOOK_CLOSED"
      default: return Self.constantNames[Int(rawValue) - 1]
      }
    }

    /// `lxw_strerror`'s text for library codes; rkexport's sentence for its own.
    public var standardMessage: String {
      switch self {
      case .unknown: return "Unknown libxlsxwriter error."
      case .outputFile: return "Could not write the output file."
      case .workbookClosed: return "The workbook is already closed."
      default: return String(cString: lxw_strerror(lxw_error(UInt32(rawValue))))
      }
    }

    /// The case for a C return code; nil for `LXW_NO_ERROR`.
    init?(lxw code: lxw_error) {
      guard code != LXW_NO_ERROR else { return nil }
      let known = Int32(exactly: code.rawValue).flatMap(Code.init(rawValue:))
      self = known.flatMap { $0.rawValue > 0 ? $0 : nil } ?? .unknown
    }

    // Same order as `lxw_error` in libxlsxwriter's include/xlsxwriter/common.h (1.1.4).
    private static let constantNames = [
      "LXW_ERROR_MEMORY_MALLOC_FAILED", "LXW_ERROR_CREATING_XLSX_FILE",
      "LXW_ERROR_CREATING_TMPFILE", "LXW_ERROR_READING_TMPFILE", "LXW_ERROR_ZIP_FILE_OPERATION",
      "LXW_ERROR_ZIP_PARAMETER_ERROR", "LXW_ERROR_ZIP_BAD_ZIP_FILE",
      "LXW_ERROR_ZIP_INTERNAL_ERROR", "LXW_ERROR_ZIP_FILE_ADD", "LXW_ERROR_ZIP_CLOSE",
      "LXW_ERROR_FEATURE_NOT_SUPPORTED", "LXW_ERROR_NULL_PARAMETER_IGNORED",
      "LXW_ERROR_PARAMETER_VALIDATION", "LXW_ERROR_SHEETNAME_LENGTH_EXCEEDED",
      "LXW_ERROR_INVALID_SHEETNAME_CHARACTER", "LXW_ERROR_SHEETNAME_START_END_APOSTROPHE",
      "LXW_ERROR_SHEETNAME_ALREADY_USED", "LXW_ERROR_32_STRING_LENGTH_EXCEEDED",
      "LXW_ERROR_128_STRING_LENGTH_EXCEEDED", "LXW_ERROR_255_STRING_LENGTH_EXCEEDED",
      "LXW_ERROR_MAX_STRING_LENGTH_EXCEEDED", "LXW_ERROR_SHARED_STRING_INDEX_NOT_FOUND",
      "LXW_ERROR_WORKSHEET_INDEX_OUT_OF_RANGE", "LXW_ERROR_WORKSHEET_MAX_URL_LENGTH_EXCEEDED",
      "LXW_ERROR_WORKSHEET_MAX_NUMBER_URLS_EXCEEDED", "LXW_ERROR_IMAGE_DIMENSIONS",
    ]
  }
}
