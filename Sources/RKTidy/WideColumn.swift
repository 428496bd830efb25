// What each column of a wide table holds, for the codebook and the data package.
import RKModel

/// One column of a `wide/<task_id>` table, with the ids it came from (column names are made
/// safe and unique, so they may differ from the ids; these fields keep the ids exactly).
public struct WideColumn: Sendable, Equatable {
  /// What the column holds.
  public enum Role: Sendable, Equatable {
    /// One of the five run columns (participant_id … task_duration_s).
    case run
    /// A question's answer (for a multiple choice: the chosen values joined with `;`).
    case answer
    /// 1 when `option` was chosen, 0 when the question was answered without it, else blank.
    case option
  }

  /// The header text.
  public var name: String
  public var role: Role
  public var stepID: String?
  public var itemID: String?
  /// The option's value text (role `.option` only).
  public var option: String?
  /// The answer type first seen for the question (nil for run columns and unseen questions).
  public var answerType: AnswerType?

  public init(
    name: String, role: Role, stepID: String? = nil, itemID: String? = nil,
    option: String? = nil, answerType: AnswerType? = nil
  ) {
    self.name = name
    self.role = role
    self.stepID = stepID
    self.itemID = itemID
    self.option = option
    self.answerType = answerType
  }
}
