// show_if conditions and validations, each operation as recoveryrecord/SurveyNative evaluates it
// (SurveyQuestions.conditionMet / numberComparison, DefaultValidator.conditionMet).
import XCTest

@testable import RKImport

final class SurveyNativeConditionTests: XCTestCase {
  private func condition(_ json: String) throws -> SurveyCondition {
    SurveyDefinitionReader.condition(try JSONParser().parse(json))
  }

  private func answers(_ json: String) throws -> [String: JSONValue] {
    let members = try XCTUnwrap(JSONParser().parse(json).objectMembers)
    return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  private func met(_ conditionJSON: String, _ answersJSON: String) throws -> Bool? {
    try condition(conditionJSON).isMet(answers(answersJSON))
  }

  func testCondition_Equals_StringsAndNumbersNeverMix() throws {
    let rule = #"{"id":"q","operation":"equals","value":"Yes"}"#
    XCTAssertEqual(try met(rule, #"{"q":"Yes"}"#), true)
    XCTAssertEqual(try met(rule, #"{"q":"yes"}"#), false)
    XCTAssertEqual(try met(rule, #"{}"#), false)  // missing answer equals nothing
    let number = #"{"id":"q","operation":"equals","value":3}"#
    XCTAssertEqual(try met(number, #"{"q":3.0}"#), true)
    XCTAssertEqual(try met(number, #"{"q":"3"}"#), false)  // NSString is never an NSNumber
  }

  func testCondition_NotEquals_MissingAnswerCountsAsDifferent() throws {
    let rule = #"{"id":"q","operation":"not equals","value":"No"}"#
    XCTAssertEqual(try met(rule, #"{"q":"Yes"}"#), true)
    XCTAssertEqual(try met(rule, #"{"q":"No"}"#), false)
    XCTAssertEqual(try met(rule, #"{}"#), true)
  }

  func testCondition_NumberComparisons_NumericStringsAccepted() throws {
    let cases: [(String, String, Bool)] = [
      ("greater than", #"{"q":"11"}"#, true), ("greater than", #"{"q":"10"}"#, false),
      ("greater than or equal to", #"{"q":"10"}"#, true),
      ("greater than or equal to", #"{"q":9.5}"#, false),
      ("less than", #"{"q":"9"}"#, true), ("less than", #"{"q":"10"}"#, false),
      ("less than or equal to", #"{"q":"10"}"#, true),
      ("less than or equal to", #"{"q":"10.5"}"#, false),
      ("greater than", #"{"q":"ten"}"#, false), ("less than", #"{}"#, false),
      ("less than", #"{"q":["1"]}"#, false),
    ]
    for (operation, answersJSON, expected) in cases {
      let rule = #"{"id":"q","operation":"\#(operation)","value":10}"#
      XCTAssertEqual(try met(rule, answersJSON), expected, "\(operation) \(answersJSON)")
    }
  }

  func testCondition_ContainsAndNotContains_OnListAnswers() throws {
    let contains = #"{"id":"music","operation":"contains","value":"Pop"}"#
    let notContains = #"{"id":"music","operation":"not contains","value":"Pop"}"#
    XCTAssertEqual(try met(contains, #"{"music":["Rock","Pop"]}"#), true)
    XCTAssertEqual(try met(contains, #"{"music":["Rock"]}"#), false)
    XCTAssertEqual(try met(contains, #"{"music":"Pop"}"#), false)  // not a list
    XCTAssertEqual(try met(notContains, #"{"music":["Rock"]}"#), true)
    XCTAssertEqual(try met(notContains, #"{"music":["Pop"]}"#), false)
    XCTAssertEqual(try met(notContains, #"{}"#), true)
  }

  func testCondition_Subid_ReadsTableAnswer() throws {
    let rule = #"{"id":"weekend","subid":"read_books","operation":"equals","value":"Yes"}"#
    XCTAssertEqual(try met(rule, #"{"weekend":{"play_sports":"No","read_books":"Yes"}}"#), true)
    XCTAssertEqual(try met(rule, #"{"weekend":{"read_books":"No"}}"#), false)
    XCTAssertEqual(try met(rule, #"{"weekend":{"play_sports":"Yes"}}"#), false)
  }

  func testCondition_UnknownOperation_False() throws {
    XCTAssertEqual(try met(#"{"id":"q","operation":"matches","value":"x"}"#, #"{"q":"x"}"#), false)
  }

  func testCondition_NestedAndOr_AsExampleQuestions() throws {
    // ExampleQuestions.json prefer_tv_books: (read Yes or Sometimes) and (tv Yes or Sometimes).
    let rule = """
      {"operation":"and","subconditions":[
        {"operation":"or","subconditions":[
          {"id":"w","subid":"read","operation":"equals","value":"Yes"},
          {"id":"w","subid":"read","operation":"equals","value":"Sometimes"}]},
        {"operation":"or","subconditions":[
          {"id":"w","subid":"tv","operation":"equals","value":"Yes"},
          {"id":"w","subid":"tv","operation":"equals","value":"Sometimes"}]}]}
      """
    XCTAssertEqual(try met(rule, #"{"w":{"read":"Sometimes","tv":"Yes"}}"#), true)
    XCTAssertEqual(try met(rule, #"{"w":{"read":"No","tv":"Yes"}}"#), false)
    XCTAssertEqual(try met(rule, #"{"w":{"read":"Yes","tv":"No"}}"#), false)
    XCTAssertEqual(try met(rule, #"{}"#), false)
  }

  func testCondition_CustomAndMalformed_UnknownOrShown() throws {
    let custom = #"{"operation":"custom","ids":["age"],"extra":{"id":"check_age"}}"#
    XCTAssertEqual(try condition(custom), .custom(ids: ["age"]))
    XCTAssertNil(try met(custom, #"{"age":"30"}"#))
    // Inside a tree a known side still decides: false and unknown = false, true or unknown = true.
    let andFalse =
      #"{"operation":"and","subconditions":[\#(custom),{"id":"q","operation":"equals","value":"x"}]}"#
    XCTAssertEqual(try met(andFalse, #"{"q":"y"}"#), false)
    XCTAssertNil(try met(andFalse, #"{"q":"x"}"#))
    let orTrue =
      #"{"operation":"or","subconditions":[\#(custom),{"id":"q","operation":"equals","value":"x"}]}"#
    XCTAssertEqual(try met(orTrue, #"{"q":"x"}"#), true)
    XCTAssertEqual(try met(#"{"foo":1}"#, #"{}"#), true)  // poorly constructed: shown
    XCTAssertEqual(try met(#"{"operation":"xor","subconditions":[]}"#, #"{}"#), true)
  }

  func testValidation_Operations_AsDefaultValidator() throws {
    let age = try answers(#"{"age":"30"}"#)
    let greater = SurveyValidation(
      operation: "greater than", value: .number(JSONNumber(text: "10", double: 10, isInteger: true))
    )
    XCTAssertEqual(greater.passes("11", answers: age), true)
    XCTAssertEqual(greater.passes("10", answers: age), false)
    XCTAssertEqual(greater.passes("abc", answers: age), false)  // not a number: fails
    let byAnswer = SurveyValidation(operation: "less than or equal to", answerToQuestionID: "age")
    XCTAssertEqual(byAnswer.passes("30", answers: age), true)
    XCTAssertEqual(byAnswer.passes("31", answers: age), false)
    XCTAssertNil(byAnswer.passes("31", answers: [:]))  // nothing to compare with
    XCTAssertEqual(byAnswer.summary, "less than or equal to answer of age")
    let equals = SurveyValidation(operation: "equals", value: .string("x"))
    XCTAssertEqual(equals.passes("x", answers: [:]), true)
    XCTAssertEqual(
      SurveyValidation(operation: "not equals", value: .string("x")).passes("x", answers: [:]),
      false)
  }
}
