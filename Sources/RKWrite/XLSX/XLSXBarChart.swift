// Bar charts over a table sheet's rows, e.g. option counts of one choice question.
internal import CXLSXWriter
import Foundation

/// One bar chart: categories and values read from two columns of a table sheet's rows.
///
/// ```swift
/// // Rows 4..<7 of the choices sheet hold the options of question "mood".
/// XLSXBarChart(title: "mood", data: choices, categoryColumn: "option",
///              valueColumn: "count", rows: 4..<7)
/// ```
public struct XLSXBarChart {
  /// Shown above the chart (at most 255 characters are used).
  public var title: String
  /// The table sheet holding the data.
  public var data: XLSXTableSheet
  /// Column whose cells label the bars.
  public var categoryColumn: String
  /// Column whose numbers give the bar lengths.
  public var valueColumn: String
  /// Data rows, 0-based in the order they were (or will be) written to `data`.
  public var rows: Range<Int>

  /// A chart of `rows` of `data`: one bar per row, labelled by `categoryColumn`.
  public init(
    title: String, data: XLSXTableSheet, categoryColumn: String, valueColumn: String,
    rows: Range<Int>
  ) {
    self.title = title
    self.data = data
    self.categoryColumn = categoryColumn
    self.valueColumn = valueColumn
    self.rows = rows
  }
}

/// Lays bar charts out on a new worksheet, two per grid row, sized to their bar count.
struct XLSXChartSheetWriter {
  let core: XLSXWorkbookCore
  private static let columnsInGrid = 2
  private static let width = 480.0
  private static let gap = 16.0

  func addSheet(name wanted: String, charts: [XLSXBarChart]) throws -> String {
    let workbook = try core.openHandle()
    let resolved = try charts.map(resolve)
    let name = core.names.claim(wanted)
    let worksheet = try core.addWorksheet(named: name)
    var top = Self.gap
    var index = 0
    while index < resolved.count {
      let line = resolved[index..<min(index + Self.columnsInGrid, resolved.count)]
      let height = line.map { Self.height(bars: $0.bars) }.max() ?? 0
      for (slot, chart) in line.enumerated() {
        let left = Self.gap + Double(slot) * (Self.width + Self.gap)
        try insert(
          chart, into: worksheet, sheetName: name, workbook: workbook, left: left,
          top: top, height: height)
      }
      top += height + Self.gap
      index += Self.columnsInGrid
    }
    return name
  }

  private struct Resolved {
    var title: String
    var sheet: String
    var firstRow: Int
    var lastRow: Int
    var categoryColumn: Int
    var valueColumn: Int
    var bars: Int { lastRow - firstRow + 1 }
  }

  private func resolve(_ chart: XLSXBarChart) throws -> Resolved {
    let columns = chart.data.schema.columnNames
    func failure(_ message: String) -> XLSXError {
      XLSXError(
        .parameterValidation, path: core.output.path, sheet: chart.data.name,
        message: "Chart \"\(chart.title)\": \(message)")
    }
    guard let category = columns.firstIndex(of: chart.categoryColumn) else {
      throw failure("no column \"\(chart.categoryColumn)\".")
    }
    guard let value = columns.firstIndex(of: chart.valueColumn) else {
      throw failure("no column \"\(chart.valueColumn)\".")
    }
    guard !chart.rows.isEmpty, let first = chart.data.location(ofDataRow: chart.rows.lowerBound),
      let last = chart.data.location(ofDataRow: chart.rows.upperBound - 1),
      first.sheet == last.sheet
    else { throw failure("rows \(chart.rows) are empty or not on one sheet.") }
    return Resolved(
      title: Self.safeTitle(chart.title), sheet: first.sheet, firstRow: first.row,
      lastRow: last.row, categoryColumn: category, valueColumn: value)
  }

  private func insert(
    _ chart: Resolved, into worksheet: XLSXWorkbookCore.Worksheet, sheetName: String,
    workbook: UnsafeMutablePointer<lxw_workbook>, left: Double, top: Double, height: Double
  ) throws {
    guard let barChart = workbook_add_chart(workbook, UInt8(LXW_CHART_BAR.rawValue)),
      let series = chart_add_series(barChart, nil, nil)
    else { throw XLSXError(.memoryMallocFailed, path: core.output.path, sheet: sheetName) }
    chart_series_set_categories(
      series, chart.sheet, lxw_row_t(chart.firstRow), lxw_col_t(chart.categoryColumn),
      lxw_row_t(chart.lastRow), lxw_col_t(chart.categoryColumn))
    chart_series_set_values(
      series, chart.sheet, lxw_row_t(chart.firstRow), lxw_col_t(chart.valueColumn),
      lxw_row_t(chart.lastRow), lxw_col_t(chart.valueColumn))
    chart_series_set_labels(series)
    chart_title_set_name(barChart, chart.title)
    chart_legend_set_position(barChart, UInt8(LXW_CHART_LEGEND_NONE.rawValue))
    // Bars in table order from the top; Excel draws the first category at the bottom.
    chart_axis_set_reverse(barChart.pointee.x_axis)
    var options = lxw_chart_options()
    options.x_offset = Int32(left)
    options.y_offset = Int32(top)
    options.x_scale = Self.width / 480
    options.y_scale = height / 288
    try core.check(
      worksheet_insert_chart_opt(worksheet, 0, 0, barChart, &options), sheet: sheetName)
  }

  /// Taller charts for more bars, so labels stay readable: 22 px a bar, 240–900 px.
  private static func height(bars: Int) -> Double {
    min(max(100 + 22 * Double(bars), 240), 900)
  }

  /// A title libxlsxwriter takes as text: 255 characters at most, and a leading `=` (which it
  /// would read as a formula) moved behind a space.
  private static func safeTitle(_ title: String) -> String {
    let cut = XLSXSheetNames.cut(title.filter { $0 != "\0" }, to: 255)
    return cut.hasPrefix("=") ? " " + cut : cut
  }
}
