// The status column of answers.csv, derived from the answer alone (design.md §4).
import RKModel

/// Whether a presented question was answered, skipped or answered "I don't know".
///
/// A question that was not presented at all has no status: it has no row (design.md §4).
public enum AnswerStatus: String, Sendable, CaseIterable {
  case answered
  case skipped
  case dontKnow = "dont_know"

  public init(_ answer: borrowing Answer) {
    switch answer {
    case .skipped: self = .skipped
    case .dontKnow: self = .dontKnow
    // An empty selection counts as skipped (design.md §4).
    case .choices(let values) where values.isEmpty: self = .skipped
    case .components(let values, _) where values.isEmpty: self = .skipped
    default: self = .answered
    }
  }
}
