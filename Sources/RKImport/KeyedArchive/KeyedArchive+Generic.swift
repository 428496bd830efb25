// Any archived value as a generic KeyedValue, and the Foundation types with several fields:
// NSDateComponents, NSTimeZone, NSCalendar, NSLocale, NSValue.
import RKModel

/// NSDateComponents fields that are defined, in the order Foundation lists them.
struct DateComponentsValue {
  var fields: [(name: String, value: Int)]

  func value(_ name: String) -> Int? { fields.first { $0.name == name }?.value }
}

extension KeyedArchive {
  /// Decodes any value generically so nothing is dropped: Foundation types by meaning,
  /// other objects as `.object(className:fields:)` with every key.
  func keyedValue(_ value: ArchiveValue, depth: Int) throws(ImportError) -> KeyedValue {
    switch value {
    case .null: return .null
    case .inline(let header):
      switch header.type {
      case .null, .uid: return .null
      case .bool: return .bool(header.info == 9)
      case .integer, .real: return plist.number(header).map { .number($0) } ?? .null
      case .date: return .date(Instant(secondsSinceReferenceDate: plist.date(header)))
      case .data: return .data(plist.data(header))
      case .string: return .string(plist.string(header))
      case .array, .set:
        return .array(try keyedValues(elements(value, depth: depth) ?? [], depth: depth + 1))
      case .dictionary:
        let entries = try dictionaryEntries(value, depth: depth) ?? []
        return .dictionary(try fields(entries, depth: depth + 1))
      }
    case .object(let object):
      return try keyedValue(object)
    }
  }

  private func keyedValue(_ object: ArchivedObject) throws(ImportError) -> KeyedValue {
    let value = ArchiveValue.object(object)
    switch object.foundation {
    case .array, .set, .orderedSet:
      let items = try elements(value, depth: object.depth) ?? []
      return .array(try keyedValues(items, depth: object.depth + 2))
    case .dictionary:
      let entries = try dictionaryEntries(value, depth: object.depth) ?? []
      return .dictionary(try fields(entries, depth: object.depth + 2))
    case .string: return try string(value).map { .string($0) } ?? .null
    case .data:
      guard case .inline(let header)? = try object.value(forKey: .nsData), header.type == .data
      else { return .null }
      return .data(plist.data(header))
    case .date: return try instant(value).map { .date($0) } ?? .null
    case .uuid: return try uuid(value).map { .string($0) } ?? .null
    case .null: return .null
    case .url: return try urlString(value).map { .string($0) } ?? .null
    case .decimalNumber: return try number(value).map { .number($0) } ?? .null
    case .timeZone: return try timeZoneName(object).map { .string($0) } ?? .null
    case .calendar, .locale:
      return try stringField(object, .nsIdentifier).map { .string($0) } ?? .null
    case .dateComponents:
      let components = try dateComponents(object)
      return .object(
        className: object.className,
        fields: components.fields.map { Field($0.name, .number(NumberValue($0.value))) })
    case .value:
      if let geometry = try geometryValue(object) { return geometry }
      return .object(className: object.className, fields: try objectFields(object))
    case .number, nil:
      return .object(className: object.className, fields: try objectFields(object))
    }
  }

  private func keyedValues(
    _ values: [ArchiveValue], depth: Int
  ) throws(ImportError) -> [KeyedValue] {
    var result = [KeyedValue]()
    result.reserveCapacity(values.count)
    for item in values { result.append(try keyedValue(item, depth: depth)) }
    return result
  }

  private func fields(
    _ entries: [(key: ArchiveValue, value: ArchiveValue)], depth: Int
  ) throws(ImportError) -> [Field] {
    var result = [Field]()
    for entry in entries {
      let name: String
      switch try keyedValue(entry.key, depth: depth) {
      case .string(let text): name = text
      case .number(let number): name = number.text
      case let other: name = "\(other)"
      }
      result.append(Field(name, try keyedValue(entry.value, depth: depth)))
    }
    return result
  }

  /// Every key of an object except `$class`, decoded generically, in archive order.
  func objectFields(_ object: ArchivedObject) throws(ImportError) -> [Field] {
    var result = [Field]()
    for (key, ref) in try object.entries() {
      let value = try object.locate(key) { () throws(ImportError) -> KeyedValue in
        try keyedValue(resolve(ref: ref, depth: object.depth + 1), depth: object.depth + 1)
      }
      result.append(Field(key, value))
    }
    return result
  }

  func stringField(_ object: ArchivedObject, _ key: FieldKey) throws(ImportError) -> String? {
    // A plain string (a leaf: no visit either way) is read in place, as `ArchivedObject.string`
    // reads one: every date answer's zone name and calendar identifier.
    if let uid = object.uidValue(forKey: key), let text = plainString(uid: uid) { return text }
    guard let value = try object.value(forKey: key) else { return nil }
    return try string(value)
  }

  /// NSTimeZone's `NS.name`.
  func timeZoneName(_ object: ArchivedObject) throws(ImportError) -> String? {
    try stringField(object, .nsName)
  }

  /// NSDateComponents in either layout: Darwin writes only defined fields plus `NS.leapMonth`;
  /// swift-corelibs writes every field with `Int.max` for undefined and `NS.isLeapMonth`.
  func dateComponents(_ object: ArchivedObject) throws(ImportError) -> DateComponentsValue {
    var result = DateComponentsValue(fields: [])
    // Room for a time of day's hour, minute and second, and a date's year, month and day:
    // grown one field at a time, the array was allocated twice per object.
    result.fields.reserveCapacity(4)
    for (key, name) in Self.dateComponentKeys {
      guard let value = try object.value(forKey: key), let number = try numberDouble(value),
        let integer = Int64(exactly: number),
        integer != Int64.max, integer != Int64(Int32.max)
      else { continue }
      result.fields.append((name, Int(integer)))
    }
    // Two calls, not a loop over an array literal: that array was an allocation per object.
    if try isTrue(object, .nsLeapMonth) { result.fields.append(("isLeapMonth", 1)) }
    if try isTrue(object, .nsIsLeapMonth) { result.fields.append(("isLeapMonth", 1)) }
    return result
  }

  /// The NSDateComponents keys and the names their fields get, in output order (a table made
  /// once: as a literal in `dateComponents` it was built for every object).
  private static let dateComponentKeys: [(FieldKey, String)] = [
    (.nsEra, "era"), (.nsYear, "year"), (.nsQuarter, "quarter"), (.nsMonth, "month"),
    (.nsDay, "day"), (.nsHour, "hour"), (.nsMinute, "minute"), (.nsSecond, "second"),
    (.nsNanosecond, "nanosecond"), (.nsWeek, "week"), (.nsWeekOfYear, "weekOfYear"),
    (.nsWeekOfMonth, "weekOfMonth"), (.nsYearForWeekOfYear, "yearForWeekOfYear"),
    (.nsWeekday, "weekday"), (.nsWeekdayOrdinal, "weekdayOrdinal"),
    (.nsDayOfYear, "dayOfYear"),
  ]

  /// Whether `object` holds true (or a nonzero number) under `key`.
  private func isTrue(_ object: ArchivedObject, _ key: FieldKey) throws(ImportError) -> Bool {
    guard let value = try object.value(forKey: key) else { return false }
    return try bool(value) == true
  }

  /// NSValue holding a point, size or rect (`NS.special` 1/2/3) as its string form, or a range
  /// (`NS.special` 4) as a location/length dictionary.
  private func geometryValue(_ object: ArchivedObject) throws(ImportError) -> KeyedValue? {
    guard let special = try object.value(forKey: .nsSpecial), let kind = try number(special)
    else { return nil }
    let keys: [Double: FieldKey] = [1: .nsPointValue, 2: .nsSizeValue, 3: .nsRectValue]
    if let key = keys[kind.double] { return try stringField(object, key).map { .string($0) } }
    guard kind.double == 4 else { return nil }
    var fields = [Field]()
    for (key, name) in [(FieldKey.nsRangeLocation, "location"), (.nsRangeLength, "length")] {
      if let value = try object.value(forKey: key), let number = try number(value) {
        fields.append(Field(name, .number(number)))
      }
    }
    return .dictionary(fields)
  }
}
