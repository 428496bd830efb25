// An .xlsx workbook of table sheets and chart sheets, written in constant memory.
import Foundation
import RKTable

/// A workbook being written: add table sheets (each a `RowSink`) and chart sheets, feed rows,
/// then `close()`.
///
/// Rows are streamed to disk as they arrive (libxlsxwriter's constant-memory mode keeps one row
/// per sheet), so memory stays flat however many rows are written; several sheets may receive
/// rows in turn. The file is written under a temporary name in the target folder and renamed to
/// `path` only by a successful `close()`: a failed or abandoned workbook leaves nothing behind.
///
/// ```swift
/// let workbook = try XLSXWorkbook(path: "out/results.xlsx", options: .init(title: "Results"))
/// let answers = try workbook.addTableSheet(name: "answers", schema: answersSchema)
/// try answers.write([.text("P001"), .instant(millisecondsSince1970: 1_463_427_265_846)])
/// try workbook.close()
/// ```
///
/// Not thread-safe: use one workbook from one thread (or serialise access).
public final class XLSXWorkbook {
  let core: XLSXWorkbookCore

  /// Reserves a temporary file beside `path` and starts a workbook.
  ///
  /// - Throws: `XLSXError` with code `.outputFile` when the folder is missing or not writable,
  ///   or a library code when libxlsxwriter cannot start.
  public init(path: String, options: Options = Options()) throws {
    core = try XLSXWorkbookCore(path: path, options: options)
  }

  /// The output path given at creation.
  public var path: String { core.output.path }

  /// Everything changed to fit Excel so far (cut text, continued tables), in order; at most
  /// `options.maxWarnings` are kept.
  public var warnings: [XLSXWarning] { core.warnings }

  /// Warnings not kept in `warnings` because the limit was reached.
  public var omittedWarningCount: Int { core.omittedWarningCount }

  /// Whether `close()` wrote every zip entry at `options.compression`'s level. False when this
  /// system's libxlsxwriter reaches minizip past rkexport's shim (`CZipLevel`), e.g. with minizip
  /// built in: the file is then at the library's own level, complete and valid.
  public var compressionApplied: Bool { core.compressionApplied }

  /// Adds a worksheet for one table: bold frozen header of the schema's column names (with each
  /// column's description as a cell note), autofilter over the written rows, column widths from
  /// the header and first rows.
  ///
  /// - Parameters:
  ///   - name: the wanted sheet name; repaired to Excel's rules and made unique (`answers ~2`)
  ///     when needed. The sheet's `name` property tells what was used.
  ///   - schema: the columns, in order; at most 16,384.
  ///   - note: a sentence shown beside the table, e.g. what the sheet holds.
  public func addTableSheet(name: String, schema: TableSchema, note: String? = nil) throws
    -> XLSXTableSheet
  {
    let sheet = try XLSXTableSheet(core: core, name: name, schema: schema, note: note)
    core.tables.append(sheet)
    return sheet
  }

  /// Adds a sheet of bar charts, one per spec, in a grid two charts wide.
  ///
  /// - Returns: the sheet name used (repaired and made unique like table sheet names).
  @discardableResult
  public func addBarChartSheet(name: String, charts: [XLSXBarChart]) throws -> String {
    try XLSXChartSheetWriter(core: core).addSheet(name: name, charts: charts)
  }

  /// Finishes every sheet, writes the file and renames it to `path`.
  ///
  /// Always call it: I/O failures (disk full, folder removed) surface here. After `close()`,
  /// successful or not, the workbook and its sheets accept no more rows.
  public func close() throws {
    try core.close()
  }

  // A workbook dropped without `close()` is incomplete: finish the library's work so its
  // temporary files are released, then delete the output rather than leave a partial file.
  deinit {
    core.abandon()
  }
}
