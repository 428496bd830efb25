// Who a task run belongs to: archives carry no participant id, so it comes from the path.
import Foundation
import RKImport

/// Derives participant ids from input paths (design.md §4).
///
/// Default: the first folder below the input root (`results/P001/survey.archive` → `P001`),
/// empty when the file sits directly in the root. With a pattern, the first capture group of
/// the regular expression matched against the item's path below its input root (or the whole match when the
/// pattern has no group); empty when it does not match.
public struct ParticipantRule: @unchecked Sendable {
  // NSRegularExpression is immutable once built and documented as thread-safe.
  private let pattern: NSRegularExpression?

  public init() { pattern = nil }

  /// Throws when `regex` is not a valid regular expression.
  public init(pattern regex: String) throws {
    pattern = try NSRegularExpression(pattern: regex)
  }

  public func participantID(for item: InputItem) -> String {
    guard let pattern else { return item.folders.first ?? "" }
    let path = item.pathBelowRoot
    let range = NSRange(path.startIndex..., in: path)
    guard let match = pattern.firstMatch(in: path, range: range) else { return "" }
    let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
    guard group.location != NSNotFound, let swiftRange = Range(group, in: path) else { return "" }
    return String(path[swiftRange])
  }
}
