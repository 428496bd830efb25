// codebook.csv: labels, types, allowed values and missing meanings from schemas and definitions.
import RKModel
import RKTable
import RKTidy
import XCTest

final class CodebookTests: XCTestCase {
  private let wide = TableSchema(
    name: "wide/sleep",
    columns: [
      Column("task_run_uuid", .string, "Run UUID."),
      Column("s1.mood", .string, "Answer to mood.", categories: ["good", "bad"]),
      Column("s1.mood.good", .integer, "1 when good was chosen."),
      Column("hours", .number, "Answer to hours.", unit: "h"),
    ])

  private let definition = TaskDefinition(
    taskIdentifier: "sleep",
    questions: [
      QuestionDefinition(
        stepIdentifier: "s1", itemIdentifier: "mood", text: "How do you feel?",
        options: [ChoiceOption(value: "good", text: "Good"), ChoiceOption(value: "bad")])
    ])

  func testCodebookSchema_Header_NamesTheContractFields() {
    XCTAssertEqual(
      Codebook.schema.columnNames,
      ["table", "name", "label", "type", "unit", "allowed_values", "missing_meaning"])
  }

  func testCodebookRows_OneRowPerColumnOfEverySchema() {
    let rows = Codebook.rows(
      for: [SummaryTable.schema, ChoicesTable.schema, wide], definitions: [])
    XCTAssertEqual(rows.count, 22 + 6 + 4)
    XCTAssertTrue(rows.allSatisfy { $0.count == Codebook.schema.columns.count })
    XCTAssertEqual(rows[0][0], .text("summary"))
    XCTAssertEqual(rows[22][1], .text("task_id"))
    XCTAssertEqual(rows[22][0], .text("choices"))
  }

  func testCodebookRows_SummaryColumn_CarriesTypeUnitAndMeaning() throws {
    let rows = Codebook.rows(for: [SummaryTable.schema], definitions: [])
    let sd = try XCTUnwrap(rows.first { $0[1] == .text("sd") })
    XCTAssertEqual(sd[3], .text("number"))
    XCTAssertEqual(sd[6], .text("Empty = fewer than two numeric answers."))
    let duration = try XCTUnwrap(rows.first { $0[1] == .text("step_duration_p90_s") })
    XCTAssertEqual(duration[4], .text("s"))
    let answerType = try XCTUnwrap(rows.first { $0[1] == .text("answer_type") })
    XCTAssertEqual(
      answerType[5],
      .text(
        "boolean | choice | scale | numeric | text | date | time_of_day | time_interval | "
          + "location | multiple_component | ses | file | other"))
  }

  func testCodebookRows_DefinedQuestion_UsesQuestionTextAndOptionTexts() {
    let rows = Codebook.rows(for: [wide], definitions: [definition])
    XCTAssertEqual(
      rows[1],
      [
        .text("wide/sleep"), .text("s1.mood"), .text("How do you feel?"), .text("string"),
        .empty, .text("good=Good | bad"),
        .text(
          "Empty = not presented, skipped or answered \"don't know\" (see status in answers.csv);"
            + " never 0 for an unanswered question."),
      ])
  }

  func testCodebookRows_OptionColumn_LabelsQuestionAndOption() {
    let rows = Codebook.rows(for: [wide], definitions: [definition])
    XCTAssertEqual(rows[2][2], .text("How do you feel?: Good"))
    XCTAssertEqual(rows[2][5], .text("0 | 1"))
  }

  func testCodebookRows_NoDefinition_FallsBackToSchema() {
    let rows = Codebook.rows(for: [wide], definitions: [])
    XCTAssertEqual(rows[1][2], .text("Answer to mood."))
    XCTAssertEqual(rows[1][5], .text("good | bad"))
    XCTAssertEqual(rows[3][4], .text("h"))
  }

  func testCodebookRows_WideRunColumn_IsNotAQuestion() {
    let rows = Codebook.rows(for: [wide], definitions: [definition])
    XCTAssertEqual(rows[0][6], .text("Empty = the input records no run UUID."))
  }

  func testCodebookRows_DefinitionOfOtherTask_IsIgnored() {
    var other = definition
    other.taskIdentifier = "diet"
    XCTAssertEqual(
      Codebook.rows(for: [wide], definitions: [other]), Codebook.rows(for: [wide], definitions: []))
  }
}
