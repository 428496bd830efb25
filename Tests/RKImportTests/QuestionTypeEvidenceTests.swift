// The numbering evidence per question result, value by value, against formats.md §3.3's table.
import RKModel
import XCTest

@testable import RKImport

final class QuestionTypeEvidenceTests: XCTestCase {
  /// formats.md §3.3: the `questionType` values each family can carry under the ≤ 1.4 and the
  /// ≥ 1.5 numbering (Numeric: Decimal/Integer, and Height, which moved).
  private let table: [AnswerType: (old: Set<Int>, new: Set<Int>)] = [
    .boolean: ([6], [7]),
    .text: ([7], [8]),
    .timeOfDay: ([8], [9]),
    .timeInterval: ([11], [12]),
    .location: ([12, 13], [14, 15]),
    .numeric: ([4, 5, 12], [5, 6, 13, 14, 17, 18]),
    .date: ([9, 10], [10, 11]),
  ]

  func testNote_EveryFamilyAndValue_DecidesAsTheTableSays() {
    for answerType in AnswerType.allCases
    where answerType != .multipleComponent
      && answerType != .ses
    {
      for value in -2..<40 {
        var evidence = QuestionTypeEvidence()
        evidence.note(answerType, questionType: value)
        let sets = table[answerType]
        let isOld = sets?.old.contains(value) ?? false
        let isNew = sets?.new.contains(value) ?? false
        let expected: QuestionTypeNumbering? =
          isOld && !isNew ? .throughVersion1Point4 : isNew && !isOld ? .fromVersion1Point5 : nil
        XCTAssertEqual(evidence.numbering, expected, "\(answerType) \(value)")
      }
    }
  }

  func testNote_NoTypeOrNewOnlyFamilies() {
    var none = QuestionTypeEvidence()
    none.note(.boolean, questionType: nil)
    XCTAssertNil(none.numbering)
    for family in [AnswerType.multipleComponent, .ses] {
      var evidence = QuestionTypeEvidence()
      evidence.note(family, questionType: nil)
      XCTAssertEqual(evidence.numbering, .fromVersion1Point5, "\(family)")
    }
  }

  func testNote_ConflictingEvidence_DecidesNothing() {
    var evidence = QuestionTypeEvidence()
    evidence.note(.boolean, questionType: 6)
    XCTAssertEqual(evidence.numbering, .throughVersion1Point4)
    evidence.note(.text, questionType: 8)
    XCTAssertNil(evidence.numbering)
  }
}
