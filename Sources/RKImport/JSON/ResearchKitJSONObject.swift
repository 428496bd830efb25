// ORKESerializer JSON syntax for the ResearchKit decoders: typed lookups over JSON objects.
import RKModel

/// One JSON object of an ORKESerializer document (formats.md §4) seen as a `ResultObject`.
///
/// The class chain is `_class` plus ancestors from `ResearchKitJSONClasses`; locations are
/// JSON paths such as `$.results[2].results[0] (ORKChoiceQuestionResult)`. A nested object
/// without `_class` (a postal address, a region) is an object with an empty class name.
struct ResearchKitJSONObject {
  let object: JSONItem
  /// The `FieldKey`s its members are named by (a name is a key's when it equals the key's
  /// name as a String): a lookup by `FieldKey` of any other key is nil without a scan of the
  /// members (the decoders ask for many keys an object does not have).
  let fieldKeys: FieldKeySet
  /// A member is named by no `FieldKey` (and is not `_class`).
  let hasOtherNames: Bool
  let className: String
  let classChain: [String]
  /// Where this object sits, made into its JSON path only when an error or a note names it.
  let trail: JSONPathTrail

  /// The JSON path of this object, `$` for the document's root.
  var path: String { trail.text }

  /// The object `value`, found at `trail`, or nil when `value` is not a JSON object.
  init?(_ value: JSONItem, trail: JSONPathTrail) {
    guard value.isObject else { return nil }
    object = value
    let names = value.document.fieldKeys(ofObject: value.index)
    (fieldKeys, hasOtherNames) = (names.keys, names.hasOtherNames)
    self.trail = trail
    let classValue = names.classValue.map { JSONItem(document: value.document, index: $0) }
    let className = classValue?.stringValue ?? ""
    self.className = className
    if className.isEmpty {
      classChain = []
    } else {
      classChain = ResearchKitJSONClasses.chain(of: className) { key in value[key] != nil }
    }
  }

  var location: String { className.isEmpty ? path : "\(path) (\(className))" }

  /// The value under `key`, following the nested form of keys a keyed archive flattens
  /// (`coordinate.latitude`, `region.center.latitude`…); nil when absent.
  func raw(_ key: String) -> JSONItem? {
    if let value = object[key] { return value }
    // Only keys starting as a nested form does are looked up: the dictionary hashed every
    // absent key.
    guard let initial = key.utf8.first, Self.nestedRouteInitials[Int(initial)],
      let route = Self.nestedRoutes[key]
    else { return nil }
    var value = object
    for step in route {
      guard let next = value[step] else { return nil }
      value = next
    }
    return value
  }

  /// ORKLocation's keys as ORK_ENCODE_COORDINATE and `-encodeWithCoder:` write them, mapped to
  /// ORKESerializer's `dictionaryFromCoordinate` / `dictionaryFromCircularRegion` forms
  /// (formats.md §3.2, §4.2).
  /// Per byte value, whether a key of `nestedRoutes` starts with it (a table, not a `Set`:
  /// hashing the byte cost ~200 instructions a lookup).
  private static let nestedRouteInitials: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for key in nestedRoutes.keys { if let first = key.utf8.first { table[Int(first)] = true } }
    return table
  }()

  private static let nestedRoutes: [String: [String]] = [
    "coordinate.latitude": ["coordinate", "latitude"],
    "coordinate.longitude": ["coordinate", "longitude"],
    "region.center.latitude": ["region", "coordinate", "latitude"],
    "region.center.longitude": ["region", "coordinate", "longitude"],
    "region.radius": ["region", "radius"],
    "region.identifier": ["region", "identifier"],
  ]

  /// Whether a lookup of `key` may find a value: a member is named by it, or it is a nested
  /// form's key.
  func mayHold(_ key: FieldKey) -> Bool {
    fieldKeys.contains(key) || Self.nestedRouteKeys.contains(key)
  }

  /// The `FieldKey`s named like a nested form's key.
  private static let nestedRouteKeys: FieldKeySet = {
    var keys = FieldKeySet()
    for name in nestedRoutes.keys { if let key = FieldKey.named(name) { keys.insert(key) } }
    return keys
  }()

  /// The non-null value under `key`, or nil.
  func present(_ key: String) -> JSONItem? {
    guard let value = raw(key), !value.isNull else { return nil }
    return value
  }

  /// The error for a value of the wrong type, e.g. `expected an array, found a string`.
  func mismatch(_ key: String, expected: String, found value: JSONItem) -> ImportError {
    failure(key, "expected \(expected), found \(value.kindDescription)")
  }

  /// Reads `key` with `read`, turning a nil result for a present value into a type error.
  func typed<T>(
    _ key: String, _ expected: String, _ read: (JSONItem) -> T?
  ) throws(ImportError) -> T? {
    guard let value = present(key) else { return nil }
    guard let result = read(value) else { throw mismatch(key, expected: expected, found: value) }
    return result
  }

  /// The nested object `value` under `key` (element `index` of it when an array), if it is
  /// an object.
  func child(_ value: JSONItem, key: String, index: Int? = nil) -> ResearchKitJSONObject? {
    ResearchKitJSONObject(value, trail: JSONPathTrail(parent: trail, key: key, index: index))
  }
}

extension ResearchKitJSONObject {
  func keys() throws(ImportError) -> [String] {
    (object.objectMembers ?? []).compactMap { $0.key == "_class" ? nil : $0.key }
  }

  func hasKey(_ key: String) throws(ImportError) -> Bool { raw(key) != nil }

  func isPresent(_ key: String) throws(ImportError) -> Bool { present(key) != nil }

  func string(_ key: String) throws(ImportError) -> String? {
    try typed(key, "a string") { $0.stringValue }
  }

  func number(_ key: String) throws(ImportError) -> NumberValue? {
    try typed(key, "a number", ResearchKitJSONValues.numberValue)
  }

  func bool(_ key: String) throws(ImportError) -> Bool? {
    try typed(key, "a Boolean") { value in
      if let flag = value.boolValue { return flag }
      return value.numberValue.map { $0.double != 0 }
    }
  }

  func instant(_ key: String) throws(ImportError) -> Instant? {
    try typed(key, "a date like 2019-05-27T00:35:06-0700") { value in
      value.dateText?.instant
    }
  }

  func uuidString(_ key: String) throws(ImportError) -> String? {
    try typed(key, "a UUID") { value in value.stringValue.flatMap(ResearchKitJSONValues.uuidText) }
  }

  /// ORKESerializer writes an NSTimeZone as its `secondsFromGMT` when serialized (§4.2), which
  /// loses daylight saving: a Los Angeles device in March writes -28800 even for a birthday in
  /// July. The date answer's own text carries the device zone's offset at that instant
  /// (`1984-07-02T00:00:00-0700`), so when the two differ by one hour at most (the same zone
  /// in and out of daylight saving) the written offset is used; it keeps the local date that
  /// a keyed archive's named zone gives.
  func timeZone(_ key: String) throws(ImportError) -> TimeZoneInfo? {
    let zone = try typed(key, "a time zone (seconds from GMT)") { value -> TimeZoneInfo? in
      if let name = value.stringValue { return TimeZoneInfo(name: name) }
      // NSTimeZone accepts offsets up to 18 hours.
      guard let seconds = value.numberValue?.int64Value, abs(seconds) <= 18 * 3600 else {
        return nil
      }
      return TimeZoneInfo(secondsFromGMT: Int(seconds))
    }
    guard key == "timeZone", let recorded = zone?.secondsFromGMT,
      let written = present("dateAnswer")?.dateText?
        .secondsFromGMT,
      abs(written - recorded) <= 3600
    else { return zone }
    return TimeZoneInfo(secondsFromGMT: written)
  }

  func calendarIdentifier(_ key: String) throws(ImportError) -> String? {
    try typed(key, "a calendar identifier") { $0.stringValue }
  }

  func timeOfDay(_ key: String) throws(ImportError) -> TimeOfDay? {
    try typed(key, "a time of day like 08:30") { value in
      value.stringValue.flatMap(JSONDateText.timeOfDay)
    }
  }

  func filePath(_ key: String) throws(ImportError) -> String? {
    try typed(key, "a URL or path") { value in value.stringValue.map(URLText.filePath) }
  }

  func choiceValues(_ key: String) throws(ImportError) -> [ChoiceValue]? {
    guard let value = present(key) else { return nil }
    guard let elements = value.arrayValue else {
      throw mismatch(key, expected: "an array", found: value)
    }
    var values = [ChoiceValue]()
    values.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      if element.isNull {
        values.append(.null)
      } else if let text = element.stringValue {
        values.append(.text(text))
      } else if let number = ResearchKitJSONValues.numberValue(element) {
        values.append(.number(number))
      } else {
        throw mismatch("\(key)[\(index)]", expected: "a choice value", found: element)
      }
    }
    return values
  }

  func object(_ key: String) throws(ImportError) -> ResearchKitJSONObject? {
    try typed(key, "an object") { child($0, key: key) }
  }

  func objects(_ key: String) throws(ImportError) -> [ResearchKitJSONObject]? {
    guard let value = present(key) else { return nil }
    guard let elements = value.arrayValue else {
      throw mismatch(key, expected: "an array of objects", found: value)
    }
    var objects = [ResearchKitJSONObject]()
    objects.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      guard let object = child(element, key: key, index: index) else {
        throw mismatch("\(key)[\(index)]", expected: "a ResearchKit object", found: element)
      }
      guard !object.className.isEmpty else {
        throw failure(
          "\(key)[\(index)]", "expected a ResearchKit object, found an object without \"_class\"")
      }
      objects.append(object)
    }
    return objects
  }

  func keyedValue(named key: String) throws(ImportError) -> KeyedValue? {
    guard let value = present(key) else { return nil }
    return ResearchKitJSONValues.keyedValue(of: key, value, in: className)
  }

  func isNoAnswer(_ key: String) throws(ImportError) -> Bool {
    guard let value = present(key), let marker = child(value, key: key) else {
      return false
    }
    return marker.isKind(of: "ORKNoAnswer")
  }
}

// The decoders name keys by `FieldKey`; JSON looks them up by name, and not at all when no
// member has that name (`mayHold`): each answers as its by-name form does for an absent key.
extension ResearchKitJSONObject: ResultObject {
  /// Most objects hold only keys their decoder read: told from the members' keys, without a
  /// String per name; any other member lists every field as `namedFields` does.
  func otherFields(skipping skipped: FieldKeySet) throws(ImportError) -> [Field] {
    if !hasOtherNames && fieldKeys.isSubset(of: skipped) { return [] }
    return try namedFields(skipping: skipped)
  }

  func hasKey(_ key: FieldKey) throws(ImportError) -> Bool {
    mayHold(key) ? try hasKey(key.name) : false
  }

  func isPresent(_ key: FieldKey) throws(ImportError) -> Bool {
    mayHold(key) ? try isPresent(key.name) : false
  }

  func string(_ key: FieldKey) throws(ImportError) -> String? {
    mayHold(key) ? try string(key.name) : nil
  }

  func number(_ key: FieldKey) throws(ImportError) -> NumberValue? {
    mayHold(key) ? try number(key.name) : nil
  }

  func bool(_ key: FieldKey) throws(ImportError) -> Bool? {
    mayHold(key) ? try bool(key.name) : nil
  }

  func instant(_ key: FieldKey) throws(ImportError) -> Instant? {
    mayHold(key) ? try instant(key.name) : nil
  }

  func uuidString(_ key: FieldKey) throws(ImportError) -> String? {
    mayHold(key) ? try uuidString(key.name) : nil
  }

  func timeZone(_ key: FieldKey) throws(ImportError) -> TimeZoneInfo? {
    mayHold(key) ? try timeZone(key.name) : nil
  }

  func timeOfDay(_ key: FieldKey) throws(ImportError) -> TimeOfDay? {
    mayHold(key) ? try timeOfDay(key.name) : nil
  }

  func filePath(_ key: FieldKey) throws(ImportError) -> String? {
    mayHold(key) ? try filePath(key.name) : nil
  }

  func isNoAnswer(_ key: FieldKey) throws(ImportError) -> Bool {
    mayHold(key) ? try isNoAnswer(key.name) : false
  }

  func calendarIdentifier(_ key: FieldKey) throws(ImportError) -> String? {
    mayHold(key) ? try calendarIdentifier(key.name) : nil
  }

  func choiceValues(_ key: FieldKey) throws(ImportError) -> [ChoiceValue]? {
    mayHold(key) ? try choiceValues(key.name) : nil
  }

  func object(_ key: FieldKey) throws(ImportError) -> ResearchKitJSONObject? {
    mayHold(key) ? try object(key.name) : nil
  }

  func objects(_ key: FieldKey) throws(ImportError) -> [ResearchKitJSONObject]? {
    mayHold(key) ? try objects(key.name) : nil
  }

  func keyedValue(_ key: FieldKey) throws(ImportError) -> KeyedValue? {
    mayHold(key) ? try keyedValue(named: key.name) : nil
  }
}

/// A JSON path (`$.results[2].results[0]`) kept as its parts: the text is made only when an
/// error or a note names the object (made for every object, it cost ~2 k instructions each).
final class JSONPathTrail: Sendable {
  let parent: JSONPathTrail?
  /// The member name under the parent, or the root's `$`.
  let key: String
  /// The element's index when the member (or the root) is an array.
  let index: Int?

  init(parent: JSONPathTrail?, key: String, index: Int? = nil) {
    self.parent = parent
    self.key = key
    self.index = index
  }

  /// The document's root (`$`), or its element `index` when the root is an array (`$[1]`).
  static func root(index: Int? = nil) -> JSONPathTrail {
    JSONPathTrail(parent: nil, key: "$", index: index)
  }

  var text: String {
    let own = key + (index.map { "[\($0)]" } ?? "")
    guard let parent else { return own }
    return parent.text + "." + own
  }
}
