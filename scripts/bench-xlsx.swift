// Swift side of scripts/bench-xlsx: the same N rows x 10 cells as bench-xlsx.c, through
// XLSXWorkbook. Usage: bench-xlsx-swift ROWS OUT.xlsx
import Foundation
import RKTable
import RKWrite

@main
enum BenchXLSX {
  static func main() throws {
    let arguments = CommandLine.arguments
    let rows = arguments.count > 1 ? Int(arguments[1]) ?? 200_000 : 200_000
    let path = arguments.count > 2 ? arguments[2] : "bench-swift.xlsx"
    let columns: [(String, ColumnType)] = [
      ("participant_id", .string), ("item_id", .string), ("value_index", .integer),
      ("value_number", .number), ("flag", .boolean), ("answer_start", .datetime),
      ("answer_duration_s", .number), ("value", .string), ("percent", .number),
      ("answer_end", .datetime),
    ]
    let schema = TableSchema(name: "answers", columns: columns.map { Column($0.0, $0.1, "") })
    let start = Date()
    let workbook = try XLSXWorkbook(path: path)
    let sheet = try workbook.addTableSheet(name: "answers", schema: schema)
    // 2016-05-16T00:00:00Z, the serial 42506 of the C program, plus one second a row.
    let base: Int64 = 1_463_356_800_000
    for row in 1...rows {
      let instant = base + Int64(row) * 1000
      let id = "P" + String(repeating: "0", count: 5 - String(row % 1000).count) + "\(row % 1000)"
      try sheet.write([
        .text(id), .text("mood"), .integer(Int64(row % 5 + 1)),
        .number(text: "", value: Double(row) * 0.25), .bool(row % 2 == 1),
        .instant(millisecondsSince1970: instant), .seconds(1.5),
        .text("answer text number \(row)"), .number(text: "12.5", value: 12.5),
        .instant(millisecondsSince1970: instant + 86_400),
      ])
    }
    try workbook.close()
    let elapsed = Date().timeIntervalSince(start)
    let rate = Double(rows) / elapsed
    print("swift  rows=\(rows) seconds=\(String(format: "%.2f", elapsed)) rows_per_s=\(Int(rate))")
  }
}
