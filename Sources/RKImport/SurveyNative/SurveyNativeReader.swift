// A SurveyNative answers document (`{"answers": {id: value}}`, what `submitJson()` posts) read as
// one task run (design.md §4): one step per question, sub-questions inside their parent's step.
import RKModel

/// Reads SurveyNative submissions, with or without the survey's definition.
public enum SurveyNativeReader {
  /// Task id when no definition applies.
  public static let defaultTaskIdentifier = "surveynative"

  /// True for an object with an `answers` object (and no `questions`: that is a definition).
  public static func isAnswers(_ value: JSONItem) -> Bool {
    value["answers"]?.isObject == true && value["questions"] == nil
  }

  /// The run of one submission. `source` (the display path) and `bytes` seed the run UUID, so the
  /// same file always gets the same id and different files different ids. Returns notes on
  /// answers hidden by show_if, broken validations and answers the definition does not know.
  public static func read(
    _ document: JSONValue, bytes: [UInt8], source: String, definition: SurveyRules?
  ) throws -> (TaskRun, notes: [String]) {
    guard let members = document["answers"]?.objectMembers else {
      throw ImportError(location: "answers", reason: "expected an object")
    }
    // Room for every answer at once: grown as filled, the table was rehashed ~5 times.
    var answers = [String: JSONValue](minimumCapacity: members.count)
    var notes: [String] = []
    for member in members {
      if answers[member.key] == nil {
        answers[member.key] = member.value
      } else {
        notes.append("answer \(member.key) appears more than once; all kept")
      }
    }
    var run = TaskRun(
      taskIdentifier: definition?.taskIdentifier ?? defaultTaskIdentifier,
      runUUID: NameBasedUUID.make(name: source, content: bytes), source: source)
    var known: Set<String> = []
    if let definition {
      var builder = SurveyRunBuilder(answers: answers)
      for question in definition.questions {
        if let step = builder.step(for: question) { run.steps.append(step) }
      }
      notes += builder.notes
      known = definition.questionIDs
    }
    // Answers without a definition (or unknown to it) keep their shape-inferred types.
    var unknown: [String] = []
    for member in members where !known.contains(member.key) {
      let results = SurveyAnswerTyping.results(id: member.key, type: nil, value: member.value)
      run.steps.append(StepRecord(identifier: member.key, results: results))
      unknown.append(member.key)
    }
    if definition != nil, !unknown.isEmpty {
      notes.append("answers not in the survey definition: \(unknown.joined(separator: ", "))")
    }
    return (run, notes)
  }
}

/// Walks a definition's questions against one submission's answers.
struct SurveyRunBuilder {
  let answers: [String: JSONValue]
  var notes: [String] = []

  /// The step of a top-level question and its sub-questions, or nil when nothing was presented.
  mutating func step(for question: SurveyQuestion) -> StepRecord? {
    let shown: Bool? = question.showIf.map { $0.isMet(answers) } ?? true
    var results = self.results(for: question, shown: shown)
    for sub in question.subQuestions {
      // A sub-question is presented only with its parent (three-valued: nil = cannot tell).
      let own: Bool? = sub.showIf.map { $0.isMet(answers) } ?? true
      let subShown: Bool? =
        shown == false || own == false ? false : (shown == nil || own == nil ? nil : true)
      results += self.results(for: sub, shown: subShown)
    }
    return results.isEmpty ? nil : StepRecord(identifier: question.id, results: results)
  }

  private mutating func results(for question: SurveyQuestion, shown: Bool?) -> [ResultRecord] {
    guard let answer = answers[question.id] else {
      switch shown {
      case true?:
        return [
          ResultRecord(
            identifier: question.id,
            className: SurveyAnswerTyping.className(question.questionType),
            answerType: SurveyAnswerTyping.answerType(question.questionType), answer: .skipped)
        ]
      case nil:
        notes.append(
          "\(question.id) unanswered and its show_if uses a custom condition: "
            + "treated as not presented")
        return []
      case false?:
        return []
      }
    }
    if shown == false {
      notes.append("\(question.id) answered but hidden by show_if when submitted; answer kept")
    }
    var results = SurveyAnswerTyping.results(
      id: question.id, type: question.questionType, value: answer)
    flagValidation(question, answer: answer, results: &results)
    return results
  }

  /// Marks results whose text breaks a `validations` rule (never changes or drops them).
  private mutating func flagValidation(
    _ question: SurveyQuestion, answer: JSONValue, results: inout [ResultRecord]
  ) {
    // A dict answer's texts by label (the first of a repeated label), made once: searched per
    // result, an answer of many labels took quadratic time (found by fuzzing).
    var textsByLabel: [String: String?]?
    for index in results.indices {
      let itemID = results[index].identifier
      let checked: (String, [SurveyValidation])?
      if itemID == question.id, let text = answer.stringValue {
        checked = (text, question.validations)
      } else if itemID == question.id, let other = question.otherOption,
        let text = answer[other]?.stringValue
      {
        checked = (text, question.otherValidations)
      } else if !question.validations.isEmpty, itemID.hasPrefix(question.id + "."),
        let members = answer.objectMembers
      {
        let label = String(itemID.dropFirst(question.id.count + 1))
        if textsByLabel == nil {
          var texts: [String: String?] = [:]
          for member in members where texts[member.key] == nil {
            texts[member.key] = .some(member.value.stringValue)
          }
          textsByLabel = texts
        }
        let text = textsByLabel?[label] ?? nil
        checked = text.map { ($0, question.validations.filter { $0.forLabel == label }) }
      } else {
        checked = nil
      }
      guard let (text, rules) = checked, !text.isEmpty,
        let broken = rules.first(where: { $0.passes(text, answers: answers) == false })
      else { continue }
      let message = broken.failMessage ?? broken.summary
      results[index].extra.append(Field("validation_error", .string(message)))
      notes.append("\(itemID): answer breaks validation \"\(broken.summary)\" (\(message))")
    }
  }
}
