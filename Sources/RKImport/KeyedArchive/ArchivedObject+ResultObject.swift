// Keyed-archive syntax for the ResearchKit decoders: typed lookups over archived objects.
import RKModel

extension ArchivedObject: ResultObject {
  func keys() throws(ImportError) -> [String] {
    var keys = [String]()
    keys.reserveCapacity(header.count)
    try forEachEntry { key, _ in keys.append(key) }
    return keys
  }

  func isPresent(_ key: FieldKey) throws(ImportError) -> Bool {
    // Without resolving the value: the key asked about is the one the answer is read from.
    if let uid = uidValue(forKey: key), archive.isSurelyNotNull(uid: uid) { return true }
    return try present(key) != nil
  }

  /// True when `key` is surely absent or `$null` (UID 0, which `KeyedArchive.value(uid:depth:)`
  /// reads as null before anything else), as the general lookup would find. ResearchKit
  /// archives nil properties as `$null` (`userInfo`, `enabledAssistiveTechnology` on every
  /// step and result): this answers them in a few instructions, where the lookup cost ~180.
  @inline(__always)
  private func isAbsentOrNull(_ key: FieldKey) -> Bool {
    !knownKeys.contains(key) || uidValue(forKey: key) == 0
  }

  /// The non-null value under `key`, or nil. Inlined into each lookup: called, it cost the
  /// null keys above most of their saving (the slice 586.6 M against 581.7 M).
  @inline(__always)
  private func present(_ key: FieldKey) throws(ImportError) -> ArchiveValue? {
    guard !isAbsentOrNull(key) else { return nil }
    guard let value = try value(forKey: key) else { return nil }
    if case .null = value { return nil }
    return value
  }

  /// Reads `key` with `read`, turning a nil result for a present value into a type error.
  private func typed<T>(
    _ key: FieldKey, _ expected: String,
    _ read: (ArchiveValue) throws(ImportError) -> T?
  ) throws(ImportError) -> T? {
    guard let value = try present(key) else { return nil }
    let result = try locate(key) { () throws(ImportError) -> T? in try read(value) }
    guard let result else { throw mismatch(key.name, expected: expected, found: value) }
    return result
  }

  func string(_ key: FieldKey) throws(ImportError) -> String? {
    if let uid = uidValue(forKey: key),
      let text = withArchive({ $0.plainString(uid: uid) })
    {
      return text
    }
    return try typed(key, "a string") { v throws(ImportError) in try archive.string(v) }
  }

  func number(_ key: FieldKey) throws(ImportError) -> NumberValue? {
    if let number = plainNumber(key) { return number }
    return try typed(key, "a number") { v throws(ImportError) in try archive.number(v) }
  }

  func bool(_ key: FieldKey) throws(ImportError) -> Bool? {
    if let double = plainDouble(key) { return double != 0 }
    return try typed(key, "a boolean") { v throws(ImportError) in try archive.bool(v) }
  }

  func integer(_ key: FieldKey) throws(ImportError) -> Int? {
    // The plain path makes no number text: `questionType` is read once per result.
    if let double = plainDouble(key) { return Int(exactly: double) }
    return try number(key).flatMap { Int(exactly: $0.double) }
  }

  /// The plist number (integer, real or boolean) under `key`, stored in place or as an object
  /// of `$objects` (how NSNumber answers and `questionType` are archived), read from the plist
  /// directly; nil for anything else, which the general path reads (and reports). No visit is
  /// counted for plain values on either path.
  ///
  /// (The document's method is called, not passed to `flatMap`: a method reference captured
  /// a copy of the document, a retain and a release per number.)
  private func plainNumber(_ key: FieldKey) -> NumberValue? {
    withArchive { archive in
      guard let header = plainNumberHeader(key, in: archive) else { return nil }
      return archive.plist.number(header)
    }
  }

  /// `plainNumber(key)?.double`, without the number's text.
  private func plainDouble(_ key: FieldKey) -> Double? {
    withArchive { archive in
      guard let header = plainNumberHeader(key, in: archive) else { return nil }
      return archive.plist.numberDouble(header)
    }
  }

  /// The header of the plist object `plainNumber` reads under `key`.
  @inline(__always)
  private func plainNumberHeader(
    _ key: FieldKey, in archive: KeyedArchive
  ) -> PlistObjectHeader? {
    let ref: Int
    if let inline = inlineRef(forKey: key) {
      ref = inline
    } else {
      guard let uid = uidValue(forKey: key), uid > 0, uid < archive.objectRefs.count else {
        return nil
      }
      ref = archive.objectRefs[uid]
    }
    return try? archive.plist.header(ref)
  }

  func instant(_ key: FieldKey) throws(ImportError) -> Instant? {
    if let uid = uidValue(forKey: key),
      let seconds = withArchive({
        $0.plainDateSeconds(uid: uid, depth: depth + 1)
      })
    {
      return Instant(secondsSinceReferenceDate: seconds)
    }
    return try typed(key, "a date") { v throws(ImportError) in try archive.instant(v) }
  }

  func uuidString(_ key: FieldKey) throws(ImportError) -> String? {
    if let uid = uidValue(forKey: key), let text = archive.plainUUID(uid: uid, depth: depth + 1) {
      return text
    }
    return try typed(key, "a UUID") { v throws(ImportError) in try archive.uuid(v) }
  }

  func timeZone(_ key: FieldKey) throws(ImportError) -> TimeZoneInfo? {
    try typed(key, "a time zone") { v throws(ImportError) -> TimeZoneInfo? in
      if case .object(let zone) = v, zone.foundation == .timeZone {
        return TimeZoneInfo(name: try archive.timeZoneName(zone))
      }
      return try archive.string(v).map { TimeZoneInfo(name: $0) }
    }
  }

  func calendarIdentifier(_ key: FieldKey) throws(ImportError) -> String? {
    try typed(key, "a calendar") { v throws(ImportError) -> String? in
      if case .object(let calendar) = v, calendar.foundation == .calendar {
        return try archive.stringField(calendar, .nsIdentifier) ?? ""
      }
      return try archive.string(v)
    }
  }

  func timeOfDay(_ key: FieldKey) throws(ImportError) -> TimeOfDay? {
    try typed(key, "date components") { v throws(ImportError) -> TimeOfDay? in
      guard case .object(let object) = v, object.foundation == .dateComponents
      else { return nil }
      let components = try archive.dateComponents(object)
      return TimeOfDay(
        hour: components.value("hour") ?? 0, minute: components.value("minute") ?? 0,
        second: components.value("second"))
    }
  }

  func filePath(_ key: FieldKey) throws(ImportError) -> String? {
    try typed(key, "a URL or path") { v throws(ImportError) in
      try archive.urlString(v).map(URLText.filePath)
    }
  }

  func choiceValues(_ key: FieldKey) throws(ImportError) -> [ChoiceValue]? {
    if let array = plainObjectArray(key) {
      // A plain NSArray, read in place as `objects(_:)` reads one (the usual answer).
      return try locate(key) { () throws(ImportError) -> [ChoiceValue]? in
        if let values = try plainChoiceValues(array) { return values }
        return try choiceValues(of: .inline(array), key: key)
      }
    }
    return try typed(key, "an array") { v throws(ImportError) in try choiceValues(of: v, key: key) }
  }

  /// The choice values in a plain NSArray's inline `array` when each is the UID of a string
  /// stored as bytes or of a plist integer or real (the usual answers), read in place:
  /// `choiceValues(of:key:)`'s values, without a resolved value per element. nil, nothing
  /// counted, for anything else (which that reads, reporting what is wrong).
  private func plainChoiceValues(
    _ array: PlistObjectHeader
  ) throws(ImportError) -> [ChoiceValue]? {
    try withArchive { archive throws(ImportError) -> [ChoiceValue]? in
      let plist = archive.plist
      let uidCount = UInt64(archive.objectRefs.count)
      var values = [ChoiceValue]()
      values.reserveCapacity(array.count)
      for index in 0..<array.count {
        guard let elementRef = try? plist.childRef(array, index),
          let element = try? plist.header(elementRef), element.type == .uid
        else { return nil }
        let uid = plist.uid(element)
        guard uid > 0, uid < uidCount else { return nil }
        if let text = archive.plainString(uid: Int(uid)) {
          values.append(.text(text))
          continue
        }
        guard let header = try? plist.header(archive.objectRefs[Int(uid)]),
          header.type == .integer || header.type == .real, let number = plist.number(header)
        else { return nil }
        values.append(.number(number))
      }
      // The visit `forEachElement` counts for the inline array (its elements count none).
      try archive.spendVisit(at: nil, depth: depth + 1)
      return values
    }
  }

  /// The choice values of collection `value` (under `key`); nil when it is no collection.
  private func choiceValues(
    of value: ArchiveValue, key: FieldKey
  ) throws(ImportError) -> [ChoiceValue]? {
    guard let elements = try archive.elements(value, depth: depth + 1) else { return nil }
    var values = [ChoiceValue]()
    values.reserveCapacity(elements.count)
    for element in elements {
      if case .null = element {
        values.append(.null)
      } else if let text = try archive.string(element) {
        values.append(.text(text))
      } else if let number = try archive.number(element) {
        values.append(.number(number))
      } else if let instant = try archive.instant(element) {
        values.append(.date(instant))
      } else if case .object(let object) = element, object.foundation == .null {
        values.append(.null)
      } else {
        throw mismatch(key.name, expected: "choice values", found: element)
      }
    }
    return values
  }

  func object(_ key: FieldKey) throws(ImportError) -> ArchivedObject? {
    try typed(key, "an object") { v in
      if case .object(let object) = v { return object }
      return nil
    }
  }

  func objects(_ key: FieldKey) throws(ImportError) -> [ArchivedObject]? {
    let value: ArchiveValue
    if let array = plainObjectArray(key) {
      value = .inline(array)
    } else {
      guard let present = try present(key) else { return nil }
      value = present
    }
    var objects = [ArchivedObject]()
    try readObjects(of: value, key: key) {
      objects.reserveCapacity($0)
    } collect: {
      objects.append($0)
    }
    return objects
  }

  func forEachObject(
    _ key: FieldKey, count: (Int) -> Void, body: (ArchivedObject) throws(ImportError) -> Void
  ) throws(ImportError) {
    guard let array = plainObjectArray(key) else {
      // Anything but a plain NSArray (which `objects` would not read in place either).
      guard let objects = try objects(key) else { return }
      count(objects.count)
      for object in objects { try body(object) }
      return
    }
    // As `objects(_:)` reads a plain NSArray, into temporary storage instead of an array: a
    // step's results and a task's steps are such arrays, and each was an allocation. An empty
    // array is walked too: the walk counts its visit and checks its depth.
    try withUnsafeTemporaryAllocation(of: ArchivedObject.self, capacity: array.count) {
      objects throws(ImportError) in
      var found = 0
      // An inline array of n elements holds at most n objects.
      try readObjects(of: .inline(array), key: key) { _ in
      } collect: { object in
        objects.initializeElement(at: found, to: object)
        found += 1
      }
      count(found)
      for index in 0..<found { try body(objects[index]) }
    }
  }

  /// The inline array under `key` when it holds a plain NSArray or NSSet, read in place (see
  /// `KeyedArchive.plainArray`); nil for anything else.
  private func plainObjectArray(_ key: FieldKey) -> PlistObjectHeader? {
    guard let uid = uidValue(forKey: key) else { return nil }
    return withArchive { $0.plainArray(uid: uid, depth: depth + 1) }
  }

  /// Walks collection `value` (under `key`), passing each object to `collect`, after `reserve`
  /// with the number of elements. An element that is not an object is reported once every
  /// element is resolved, as resolution errors come first; a value that is no collection is
  /// reported too.
  private func readObjects(
    of value: ArchiveValue, key: FieldKey, reserve: (Int) -> Void,
    collect: (ArchivedObject) -> Void
  ) throws(ImportError) {
    var misfit: ArchiveValue?
    let isCollection = try locate(key) { () throws(ImportError) -> Bool in
      try withArchive { archive throws(ImportError) in
        try archive.forEachElement(of: value, depth: depth + 1, reserve: reserve) { element in
          if case .object(let object) = element {
            collect(object)
          } else if misfit == nil {
            misfit = element
          }
        }
      }
    }
    guard isCollection else {
      throw mismatch(key.name, expected: "an array of objects", found: value)
    }
    if let misfit { throw mismatch(key.name, expected: "an array of objects", found: misfit) }
  }

  func keyedValue(_ key: FieldKey) throws(ImportError) -> KeyedValue? {
    guard let value = try present(key) else { return nil }
    return try locate(key) { () throws(ImportError) in
      try archive.keyedValue(value, depth: depth + 1)
    }
  }

  func keyedValue(named key: String) throws(ImportError) -> KeyedValue? {
    guard let value = try value(forKey: key) else { return nil }
    if case .null = value { return nil }
    return try locate(key) { () throws(ImportError) in
      try archive.keyedValue(value, depth: depth + 1)
    }
  }

  func otherFields(skipping skipped: FieldKeySet) throws(ImportError) -> [Field] {
    // Known keys are told apart without a String; the rest (rare) go by name.
    var skippedOrClass = skipped
    skippedOrClass.insert(.classMarker)
    if resolved.pairStart >= 0 {
      // As many keys in the set as pairs: every pair's key is a distinct `FieldKey` (a code
      // that is none is not in the set, a key stored twice counts once), so the set tells.
      if knownKeys.count == resolved.count && knownKeys.isSubset(of: skippedOrClass) {
        return []
      }
      let pairs = archive.pairs + resolved.pairStart
      for index in 0..<resolved.count {
        let code = pairs[index].code
        guard let key = FieldKey(rawValue: code), skippedOrClass.contains(key) else {
          return try namedFields(skipping: skipped)
        }
      }
      return []
    }
    let plist = archive.plist
    let keyIDs = archive.keyIDs
    let header = self.header
    var needsNames = false
    for index in 0..<header.count {
      switch keyIDs.slot(try plist.childRef(header, index), in: plist) {
      case .known(let key) where skippedOrClass.contains(key): continue
      default: needsNames = true
      }
      if needsNames { break }
    }
    guard needsNames else { return [] }
    return try namedFields(skipping: skipped)
  }

  func isNoAnswer(_ key: FieldKey) throws(ImportError) -> Bool {
    // Told without resolving the value only for the key the answer is then read from (the
    // typed key, or the legacy one when there is no typed key or it holds the same object):
    // that read reports whatever is wrong with the value, as resolving it here did.
    let markers = KnownClass.noAnswer.bit | KnownClass.dontKnowAnswer.bit
    if let uid = uidValue(forKey: key),
      key == .typedAnswerOrNoAnswer || !knownKeys.contains(.typedAnswerOrNoAnswer)
        || uidValue(forKey: .typedAnswerOrNoAnswer) == uid,
      archive.isSurelyNone(of: markers, uid: uid)
    {
      return false
    }
    guard case .object(let object)? = try present(key) else { return false }
    return object.isKind(of: .noAnswer) || object.isKind(of: .dontKnowAnswer)
  }

  func isKind(of known: KnownClass) -> Bool {
    archive.classes.knownClasses(classIndex) & known.bit != 0
  }
}
