// The `--drop-free-text` rules, answer kind by answer kind (documented on `PrivacyFilter`).
import RKModel

extension PrivacyFilter {
  /// Blanks participant-typed text in results; one per run, built from the task's definition.
  struct FreeTextEraser {
    /// Listed option values per item, keyed by step and item id, for questions with options.
    private var optionsByStepItem: [String: Set<String>] = [:]
    /// The same, keyed by item id alone, for inputs whose step ids differ from the definition's.
    private var optionsByItem: [String: Set<String>] = [:]

    init(definition: TaskDefinition?) {
      for question in definition?.questions ?? [] where !question.options.isEmpty {
        let values = Set(question.options.map(\.value))
        optionsByStepItem[Self.key(question.stepIdentifier, question.itemIdentifier), default: []]
          .formUnion(values)
        optionsByItem[question.itemIdentifier, default: []].formUnion(values)
      }
    }

    /// Blanks the free text of one result in place.
    func erase(_ record: inout ResultRecord, step: String) {
      switch record.answer {
      case .text(let text):
        if !text.isEmpty { record.answer = .text("") }
      case .choices(let values):
        record.answer = .choices(erasedChoices(values, of: record, step: step))
      case .location(var location):
        location.userInput = location.userInput.map { _ in "" }
        location.address = location.address.map { _ in "" }
        location.addressFields = location.addressFields.map {
          Field($0.name, Self.blanked($0.value))
        }
        record.answer = .location(location)
      case .fields(let fields):
        record.answer = .fields(fields.map(Self.erased))
      case .skipped, .dontKnow, .boolean, .scale, .numeric, .date, .timeOfDay, .timeInterval,
        .components, .sesRung, .file:
        return
      }
    }

    /// Choice values with typed text blanked: all text values of a text-typed result, the
    /// typed "Other" text, and text values that are not among the item's listed options.
    private func erasedChoices(
      _ values: [ChoiceValue], of record: ResultRecord, step: String
    ) -> [ChoiceValue] {
      let isTyped =
        record.answerType == .text || record.extra.contains { $0.name == "other_option" }
      let listed =
        optionsByStepItem[Self.key(step, record.identifier)]
        ?? optionsByItem[record.identifier]
      return values.map { value in
        guard case .text(let text) = value, !text.isEmpty else { return value }
        if isTyped { return .text("") }
        if let listed, !listed.contains(text) { return .text("") }
        return value
      }
    }

    private static func key(_ step: String, _ item: String) -> String { step + "\u{0}" + item }

    // MARK: - Generic values

    /// A generic field with its strings blanked unless its name marks an identifier.
    private static func erased(_ field: Field) -> Field {
      if case .string = field.value, isIdentifierName(field.name) { return field }
      return Field(field.name, erasedValue(field.value))
    }

    private static func erasedValue(_ value: KeyedValue) -> KeyedValue {
      switch value {
      case .string(let text): return text.isEmpty ? value : .string("")
      case .data(let bytes): return bytes.isEmpty ? value : .data([])
      case .array(let items): return .array(items.map(erasedValue))
      case .dictionary(let fields): return .dictionary(fields.map(erased))
      case .object(let className, let fields):
        return .object(className: className, fields: fields.map(erased))
      case .null, .bool, .number, .date: return value
      }
    }

    /// Every string and byte string blanked, whatever the names (address parts are all text).
    private static func blanked(_ value: KeyedValue) -> KeyedValue {
      switch value {
      case .string(let text): return text.isEmpty ? value : .string("")
      case .data(let bytes): return bytes.isEmpty ? value : .data([])
      case .array(let items): return .array(items.map(blanked))
      case .dictionary(let fields):
        return .dictionary(fields.map { Field($0.name, blanked($0.value)) })
      case .object(let className, let fields):
        return .object(
          className: className, fields: fields.map { Field($0.name, blanked($0.value)) })
      case .null, .bool, .number, .date: return value
      }
    }

    /// Names whose string values are ids set by the app, not typed by the participant.
    static func isIdentifierName(_ name: String) -> Bool {
      name == "identifier" || name == "_class" || name.hasSuffix("Identifier")
        || name.hasSuffix("UUID")
    }
  }
}
