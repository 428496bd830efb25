// SurveyNative's `equals` on objects: members matched by name, whatever the objects' size.
import RKTestSupport
import XCTest

@testable import RKImport

final class SurveyComparisonTests: XCTestCase {
  /// The member-by-member search every object comparison used before large objects were
  /// looked up by name: the reference the lookup must agree with.
  private func searchedEqual(_ left: JSONValue, _ right: JSONValue) -> Bool {
    guard case .object(let a) = left, case .object(let b) = right else {
      return SurveyComparison.areEqual(left, right)
    }
    return a.count == b.count
      && a.allSatisfy { member in
        b.contains { $0.key == member.key && searchedEqual($0.value, member.value) }
      }
  }

  /// Objects of up to 40 members (the lookup starts above 16), names repeated, values of
  /// several kinds (numbers equal to Booleans, nested objects; no null, which equals nothing
  /// and would make every large object unequal), shuffled copies and changed ones: the
  /// lookup answers as the search does.
  func testObjects_LookedUpByName_AsSearched() {
    var random = SplitMix(seed: 1_028)
    let names =
      ["a", "b", "c", "café", "cafe\u{301}", "n1", "n2", "n3"] + (0..<30).map { "k\($0)" }
    let values: [JSONValue] = [
      .bool(true), .bool(false), .string("x"), .string("1"),
      .number(JSONNumber(text: "1", double: 1, isInteger: true)),
      .number(JSONNumber(text: "0", double: 0, isInteger: true)),
      .object([JSONMember("n", .bool(true))]), .array([.string("x")]),
    ]
    var equalCount = 0  // of more than 16 members, where the lookup is used
    for round in 0..<3_000 {
      let count = Int.random(in: 0...40, using: &random)
      let members = (0..<count).map { _ in
        JSONMember(names.randomElement(using: &random)!, values.randomElement(using: &random)!)
      }
      var other = members.shuffled(using: &random)
      if Int.random(in: 0..<3, using: &random) == 0, !other.isEmpty {
        let index = Int.random(in: 0..<other.count, using: &random)
        other[index].value = values.randomElement(using: &random)!
      }
      if Int.random(in: 0..<6, using: &random) == 0, !other.isEmpty {
        other[0].key = names.randomElement(using: &random)!
      }
      let left = JSONValue.object(members)
      let right = JSONValue.object(other)
      let expected = searchedEqual(left, right)
      XCTAssertEqual(SurveyComparison.areEqual(left, right), expected, "round \(round)")
      if expected, count > 16 { equalCount += 1 }
    }
    XCTAssertGreaterThan(equalCount, 100, "large objects found equal")
  }
}
