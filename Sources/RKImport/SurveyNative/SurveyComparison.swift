// SurveyNative's comparison operations on JSON values, matching SurveyQuestions.swift:
// `areEqual`/`areNotEqual` (NSObject equality: numbers by value, strings exactly, a missing
// answer equals nothing), `numberComparison` (numbers or numeric strings), `contains`.

enum SurveyComparison {
  /// Whether `operation` holds between the participant's `answer` and the condition's `value`;
  /// an unknown operation is false, as SurveyNative logs and assumes.
  static func holds(_ operation: String, answer: JSONValue?, value: JSONValue) -> Bool {
    let answer = answer.flatMap { $0.isNull ? nil : $0 }
    let value: JSONValue? = value.isNull ? nil : value
    switch operation {
    case "equals":
      guard let answer, let value else { return answer == nil && value == nil }
      return areEqual(answer, value)
    case "not equals":
      guard let answer, let value else { return !(answer == nil && value == nil) }
      return !areEqual(answer, value)
    case "greater than", "greater than or equal to", "less than", "less than or equal to":
      guard let left = answer.flatMap(number), let right = value.flatMap(number) else {
        return false
      }
      switch operation {
      case "greater than": return left > right
      case "greater than or equal to": return left >= right
      case "less than": return left < right
      default: return left <= right
      }
    case "contains":
      guard let elements = answer?.arrayValue, let value else { return false }
      return elements.contains { areEqual($0, value) }
    case "not contains":
      guard let elements = answer?.arrayValue, let value else { return true }
      return !elements.contains { areEqual($0, value) }
    default:
      return false
    }
  }

  /// NSObject-style equality of JSON-bridged values: NSNumber compares by value (a Boolean is
  /// the number 0 or 1), NSString by content, never a string with a number.
  static func areEqual(_ left: JSONValue, _ right: JSONValue) -> Bool {
    switch (left, right) {
    case (.string(let a), .string(let b)): return a == b
    case (.number, .number), (.number, .bool), (.bool, .number), (.bool, .bool):
      return numericValue(left) == numericValue(right)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { areEqual($0, $1) }
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      guard b.count > 16 else {
        return a.allSatisfy { member in
          b.contains { $0.key == member.key && areEqual($0.value, member.value) }
        }
      }
      // The same test with `b`'s members found by name: a search of `b` per member was
      // quadratic (found by fuzzing: a definition's show_if value and an answer of 120,000
      // members took a minute).
      var byKey: [String: [JSONValue]] = [:]
      for member in b { byKey[member.key, default: []].append(member.value) }
      return a.allSatisfy { member in
        byKey[member.key]?.contains { areEqual($0, member.value) } == true
      }
    default: return false
    }
  }

  private static func numericValue(_ value: JSONValue) -> Double? {
    switch value {
    case .number(let number): return number.double
    case .bool(let flag): return flag ? 1 : 0
    default: return nil
    }
  }

  /// `SurveyQuestions.number(for:)`: a number, or a string Swift's `Double(_:)` accepts.
  static func number(_ value: JSONValue) -> Double? {
    switch value {
    case .number(let number): return number.double
    case .string(let text): return Double(text)
    default: return nil
    }
  }

  /// A definition value as short text for notes (definition values, never answers).
  static func text(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): return "\"\(text)\""
    case .number(let number): return number.text
    case .bool(let flag): return flag ? "true" : "false"
    default: return value.kindDescription
    }
  }
}
