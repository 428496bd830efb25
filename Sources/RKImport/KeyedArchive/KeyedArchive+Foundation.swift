// Foundation value types in keyed archives (formats.md §1.4): strings, numbers, dates, UUIDs,
// collections, URLs. Each reader returns nil when the value has another type.
import RKModel

extension KeyedArchive {
  /// How messages name a value's type: `a string`, `an NSArray object`, `null`.
  func describe(_ value: ArchiveValue) -> String {
    switch value {
    case .null: "null"
    case .inline(let header): header.type.phrase
    case .object(let object): "an \(object.className) object"
    }
  }

  func string(_ value: ArchiveValue) throws(ImportError) -> String? {
    switch value {
    case .inline(let header) where header.type == .string: return plist.string(header)
    case .object(let object) where object.foundation == .string:
      guard case .inline(let header)? = try object.value(forKey: .nsString),
        header.type == .string
      else { return nil }
      return plist.string(header)
    default: return nil
    }
  }

  /// Integers, reals, booleans (as 1/0) and NSDecimalNumber objects, with exact text.
  func number(_ value: ArchiveValue) throws(ImportError) -> NumberValue? {
    switch value {
    case .inline(let header): return plist.number(header)
    case .object(let object) where object.foundation == .decimalNumber:
      return try DecimalNumberDecoder.decode(object)
    default: return nil
    }
  }

  /// `number(value)?.double`, without making the text of a plist number (a String, for a
  /// value only compared or converted).
  func numberDouble(_ value: ArchiveValue) throws(ImportError) -> Double? {
    if case .inline(let header) = value { return plist.numberDouble(header) }
    return try number(value)?.double
  }

  /// Booleans, and numbers read as booleans (any nonzero value is true).
  func bool(_ value: ArchiveValue) throws(ImportError) -> Bool? {
    if case .inline(let header) = value, header.type == .bool { return header.info == 9 }
    guard let number = try numberDouble(value) else { return nil }
    return number != 0
  }

  /// NSDate (`NS.time`) or a plist date.
  func instant(_ value: ArchiveValue) throws(ImportError) -> Instant? {
    switch value {
    case .inline(let header) where header.type == .date:
      return Instant(secondsSinceReferenceDate: plist.date(header))
    case .object(let object) where object.foundation == .date:
      // The most frequent object: its real read straight from the plist.
      if let ref = object.inlineRef(forKey: .nsTime), let seconds = plist.inlineDouble(ref) {
        return Instant(secondsSinceReferenceDate: seconds)
      }
      guard case .inline(let time)? = try object.value(forKey: .nsTime),
        let seconds = plist.double(time)
      else {
        throw ImportError(location: "\(object.location) NS.time", reason: "missing or not a number")
      }
      return Instant(secondsSinceReferenceDate: seconds)
    default: return nil
    }
  }

  /// NSUUID (`NS.uuidbytes`, 16 bytes) as upper-case hyphenated text; strings pass through.
  func uuid(_ value: ArchiveValue) throws(ImportError) -> String? {
    guard case .object(let object) = value, object.foundation == .uuid else {
      return try string(value)
    }
    guard case .inline(let header)? = try object.value(forKey: .nsUUIDBytes),
      header.type == .data, header.count == 16
    else {
      throw ImportError(location: "\(object.location) NS.uuidbytes", reason: "expected 16 bytes")
    }
    return uuidText(at: header.payloadOffset)
  }

  /// The 16 bytes at `start` of the plist as upper-case hyphenated UUID text.
  func uuidText(at start: Int) -> String {
    plist.bytes.withUnsafeBufferPointer { bytes in
      // The caller's header was decoded within the plist: its 16 bytes are there.
      precondition(start >= 0 && bytes.count - start >= 16, "UUID bytes beyond the plist")
      return UUIDText.hyphenated(bytes.baseAddress! + start)
    }
  }

  /// Elements of NSArray, NSSet, NSOrderedSet objects or inline plist arrays, resolved.
  func elements(_ value: ArchiveValue, depth: Int) throws(ImportError) -> [ArchiveValue]? {
    var result = [ArchiveValue]()
    let isCollection = try forEachElement(of: value, depth: depth) { count in
      result.reserveCapacity(count)
    } body: { element in
      result.append(element)
    }
    return isCollection ? result : nil
  }

  /// Calls `body` with each element of an NSArray, NSSet or NSOrderedSet object or an inline
  /// plist array, resolved, in order, after `reserve` with their number; false when `value`
  /// is no collection. Walks the plist array in place instead of building an array.
  func forEachElement(
    of value: ArchiveValue, depth: Int, reserve: (Int) -> Void,
    body: (ArchiveValue) -> Void
  ) throws(ImportError) -> Bool {
    switch value {
    case .inline(let header) where header.type == .array || header.type == .set:
      try spendVisit(at: nil, depth: depth)
      reserve(header.count)
      for index in 0..<header.count {
        body(try resolve(ref: try plist.childRef(header, index), depth: depth + 1))
      }
      return true
    case .object(let object):
      switch object.foundation {
      case .array, .set:
        guard let inner = try object.value(forKey: .nsObjects) else { return true }
        return try forEachElement(of: inner, depth: object.depth, reserve: reserve, body: body)
      case .orderedSet:
        let elements = try orderedSetElements(object)
        reserve(elements.count)
        for element in elements { body(element) }
        return true
      default: return false
      }
    default: return false
    }
  }

  /// NSOrderedSet stores one key per element: `NS.object.0`, `NS.object.1`, …
  private func orderedSetElements(_ object: ArchivedObject) throws(ImportError) -> [ArchiveValue] {
    var indexed = [(Int, Int)]()
    for (key, ref) in try object.entries() where key.hasPrefix("NS.object.") {
      guard let index = Int(key.dropFirst(10)) else { continue }
      indexed.append((index, ref))
    }
    indexed.sort { $0.0 < $1.0 }
    var result = [ArchiveValue]()
    for (_, ref) in indexed { result.append(try resolve(ref: ref, depth: object.depth + 1)) }
    return result
  }

  /// Key–value pairs of an NSDictionary object (`NS.keys`/`NS.objects`) or inline dictionary.
  func dictionaryEntries(
    _ value: ArchiveValue, depth: Int
  ) throws(ImportError) -> [(key: ArchiveValue, value: ArchiveValue)]? {
    switch value {
    case .inline(let header) where header.type == .dictionary:
      try spendVisit(at: nil, depth: depth)
      var result = [(key: ArchiveValue, value: ArchiveValue)]()
      for index in 0..<header.count {
        let key = try resolve(ref: try plist.childRef(header, index), depth: depth + 1)
        let item = try resolve(
          ref: try plist.childRef(header, header.count + index), depth: depth + 1)
        result.append((key, item))
      }
      return result
    case .object(let object) where object.foundation == .dictionary:
      let keys = try object.value(forKey: .nsKeys).map { v throws(ImportError) in
        try elements(v, depth: object.depth)
      }
      let values = try object.value(forKey: .nsObjects).map { v throws(ImportError) in
        try elements(v, depth: object.depth)
      }
      let keyList = (keys ?? []) ?? []
      let valueList = (values ?? []) ?? []
      guard keyList.count == valueList.count else {
        throw ImportError(
          location: object.location, reason: "NS.keys and NS.objects differ in length")
      }
      return Array(zip(keyList, valueList).map { (key: $0.0, value: $0.1) })
    default: return nil
    }
  }

  /// NSURL (`NS.relative` against `NS.base`) or a URL string.
  func urlString(_ value: ArchiveValue) throws(ImportError) -> String? {
    guard case .object(let object) = value, object.foundation == .url else {
      return try string(value)
    }
    let relative = try object.value(forKey: .nsRelative).flatMap { v throws(ImportError) in
      try string(v)
    }
    guard let relative else { return nil }
    guard
      let base = try object.value(forKey: .nsBase).flatMap({ v throws(ImportError) in
        try urlString(v)
      })
    else { return relative }
    return URLText.resolve(relative, against: base)
  }
}
