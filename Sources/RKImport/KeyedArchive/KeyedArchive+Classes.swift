// Class records ($classname/$classes), the Foundation class table, and cycle detection.

/// Foundation value types the archive layer decodes itself (formats.md §1.4).
enum FoundationClass {
  case array, set, orderedSet, dictionary, string, data, date, uuid, null, url
  case decimalNumber, number, value, dateComponents, timeZone, calendar, locale

  /// Class name → Foundation type; an unknown class decodes as its first known ancestor.
  static let byName: [String: FoundationClass] = [
    "NSArray": .array, "NSMutableArray": .array,
    "NSSet": .set, "NSMutableSet": .set, "NSCountedSet": .set,
    "NSOrderedSet": .orderedSet, "NSMutableOrderedSet": .orderedSet,
    "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary,
    "NSString": .string, "NSMutableString": .string,
    "NSData": .data, "NSMutableData": .data,
    "NSDate": .date, "NSUUID": .uuid, "NSNull": .null, "NSURL": .url,
    "NSDecimalNumber": .decimalNumber, "NSNumber": .number, "NSValue": .value,
    "NSDateComponents": .dateComponents,
    "NSTimeZone": .timeZone, "__NSLocalTimeZone": .timeZone,
    "NSCalendar": .calendar, "NSLocale": .locale,
  ]

  /// The Foundation type named `name`; only `NS…` and `__NS…` names are hashed.
  static func named(_ name: String) -> FoundationClass? {
    guard name.utf8.first == UInt8(ascii: "N") || name.utf8.first == UInt8(ascii: "_") else {
      return nil
    }
    return byName[name]
  }
}

extension KeyedArchive {
  /// The index in `classes` of the class record with UID `uid`, read once and cached.
  func archiveClass(uid: UInt64, for number: Int) throws(ImportError) -> Int {
    guard uid > 0, uid < UInt64(objectRefs.count) else {
      throw ImportError(
        location: "object \(number) $class", reason: "reference \(uid) out of range")
    }
    let slot = Int(uid)
    if let index = classes.index(ofUID: slot) { return index }
    let recordHeader = try plist.header(objectRefs[slot])
    var place: String { "object \(number) $class (object \(slot))" }
    guard recordHeader.type == .dictionary else {
      throw ImportError(location: place, reason: "class record is \(recordHeader.type.phrase)")
    }
    // First pass: the checks and the raw bytes of the record's names.
    // The archive's signature buffer, reused: one allocation per archive, not per record.
    var signature = ClassSignature()
    swap(&signature, &classes.signatureBuffer)
    defer { classes.signatureBuffer = signature }
    signature.bytes.removeAll(keepingCapacity: true)
    signature.bytes.reserveCapacity(128)
    var hasName = false
    for index in 0..<recordHeader.count {
      let keyRef = try plist.childRef(recordHeader, index)
      // Read for its checks: a malformed key object fails the record.
      _ = try plist.header(keyRef)
      let key = keyIDs.slot(keyRef, in: plist)
      let value = try plist.header(
        try plist.childRef(recordHeader, recordHeader.count + index))
      if key == .known(.classNameMarker), value.type == .string {
        signature.append(role: 1, string: value, in: plist)
        hasName = true
      } else if key == .known(.classesMarker), value.type == .array {
        for element in 0..<value.count {
          let entry = try plist.header(try plist.childRef(value, element))
          if entry.type == .string { signature.append(role: 2, string: entry, in: plist) }
        }
      }
    }
    guard hasName else {
      throw ImportError(location: place, reason: "class record without $classname")
    }
    if let known = ClassRecordCache.record(for: signature) {
      return classes.add(known, uid: slot)
    }
    let record = try decodeClassRecord(recordHeader)
    ClassRecordCache.remember(record, for: signature)
    return classes.add(record, uid: slot)
  }

  /// Decodes a class record that the first pass in `archiveClass` checked (it has a name).
  private func decodeClassRecord(
    _ recordHeader: PlistObjectHeader
  ) throws(ImportError) -> ArchiveClass {
    var name = ""
    var chain = [String]()
    for index in 0..<recordHeader.count {
      let keyRef = try plist.childRef(recordHeader, index)
      let key = keyIDs.slot(keyRef, in: plist)
      let value = try plist.header(
        try plist.childRef(recordHeader, recordHeader.count + index))
      if key == .known(.classNameMarker), value.type == .string {
        name = plist.string(value)
      } else if key == .known(.classesMarker), value.type == .array {
        for element in 0..<value.count {
          let entry = try plist.header(try plist.childRef(value, element))
          if entry.type == .string { chain.append(plist.string(entry)) }
        }
      }
    }
    if chain.first != name { chain.insert(name, at: 0) }
    let foundation = chain.lazy.compactMap(FoundationClass.named).first
    return ArchiveClass(
      name: name, chain: chain, foundation: foundation,
      family: ResultFamilies.family(forClassChain: chain))
  }

  /// Whether archive object `number` can reach itself through references (a cycle), found by
  /// a depth-first walk over plist objects that visits each at most once.
  func containsCycle(from number: Int) -> Bool {
    guard number < objectRefs.count else { return false }
    let target = objectRefs[number]
    var visited = [Bool](repeating: false, count: plist.objectCount)
    var stack = [target]
    var first = true
    while let ref = stack.popLast() {
      if ref == target, !first { return true }
      if !first {
        guard !visited[ref] else { continue }
        visited[ref] = true
      }
      first = false
      guard let header = try? plist.header(ref) else { continue }
      switch header.type {
      case .uid:
        let uid = plist.uid(header)
        if uid > 0, uid < UInt64(objectRefs.count) { stack.append(objectRefs[Int(uid)]) }
      case .array, .set:
        for index in 0..<header.count {
          if let child = try? plist.childRef(header, index) { stack.append(child) }
        }
      case .dictionary:
        for index in 0..<header.count {
          if let child = try? plist.childRef(header, header.count + index) { stack.append(child) }
        }
      default: break
      }
    }
    return false
  }
}
