// Small hand-built task runs shared by the flattener and wide-pivot tests.
import RKModel
import RKTable

/// 2016-05-16T19:34:25.846Z, the example instant of design.md §4.
let t0 = Instant(secondsSince1970: 1_463_427_265.846)
let t0ms: Int64 = 1_463_427_265_846

func at(_ seconds: Double) -> Instant {
  Instant(secondsSinceReferenceDate: t0.secondsSinceReferenceDate + seconds)
}

func ms(_ seconds: Int64) -> Cell { .instant(millisecondsSince1970: t0ms + seconds * 1000) }

func num(_ text: String, _ value: Double) -> Cell { .number(text: text, value: value) }

func result(
  _ id: String, _ type: AnswerType, _ answer: Answer, questionType: Int? = nil
) -> ResultRecord {
  ResultRecord(
    identifier: id, className: "ORKQuestionResult", answerType: type, answer: answer,
    startDate: at(10), endDate: at(12.5), questionType: questionType)
}

/// A run of task "survey" with one step per result (step id = result id).
func makeRun(
  _ results: [ResultRecord], uuid: String? = "RUN-1", participant: String = "P001",
  task: String = "survey", source: String = "P001/a.archive"
) -> TaskRun {
  TaskRun(
    taskIdentifier: task, runUUID: uuid, startDate: t0, endDate: at(60),
    steps: results.map { StepRecord(identifier: $0.identifier, results: [$0]) },
    participantID: participant, source: source)
}

/// Looks up a cell by its column name in a row of `schema`.
func cell(_ row: [Cell], _ column: String, in schema: TableSchema) -> Cell? {
  guard let index = schema.columnNames.firstIndex(of: column), index < row.count else {
    return nil
  }
  return row[index]
}
