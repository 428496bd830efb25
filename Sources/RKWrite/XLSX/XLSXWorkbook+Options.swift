// Settings of one workbook: document properties, the output time zone, the row limit, the
// compression.
internal import CZipLevel
import Foundation
import RKTable

extension XLSXWorkbook {
  /// How a workbook is written.
  public struct Options: Sendable {
    /// The document title (File ▸ Properties), e.g. `rkexport results`.
    public var title: String?
    /// The creation time stored in the document; fix it for byte-stable output. Default: now.
    public var created: Date?
    /// rkexport's version, stored in the document's comments and as the custom property
    /// `rkexport_version`.
    public var rkexportVersion: String?
    /// The zone date cells are shown in (Excel dates carry no zone); its name is stated in the
    /// header notes of date-time columns and in the custom property `time_zone`.
    public var timeZone: TimeZoneRule
    /// Rows per worksheet, header included, before a table continues on a new sheet. Excel's
    /// limit, 1,048,576, is the default and the maximum; smaller values exist for tests.
    public var maxRowsPerSheet: Int
    /// How many warnings are kept in `XLSXWorkbook.warnings`; the rest are only counted.
    public var maxWarnings: Int
    /// How hard the file's zip entries are deflated when the workbook closes.
    public var compression: Compression
    /// Threads that deflate the zip entries when the workbook closes (default: one per core,
    /// at most 8; the rows are all written by then), in 128 KB blocks: the file's bytes are
    /// the same for any count from 1 up. Each thread holds about 0.9 MB while the workbook
    /// closes. 0 leaves it to libxlsxwriter (minizip deflating each entry as a whole on the
    /// closing thread).
    public var compressionThreads: Int

    /// Options with Excel's limits, UTC dates and no title.
    public init(
      title: String? = nil, created: Date? = nil, rkexportVersion: String? = nil,
      timeZone: TimeZoneRule = .utc, maxRowsPerSheet: Int = XLSXWorkbook.excelMaxRows,
      maxWarnings: Int = 1000, compression: Compression = .fast,
      compressionThreads: Int = min(ProcessInfo.processInfo.activeProcessorCount, 8)
    ) {
      self.title = title
      self.created = created
      self.rkexportVersion = rkexportVersion
      self.timeZone = timeZone
      self.maxRowsPerSheet = min(max(maxRowsPerSheet, 2), XLSXWorkbook.excelMaxRows)
      self.maxWarnings = max(maxWarnings, 0)
      self.compression = compression
      self.compressionThreads = min(max(compressionThreads, 0), 16)
    }
  }

  /// The deflate effort for the workbook's zip entries. Closing a large workbook is mostly
  /// deflating its sheets; the cells are the same either way.
  public enum Compression: String, Sendable, CaseIterable {
    /// zlib level 1: on 10,000 archives the close took about half as long as `standard`'s
    /// (1.4 against 2.6 s on two cores) and the file was 28 % larger (35.9 against 28.1 MB).
    case fast
    /// libxlsxwriter's own choice, zlib's default level (6).
    case standard

    /// The level for `rk_zip_set_deflate_level`.
    var zipLevel: Int32 {
      switch self {
      case .fast: return 1
      case .standard: return RK_ZIP_LEVEL_LIBRARY_DEFAULT
      }
    }
  }

  /// Excel's rows per worksheet.
  public static let excelMaxRows = 1_048_576
  /// Excel's columns per worksheet.
  public static let excelMaxColumns = 16_384
}

/// Something the workbook changed to fit Excel, reported so nothing changes silently.
public struct XLSXWarning: Sendable, Equatable, CustomStringConvertible {
  /// What was changed.
  public enum Kind: Sendable, Equatable {
    /// Text longer than Excel's 32,767 characters was cut and marked `…[truncated]`;
    /// `originalLength` is in UTF-16 units, as Excel counts.
    case textTruncated(originalLength: Int)
    /// The table reached the row limit; its rows continue on sheet `continuation`.
    case tableContinued(continuation: String)
  }

  /// The sheet where it happened.
  public var sheet: String
  /// Excel row number, 1-based (row 1 is the header).
  public var row: Int
  /// Excel column number, 1-based; nil when the whole row is concerned.
  public var column: Int?
  /// The table column's name, when a column is concerned.
  public var columnName: String?
  public var kind: Kind

  /// `sheet "answers" row 7 column 9 (value): text of 40000 characters cut to 32767`.
  public var description: String {
    var place = "sheet \"\(sheet)\" row \(row)"
    if let column { place += " column \(column)" }
    if let columnName { place += " (\(columnName))" }
    switch kind {
    case .textTruncated(let length):
      return "\(place): text of \(length) characters cut to \(XLSXText.maxCellCharacters)"
    case .tableContinued(let continuation):
      return "\(place): row limit reached, table continues on sheet \"\(continuation)\""
    }
  }
}
