// Per-task state of the wide pivot: the questions and options seen, in a stable order.
import RKModel
import RKTable

/// A question of a task, identified by step id and item id.
struct QuestionKey: Hashable {
  var step: String
  var item: String
}

/// What the pivot knows about one question: its kinds of values and its options.
struct WideQuestion {
  var key: QuestionKey
  var answerType: AnswerType?
  /// Kinds of value cells seen (`ValueKinds`), for the column type.
  var kinds: ValueKinds = []
  /// A choice question (from its type or answers, or options in the task definition).
  var isChoice = false
  /// Evidence of several selections: more than one value, or a choice result whose
  /// `questionType` is not 2 (SingleChoice, stable in every ResearchKit version, formats.md
  /// §3.3). Only such questions get 0/1 option columns.
  var allowsSeveral = false
  /// Option value texts by registration ordinal (1-based in keys, 0-based here).
  var options: [WideOption] = []
  var optionOrdinals: [String: Int] = [:]
  /// Options from the task definition come first, in its order.
  var definedOptionCount = 0
}

struct WideOption {
  var text: String
  /// The value when the option was first seen as a number (sorts numerically).
  var number: Double?
}

/// Value kinds seen in a column.
struct ValueKinds: OptionSet {
  let rawValue: UInt8
  static let bool = ValueKinds(rawValue: 1)
  static let number = ValueKinds(rawValue: 2)
  static let instant = ValueKinds(rawValue: 4)
  static let text = ValueKinds(rawValue: 8)

  init(rawValue: UInt8) { self.rawValue = rawValue }

  init(_ cell: Cell) {
    switch cell {
    case .empty: self = []
    case .bool: self = .bool
    case .number, .integer, .seconds: self = .number
    case .instant: self = .instant
    case .text: self = .text
    }
  }

  /// The column type: one kind gives its type, none or a mix gives string.
  var columnType: ColumnType {
    switch self {
    case .bool: return .boolean
    case .number: return .number
    case .instant: return .datetime
    default: return .string
    }
  }
}

/// Questions of one task, in presentation order merged across runs: a question first seen in
/// a later run goes right after the question that preceded it in that run; one that opens its
/// run goes before the run's first known question, or at the end when the run has none. Runs
/// that branch differently thus still give the task's order.
final class WideTask {
  let taskID: String
  // Unchecked exclusivity (here and below): reached for every run and answer by the one
  // thread that registers runs; a runtime check costs ~60 instructions an access.
  @exclusivity(unchecked) private(set) var questions: [WideQuestion] = []
  @exclusivity(unchecked) private var ordinals: [QuestionKey: Int] = [:]
  /// Doubly linked presentation order over question ordinals (-1: none).
  @exclusivity(unchecked) private var next: [Int] = []
  @exclusivity(unchecked) private var prior: [Int] = []
  @exclusivity(unchecked) private var head = -1
  @exclusivity(unchecked) private var tail = -1
  @exclusivity(unchecked) private(set) var runCount = 0
  /// Questions by their position in recent runs (`recentOrdinal`).
  @exclusivity(unchecked) private var recent = RecentPlaces<(key: QuestionKey, ordinal: Int)>()
  /// The layout built for the current state; reset by every change (`dropLayout`).
  var cachedLayout: WideLayout?

  init(taskID: String, definition: TaskDefinition?) {
    self.taskID = taskID
    var previous: Int?
    for question in definition?.questions ?? [] {
      let ordinal = register(
        QuestionKey(step: question.stepIdentifier, item: question.itemIdentifier),
        after: previous)
      previous = ordinal
      for option in question.options where questions[ordinal].optionOrdinals[option.value] == nil {
        _ = self.option(option.value, number: nil, question: ordinal)
        questions[ordinal].definedOptionCount += 1
        questions[ordinal].isChoice = true
      }
    }
  }

  /// Forgets the cached layout. Asked first: assigning nil to the optional destroyed the value
  /// held (~60 instructions) even when there was none, at every result of every run.
  private func dropLayout() {
    if cachedLayout != nil { cachedLayout = nil }
  }

  func countRun() {
    runCount += 1
    recent.startRun()
    dropLayout()
  }

  /// The ordinal of the question at `index` of the current run, if the last runs had `key`
  /// there or a few places on (`RecentPlaces`): comparing keys costs less than hashing one.
  @inline(__always)
  func recentOrdinal(at index: Int, key: QuestionKey) -> Int? {
    recent.find(at: index, key: key) { noted, key in
      noted.pointee.key == key ? noted.pointee.ordinal : nil
    }
  }

  /// Remembers the question at `index` of the current run for `recentOrdinal`.
  func noteRecent(_ ordinal: Int, at index: Int, key: QuestionKey) {
    recent.note((key, ordinal), at: index)
  }

  /// The ordinal of a known question, or nil.
  func ordinal(of key: QuestionKey) -> Int? { ordinals[key] }

  /// The question's ordinal, registering it if new: after `previous` when given, else before
  /// `successor` when given, else at the end.
  func register(_ key: QuestionKey, after previous: Int?, before successor: Int? = nil) -> Int {
    if let known = ordinals[key] { return known }
    let ordinal = questions.count
    questions.append(WideQuestion(key: key))
    ordinals[key] = ordinal
    dropLayout()
    next.append(-1)
    prior.append(-1)
    let after: Int
    if let previous, previous >= 0, previous < ordinal {
      after = previous
    } else if let successor, successor >= 0, successor < ordinal {
      after = prior[successor]
    } else {
      after = tail
    }
    link(ordinal, after: after)
    return ordinal
  }

  /// Puts `ordinal` after `after` in the order (-1: at the start).
  private func link(_ ordinal: Int, after: Int) {
    let following = after >= 0 ? next[after] : head
    prior[ordinal] = after
    next[ordinal] = following
    if after >= 0 { next[after] = ordinal } else { head = ordinal }
    if following >= 0 { prior[following] = ordinal } else { tail = ordinal }
  }

  /// The option's 1-based ordinal within its question, registering it if new.
  func option(_ text: String, number: Double?, question: Int) -> Int {
    // Few options: comparing texts costs less than hashing one.
    if questions[question].options.count <= 16 {
      if let known = questions[question].options.firstIndex(where: { $0.text == text }) {
        return known + 1
      }
    } else if let known = questions[question].optionOrdinals[text] {
      return known + 1
    }
    let ordinal = questions[question].options.count
    questions[question].options.append(WideOption(text: text, number: number))
    questions[question].optionOrdinals[text] = ordinal
    dropLayout()
    return ordinal + 1
  }

  func update(_ question: Int, _ change: (inout WideQuestion) -> Void) {
    change(&questions[question])
    dropLayout()
  }

  /// Question ordinals in presentation order.
  var orderedQuestions: [Int] {
    var result: [Int] = []
    result.reserveCapacity(questions.count)
    var current = head
    while current >= 0 && result.count < questions.count {
      result.append(current)
      current = next[current]
    }
    return result
  }
}
