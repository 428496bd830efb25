// Where the cells of a partial row land in the final wide row, without building the row.
import RKTable

/// The final-column mapping of one task's wide table (`WidePivot.rowPlan(taskID:)`): turns a
/// `WidePartialRow`'s keys into a `CellSource` per final column, so a writer can format the
/// final row straight from the partial row's cells (spooled bytes, say) with no `[Cell]`.
///
/// ```swift
/// var sources: [CellSource] = []
/// plan.sources(cellCount: partial.cells.count, into: &sources) { index in
///   if case .integer(let key) = partial.cells[index] { return key } else { return nil }
/// }
/// // sources[column]: .cell(i) is partial.cells[i], .zero an unchosen option, .empty a blank
/// ```
public struct WideRowPlan: Sendable {
  /// Columns of the final row (`WidePivot.finalSchema(taskID:)`).
  public let columnCount: Int
  /// Final column of each question's value, by question ordinal.
  let valueColumn: [Int]
  /// Every question's option columns (by option ordinal) one after the other: question `q`'s are
  /// `optionStore[optionStart[q]..<optionStart[q + 1]]` (one array, no array per question to
  /// retain for each pair of each row).
  private let optionStore: [Int]
  private let optionStart: [Int]

  init(_ layout: WideLayout) {
    columnCount = layout.schema.columns.count
    valueColumn = layout.valueColumn
    var store: [Int] = []
    var start = [0]
    for columns in layout.optionColumns {
      store += columns
      start.append(store.count)
    }
    // Questions without an options entry have none.
    while start.count < valueColumn.count + 1 { start.append(store.count) }
    optionStore = store
    optionStart = start
  }

  /// Fills `sources` (resized to `columnCount`) for a partial row of `cellCount` cells whose
  /// pair keys `key(index)` gives (nil for a cell that is not a valid key). Pairs apply in
  /// order, so a question answered twice shows its later answer, as `WidePivot.finalRow`.
  @inline(__always)
  public func sources(
    cellCount: Int, into sources: inout [CellSource], key: (Int) -> Int64?
  ) {
    if sources.count != columnCount {
      sources = [CellSource](repeating: .empty, count: columnCount)
    }
    sources.withUnsafeMutableBufferPointer { sources in
      sources.update(repeating: .empty)
      let runCells = min(WidePartialRow.runCellCount, cellCount, columnCount)
      for index in 0..<runCells { sources[index] = .cell(index) }
      valueColumn.withUnsafeBufferPointer { valueColumn in
        optionStore.withUnsafeBufferPointer { optionStore in
          optionStart.withUnsafeBufferPointer { optionStart in
            var index = WidePartialRow.runCellCount
            while index + 1 < cellCount {
              defer { index += 2 }
              guard let raw = key(index), raw >= 0 else { continue }
              let question = Int(raw >> 32)
              let option = Int(raw & 0xFFFF_FFFF)
              guard question < valueColumn.count else { continue }
              let options = optionStart[question]..<optionStart[question + 1]
              if option == 0 {
                set(sources, valueColumn[question], .cell(index + 1))
                for position in options { set(sources, optionStore[position], .zero) }
              } else if option - 1 < options.count {
                set(sources, optionStore[options.lowerBound + option - 1], .cell(index + 1))
              }
            }
          }
        }
      }
    }
  }

  @inline(__always)
  private func set(
    _ sources: UnsafeMutableBufferPointer<CellSource>, _ column: Int, _ source: CellSource
  ) {
    if column >= 0 && column < sources.count { sources[column] = source }
  }
}
