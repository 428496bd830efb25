// The seam between ResearchKit semantics and the syntaxes that carry them.
import RKModel

/// One ResearchKit object as an input syntax presents it: a class chain plus typed lookups by
/// key. "One decoding of ResearchKit semantics, two syntaxes": everything in `ResearchKit/`
/// (the class table, one decoder per class family, the `questionType` numbering rule) is
/// written against this protocol only.
///
/// - Keyed archives implement it with `ArchivedObject` (class chain from `$classname` and
///   `$classes`; NSDate, NSUUID, NSDecimalNumber, NSDateComponents, NSTimeZone, NSURL… decoded
///   by the archive layer).
/// - ORKESerializer JSON (formats.md §4) can implement it with a JSON object: the chain is
///   `[_class]` plus known ancestors, `instant` parses `yyyy-MM-dd'T'HH:mm:ssZ` strings,
///   `timeZone` reads seconds from GMT, `timeOfDay` reads `"HH:mm"`, `isNoAnswer` looks at
///   `noAnswerType`.
///
/// Contract for every lookup: return nil when the key is absent or holds null; throw an
/// `ImportError` whose location names `location` and the key when the value has another
/// type; never trap on input. Messages never include answer values.
protocol ResultObject {
  /// The class as the input names it (`ORKChoiceQuestionResult`, or an app subclass).
  var className: String { get }
  /// `className` followed by its ancestors, most specific first.
  var classChain: [String] { get }
  /// How errors name this object, e.g. `object 17 (ORKChoiceQuestionResult)`.
  var location: String { get }
  /// The family that decodes this object as a child result (from `classChain`).
  var resultFamily: ResultFamilyKind { get }

  /// Every key in input order, without the class marker.
  func keys() throws(ImportError) -> [String]
  /// The value under any key, generically, by name (keys that are not a `FieldKey`).
  func keyedValue(named key: String) throws(ImportError) -> KeyedValue?
  /// Every key in input order, without the class marker, decoded generically, except the
  /// `FieldKey`s in `skipped` (app and fork additions such as `questionText`).
  func otherFields(skipping skipped: FieldKeySet) throws(ImportError) -> [Field]
  /// Whether `key` is present, even if it holds null.
  func hasKey(_ key: FieldKey) throws(ImportError) -> Bool
  /// Whether `key` holds a non-null value.
  func isPresent(_ key: FieldKey) throws(ImportError) -> Bool

  func string(_ key: FieldKey) throws(ImportError) -> String?
  /// A number with exact text (plist numbers, NSDecimalNumber, JSON numbers).
  func number(_ key: FieldKey) throws(ImportError) -> NumberValue?
  /// A number's value as an Int when it is whole and fits (nil when absent, null, fractional
  /// or out of range); throws as `number(_:)` does for a value that is no number.
  func integer(_ key: FieldKey) throws(ImportError) -> Int?
  /// A boolean; numbers count as true when nonzero.
  func bool(_ key: FieldKey) throws(ImportError) -> Bool?
  func instant(_ key: FieldKey) throws(ImportError) -> Instant?
  /// A UUID as upper-case hyphenated text.
  func uuidString(_ key: FieldKey) throws(ImportError) -> String?
  func timeZone(_ key: FieldKey) throws(ImportError) -> TimeZoneInfo?
  /// A calendar identifier such as `gregorian`.
  func calendarIdentifier(_ key: FieldKey) throws(ImportError) -> String?
  /// Date components holding an hour and minute.
  func timeOfDay(_ key: FieldKey) throws(ImportError) -> TimeOfDay?
  /// A file location: relative paths and `file://` URLs, percent-decoded.
  func filePath(_ key: FieldKey) throws(ImportError) -> String?
  /// An array of choice values (strings, numbers, dates, nulls).
  func choiceValues(_ key: FieldKey) throws(ImportError) -> [ChoiceValue]?
  /// A nested ResearchKit object.
  func object(_ key: FieldKey) throws(ImportError) -> Self?
  /// An array of nested ResearchKit objects.
  func objects(_ key: FieldKey) throws(ImportError) -> [Self]?
  /// `objects(key)`, handed out one by one: `count` gets their number, then `body` each, in
  /// order, once all are read (so errors in reading them come first, as with `objects`).
  /// Nothing when the key is absent.
  func forEachObject(
    _ key: FieldKey, count: (Int) -> Void, body: (Self) throws(ImportError) -> Void
  ) throws(ImportError)
  /// Any value, generically (nested objects as `.object(className:fields:)`).
  func keyedValue(_ key: FieldKey) throws(ImportError) -> KeyedValue?
  /// Whether `key` holds an `ORKNoAnswer` (`ORKDontKnowAnswer`) marker.
  func isNoAnswer(_ key: FieldKey) throws(ImportError) -> Bool
  /// Whether the class or one of its ancestors is `known` (archives answer from flags set
  /// once per class record instead of comparing names per object).
  func isKind(of known: KnownClass) -> Bool
}

/// The classes the decoders test objects for, by ancestry; each raw value is its own bit.
enum KnownClass: UInt8, CaseIterable {
  case taskResult = 1
  case stepResult = 2
  case noAnswer = 4
  case dontKnowAnswer = 8

  var name: String {
    switch self {
    case .taskResult: "ORKTaskResult"
    case .stepResult: "ORKStepResult"
    case .noAnswer: "ORKNoAnswer"
    case .dontKnowAnswer: "ORKDontKnowAnswer"
    }
  }

  var bit: UInt8 { rawValue }

  /// The known classes in `chain`, one bit per case.
  static func bits(in chain: [String]) -> UInt8 {
    var bits: UInt8 = 0
    for known in allCases where chain.contains(known.name) { bits |= known.bit }
    return bits
  }
}

extension ResultObject {
  func forEachObject(
    _ key: FieldKey, count: (Int) -> Void, body: (Self) throws(ImportError) -> Void
  ) throws(ImportError) {
    guard let objects = try objects(key) else { return }
    count(objects.count)
    for object in objects { try body(object) }
  }

  func integer(_ key: FieldKey) throws(ImportError) -> Int? {
    try number(key).flatMap { Int(exactly: $0.double) }
  }

  var resultFamily: ResultFamilyKind { ResultFamilies.family(forClassChain: classChain) }

  func otherFields(skipping skipped: FieldKeySet) throws(ImportError) -> [Field] {
    try namedFields(skipping: skipped)
  }

  /// Every key of the object but those in `skipped`, by name, in object order (the
  /// unknown-field listing both syntaxes share; the archive first checks cheaply whether any is
  /// left).
  func namedFields(skipping skipped: FieldKeySet) throws(ImportError) -> [Field] {
    var fields = [Field]()
    for key in try keys() {
      if let known = FieldKey.named(key) {
        if !skipped.contains(known) { fields.append(Field(key, try keyedValue(known) ?? .null)) }
      } else {
        fields.append(Field(key, try keyedValue(named: key) ?? .null))
      }
    }
    return fields
  }

  /// Whether the class or one of its ancestors is `name`.
  func isKind(of name: String) -> Bool { classChain.contains(name) }

  func isKind(of known: KnownClass) -> Bool { classChain.contains(known.name) }

  /// An ImportError at `key` of this object.
  func failure(_ key: String, _ reason: String) -> ImportError {
    ImportError(location: "\(location) \(key)", reason: reason)
  }
}
