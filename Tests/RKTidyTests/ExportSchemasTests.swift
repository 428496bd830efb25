// Each long table's header equals design.md §4's column list, in order.
import RKModel
import RKTable
import XCTest

@testable import RKTidy

final class ExportSchemasTests: XCTestCase {
  func testSchemas_Headers_MatchDesignContract() {
    XCTAssertEqual(
      ExportSchemas.taskRuns.columnNames,
      [
        "participant_id", "task_id", "task_run_uuid", "task_start", "task_end", "task_duration_s",
        "n_steps", "source", "device_product", "device_platform", "device_os_version",
        "device_os_build", "app_version", "metadata",
      ])
    XCTAssertEqual(
      ExportSchemas.steps.columnNames,
      [
        "participant_id", "task_id", "task_run_uuid", "step_index", "step_id", "step_start",
        "step_end", "step_duration_s", "source",
      ])
    XCTAssertEqual(
      ExportSchemas.answers.columnNames,
      [
        "participant_id", "task_id", "task_run_uuid", "step_id", "item_id", "answer_type",
        "status", "value_index", "value", "value_number", "value_datetime", "unit",
        "answer_start", "answer_end", "answer_duration_s", "source", "time_zone", "latitude",
        "longitude", "content_type",
      ])
    XCTAssertEqual(
      ExportSchemas.inputs.columnNames,
      ["path", "format", "status", "task_runs", "answers", "error"])
  }

  func testSchemas_EveryColumn_HasTypeDescriptionAndUniqueName() {
    for schema in ExportSchemas.all {
      XCTAssertEqual(Set(schema.columnNames).count, schema.columns.count, schema.name)
      for column in schema.columns {
        XCTAssertFalse(column.description.isEmpty, "\(schema.name).\(column.name)")
      }
      for key in schema.primaryKey { XCTAssertTrue(schema.columnNames.contains(key)) }
    }
    XCTAssertEqual(
      ExportSchemas.answers.columns.first { $0.name == "status" }?.categories,
      ["answered", "skipped", "dont_know"])
  }

  func testInputRecord_FailedFile_CellsInColumnOrder() {
    let record = InputRecord(
      path: "P001/bad.archive", format: "keyed-archive", status: .failed,
      error: "P001/bad.archive: root: truncated trailer")
    XCTAssertEqual(
      record.cells,
      [
        .text("P001/bad.archive"), .text("keyed-archive"), .text("failed"), .integer(0),
        .integer(0), .text("P001/bad.archive: root: truncated trailer"),
      ])
    XCTAssertEqual(
      InputRecord(path: "a.png", format: "", status: .skipped).cells,
      [.text("a.png"), .empty, .text("skipped"), .integer(0), .integer(0), .empty])
  }
}
