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
    // A usual record is found by its names' numbers; otherwise (or when new to this thread)
    // by its signature: the checks and the raw bytes of the record's names.
    let byNames = recordByNames(recordHeader)
    if let known = byNames.record { return classes.add(known, uid: slot) }
    // The archive's signature buffer, reused: one allocation per archive, not per record.
    var signature = ClassSignature()
    swap(&signature, &classes.signatureBuffer)
    defer { classes.signatureBuffer = signature }
    signature.bytes.removeAll(keepingCapacity: true)
    signature.bytes.reserveCapacity(128)
    var hasName = readUsualSignature(recordHeader, into: &signature)
    if !hasName { hasName = try readCheckedSignature(recordHeader, into: &signature) }
    guard hasName else {
      throw ImportError(location: place, reason: "class record without $classname")
    }
    let record: ArchiveClass
    if let known = ClassRecordCache.record(for: signature) {
      record = known
    } else {
      record = try decodeClassRecord(recordHeader)
      ClassRecordCache.remember(record, for: signature)
    }
    if let key = byNames.key { classNames.remember(record, for: key) }
    return classes.add(record, uid: slot)
  }

  /// The record of a usual class record (the keys `$classname` and `$classes` once each, ASCII
  /// names, a chain of at most `ClassNameTable.longestChain`) from this thread's
  /// `ClassNameTable`, with its key; the key alone when the table does not have it yet; neither
  /// for any other record, which the signature path reads (and reports).
  private func recordByNames(
    _ record: PlistObjectHeader
  ) -> (record: ArchiveClass?, key: ClassNameTable.RecordKey?) {
    guard record.count == 2 else { return (nil, nil) }
    let classes = self.classes
    let key = plist.withObjectArea { area -> ClassNameTable.RecordKey? in
      /// The number of the ASCII string object `ref`, from the archive's memo or the table.
      func nameNumber(_ ref: UInt64) -> Int? {
        classes.nameNumber(ofString: Int(ref)) {
          guard let span = area.byteString(ref) else { return nil }
          return classNames.number(of: area.base + span.lowerBound, count: span.count)
        }
      }
      /// Whether key string `ref` is `$classname` (true), `$classes` (false) or neither (nil):
      /// NSKeyedArchiver writes each once, so the archive remembers the two references.
      func isClassName(_ ref: UInt64) -> Bool? {
        if Int(ref) == classes.classNameKeyRef { return true }
        if Int(ref) == classes.classesKeyRef { return false }
        guard let key = area.byteString(ref) else { return nil }
        if area.bytes(key, are: "$classname") {
          classes.classNameKeyRef = Int(ref)
          return true
        }
        if area.bytes(key, are: "$classes") {
          classes.classesKeyRef = Int(ref)
          return false
        }
        return nil
      }
      // The key's words, filled in as the numbers come (see `RecordKey`).
      var low: UInt64 = 0
      var high: UInt64 = 1 << 63
      var hasName = false
      var hasChain = false
      // `record` is a checked dictionary header: its four references lie in the buffer.
      for index in 0..<2 {
        let keyRef = area.reference(at: record.payloadOffset &+ index &* area.refSize)
        let valueRef = area.reference(at: record.payloadOffset &+ (2 &+ index) &* area.refSize)
        switch isClassName(keyRef) {
        case true?:
          guard !hasName, let number = nameNumber(valueRef) else { return nil }
          low |= UInt64(number)
          hasName = true
        case false?:
          // An array whose count is in its marker, its references within the object area.
          guard !hasChain, let arrayStart = area.start(of: valueRef) else { return nil }
          let marker = area.base[arrayStart]
          let count = Int(marker & 0x0F)
          guard marker >> 4 == 0xA, count <= ClassNameTable.longestChain,
            count &* area.refSize < area.tableStart &- arrayStart
          else { return nil }
          low |= UInt64(count) << 12
          for element in 0..<count {
            let entryRef = area.reference(at: arrayStart &+ 1 &+ element &* area.refSize)
            guard let number = nameNumber(entryRef) else { return nil }
            if element < 4 {
              low |= UInt64(number) << (16 &+ 12 &* element)
            } else {
              high |= UInt64(number) << (12 &* (element &- 4))
            }
          }
          hasChain = true
        case nil:
          return nil
        }
      }
      guard hasName, hasChain else { return nil }
      return ClassNameTable.RecordKey(low: low, high: high)
    }
    guard let key else { return (nil, nil) }
    return (classNames.record(for: key), key)
  }

  /// The signature of any class record (appended to `signature`), checking every key and
  /// value object it reads; whether the record has a name.
  func readCheckedSignature(
    _ recordHeader: PlistObjectHeader, into signature: inout ClassSignature
  ) throws(ImportError) -> Bool {
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
    return hasName
  }

  /// The signature of a class record of the usual shape, read straight from the buffer: keys
  /// `$classname` and `$classes` only, the name a byte string, the chain an array of byte
  /// strings (whose lengths fit the marker or a one- or two-byte integer), 1 KB in all at
  /// most. Class records are read once per class and archive, and corelibs-written archives
  /// store every key string anew (no key cache hits), so the checked pass cost ~3,800
  /// instructions a record. Every record read here passes `readCheckedSignature`'s checks
  /// and gets the same signature there; for anything else this returns false, `signature`
  /// untouched, and the checked pass reads the record.
  func readUsualSignature(
    _ record: PlistObjectHeader, into signature: inout ClassSignature
  ) -> Bool {
    let read = plist.withObjectArea { area -> Bool in
      let base = area.base
      // Built on the stack and appended once: appending piece by piece to the array checks
      // its storage each time, and a record has five or six pieces.
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch -> Bool in
        guard let out = scratch.baseAddress else { return false }
        var used = 0
        func put(role: UInt8, _ span: Range<Int>) -> Bool {
          guard span.count &+ 6 <= scratch.count &- used else { return false }
          ClassSignature.writePiece(
            role: role, payload: base + span.lowerBound,
            count: span.count, to: out + used)
          used &+= span.count &+ 6
          return true
        }
        var hasName = false
        // `record` is a checked dictionary header: its 2 × count references lie in the buffer.
        for index in 0..<record.count {
          let keyRef = area.reference(at: record.payloadOffset &+ index &* area.refSize)
          let valueRef = area.reference(
            at: record.payloadOffset &+ (record.count &+ index) &* area.refSize)
          guard let key = area.byteString(keyRef), let valueStart = area.start(of: valueRef)
          else { return false }
          // The two keys compared in place: the same test as matching the `FieldKey` by name.
          if area.bytes(key, are: "$classname") {
            guard
              let name = BPlistDocument.byteStringSpan(
                at: valueStart, in: base, end: area.tableStart),
              put(role: 1, name)
            else { return false }
            hasName = true
          } else if area.bytes(key, are: "$classes") {
            // An array whose count is in its marker, its references within the object area.
            let marker = base[valueStart]
            let count = Int(marker & 0x0F)
            guard marker >> 4 == 0xA, count != 0x0F,
              count &* area.refSize < area.tableStart &- valueStart
            else { return false }
            for element in 0..<count {
              let entryRef = area.reference(at: valueStart &+ 1 &+ element &* area.refSize)
              guard let entry = area.byteString(entryRef), put(role: 2, entry) else {
                return false
              }
            }
          } else {
            return false
          }
        }
        guard hasName else { return false }
        signature.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<used]))
        return true
      }
    }
    return read ?? false
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
      family: ResultFamilies.family(forClassChain: chain),
      knownClasses: KnownClass.bits(in: chain))
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
