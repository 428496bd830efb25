// The libxlsxwriter workbook handle, its formats and the bookkeeping shared by its sheets.
internal import CXLSXWriter
internal import CZipLevel
import Foundation
import RKTable

/// Owns the C workbook: created in `init`, released by `close()` or `abandon()`, never twice.
final class XLSXWorkbookCore {
  typealias Worksheet = UnsafeMutablePointer<lxw_worksheet>
  typealias Format = UnsafeMutablePointer<lxw_format>

  let output: XLSXOutputFile
  let options: XLSXWorkbook.Options
  /// nil once closed.
  private(set) var handle: UnsafeMutablePointer<lxw_workbook>?
  var names = XLSXSheetNames()
  /// Table sheets to finish at close; they hold this core, so the list is emptied at close.
  var tables: [XLSXTableSheet] = []
  private(set) var warnings: [XLSXWarning] = []
  private(set) var omittedWarningCount = 0
  /// Whether `options.compression` reached every zip entry at the last `close()`.
  private(set) var compressionApplied = true
  /// Zip entries the last `close()` deflated in blocks on `options.compressionThreads`
  /// threads (all of them, unless the library reaches minizip past the shim).
  private(set) var entriesDeflatedInBlocks = 0
  /// Bold, shaded, underlined header cells.
  let headerFormat: Format
  /// `yyyy-mm-dd hh:mm:ss.000` date-time cells.
  let dateFormat: Format
  /// Integers in full (`0`), not in scientific notation past 11 digits.
  let integerFormat: Format
  /// Durations in seconds to the millisecond (`0.000`).
  let secondsFormat: Format
  /// Booleans shown as TRUE/FALSE: Excel does so anyway, LibreOffice only with this format.
  let booleanFormat: Format

  init(path: String, options: XLSXWorkbook.Options) throws {
    self.options = options
    // Number cells in shortest round-trip text (see XLSXNumberText), from the first workbook on.
    XLSXNumberText.registered
    output = try XLSXOutputFile(path: path)
    // Constant memory: rows go to one temporary file per sheet as soon as the next row starts.
    // Those files (about 2.3 GB of XML for 100,000 archives) go beside the output, on its disk,
    // not in the system's temporary folder, which may be small or a tmpfs held in memory.
    // (`workbook_new_opt` keeps a copy of the folder's name.)
    let file = output.temporaryPath
    let folder = PathText.parent(of: file)
    let opened = (folder.isEmpty ? "." : folder).withCString { folder in
      var libraryOptions = lxw_workbook_options(
        constant_memory: 1, tmpdir: UnsafeMutablePointer(mutating: folder), use_zip64: 1)
      return workbook_new_opt(file, &libraryOptions)
    }
    guard let workbook = opened else {
      output.discard()
      throw XLSXError(.memoryMallocFailed, path: path)
    }
    handle = workbook
    func makeFormat() throws -> Format {
      guard let format = workbook_add_format(workbook) else {
        throw XLSXError(.memoryMallocFailed, path: path)
      }
      return format
    }
    do {
      headerFormat = try makeFormat()
      format_set_bold(headerFormat)
      format_set_bg_color(headerFormat, 0xDDE6F0)
      format_set_bottom(headerFormat, UInt8(LXW_BORDER_THIN.rawValue))
      dateFormat = try makeFormat()
      format_set_num_format(dateFormat, "yyyy-mm-dd hh:mm:ss.000")
      integerFormat = try makeFormat()
      format_set_num_format(integerFormat, "0")
      secondsFormat = try makeFormat()
      format_set_num_format(secondsFormat, "0.000")
      booleanFormat = try makeFormat()
      format_set_num_format(booleanFormat, "\"TRUE\";\"TRUE\";\"FALSE\"")
      try setProperties(workbook)
    } catch {
      workbook_close(workbook)
      handle = nil
      output.discard()
      throw error
    }
  }

  /// Throws an `XLSXError` for any code but `LXW_NO_ERROR`, naming the place.
  func check(
    _ code: lxw_error, sheet: String? = nil, row: Int? = nil, column: Int? = nil,
    columnName: String? = nil
  ) throws {
    guard let failure = XLSXError.Code(lxw: code) else { return }
    throw XLSXError(
      failure, path: output.path, sheet: sheet, row: row, column: column, columnName: columnName)
  }

  /// The open workbook, or `.workbookClosed`.
  func openHandle() throws -> UnsafeMutablePointer<lxw_workbook> {
    guard let handle else { throw XLSXError(.workbookClosed, path: output.path) }
    return handle
  }

  /// Adds a worksheet under a name already made valid and unique by `names`.
  func addWorksheet(named name: String) throws -> Worksheet {
    let workbook = try openHandle()
    // Ask the library too, so a rule we missed becomes an error, not a printed warning.
    try check(workbook_validate_sheet_name(workbook, name), sheet: name)
    guard let worksheet = workbook_add_worksheet(workbook, name) else {
      throw XLSXError(
        .creatingTmpfile, path: output.path, sheet: name,
        message: "Could not add the worksheet (temporary file or memory).")
    }
    return worksheet
  }

  /// Records a warning, keeping at most `options.maxWarnings`.
  func warn(_ warning: XLSXWarning) {
    if warnings.count < options.maxWarnings {
      warnings.append(warning)
    } else {
      omittedWarningCount += 1
    }
  }

  func close() throws {
    let workbook = try openHandle()
    var failure: Error?
    for table in tables {
      do { try table.finish() } catch { failure = failure ?? error }
    }
    tables.removeAll()
    handle = nil
    // Always let the library close: it releases the sheets' temporary files. The level
    // and threads apply to the zip entries this thread opens meanwhile (see CZipLevel).
    rk_zip_set_deflate_level(options.compression.zipLevel)
    rk_zip_set_deflate_threads(Int32(options.compressionThreads))
    let code = workbook_close(workbook)
    let opened = rk_zip_entries_opened()
    let leveled = rk_zip_entries_leveled()
    entriesDeflatedInBlocks = Int(rk_zip_entries_in_blocks())
    rk_zip_set_deflate_threads(0)
    rk_zip_set_deflate_level(RK_ZIP_LEVEL_LIBRARY_DEFAULT)
    compressionApplied = options.compression == .standard || (opened > 0 && leveled == opened)
    do { try check(code) } catch { failure = failure ?? error }
    if let failure {
      output.discard()
      throw failure
    }
    try output.commit()
  }

  func abandon() {
    guard let workbook = handle else { return }
    tables.removeAll()
    handle = nil
    workbook_close(workbook)
    output.discard()
  }

  private func setProperties(_ workbook: UnsafeMutablePointer<lxw_workbook>) throws {
    var comments = "Written by rkexport"
    if let version = options.rkexportVersion { comments += " " + version }
    comments += ". Date-time cells are in \(options.timeZone.identifier)."
    let title = options.title.map { strdup($0) } ?? nil
    let commentText = strdup(comments)
    defer {
      free(title)
      free(commentText)
    }
    var properties = lxw_doc_properties()
    properties.title = title
    properties.comments = commentText
    // 0 asks the library for the current time.
    let seconds = options.created.map { $0.timeIntervalSince1970.rounded(.down) } ?? 0
    properties.created = time_t(exactly: seconds) ?? 0
    try check(workbook_set_properties(workbook, &properties))
    if let version = options.rkexportVersion {
      try check(workbook_set_custom_property_string(workbook, "rkexport_version", version))
    }
    let zone = options.timeZone.identifier
    try check(workbook_set_custom_property_string(workbook, "time_zone", zone))
  }
}
