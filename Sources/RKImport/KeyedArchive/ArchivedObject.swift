// One encoded object of a keyed archive: its class and its keys, looked up in place.

/// An object dictionary in `$objects` with a `$class`, read lazily: keys are compared in the
/// byte buffer and values resolved only when asked for.
struct ArchivedObject {
  /// Held without reference counting: an `ArchivedObject` is only used while its archive is
  /// alive (`KeyedArchiveImporter` and `ArchiveInspector` keep it alive around decoding), and
  /// copies are made on every lookup.
  let archiveRef: Unmanaged<KeyedArchive>
  /// The archive, for lookups off the hot path (each use retains and releases it around the
  /// call; the hot ones go through `withArchive`, which does not).
  var archive: KeyedArchive { archiveRef.takeUnretainedValue() }
  /// The object's number in `$objects` (its UID).
  let uid: Int
  /// How many objects and containers lie between the root and this object.
  let depth: Int
  /// What resolving the object found (class, keys, pairs).
  let resolved: ResolvedObject

  init(archive: KeyedArchive, uid: Int, depth: Int, resolved: ResolvedObject) {
    archiveRef = Unmanaged.passUnretained(archive)
    self.uid = uid
    self.depth = depth
    self.resolved = resolved
  }

  /// The object's dictionary (checked when the object was resolved).
  var header: PlistObjectHeader {
    PlistObjectHeader(
      ref: archive.objectRefs[uid], type: .dictionary, info: 0,
      payloadOffset: resolved.payloadOffset, count: resolved.count)
  }
  var classIndex: Int { resolved.classIndex }
  /// The Foundation type the class decodes as, if any (copied from the class record).
  var foundation: FoundationClass? { resolved.foundation }
  /// The `FieldKey`s among the object's keys (all, when some key could not be read).
  var knownKeys: FieldKeySet { resolved.keys }

  var archiveClass: ArchiveClass { archive.classes[classIndex] }
  var className: String { archive.classes[classIndex].name }
  /// The class name followed by its ancestors, most specific first.
  var classChain: [String] { archive.classes[classIndex].chain }
  /// The family that decodes this object as a result, chosen once per class.
  var resultFamily: ResultFamilyKind { archive.classes[classIndex].family }
  /// How error messages name this object: `object 17 (ORKChoiceQuestionResult)`.
  var location: String { "object \(uid) (\(className))" }

  /// The plist reference stored under `key`, or nil when the key is absent.
  /// Keys starting with `$` are looked up escaped (`$$key`, formats.md §1.2).
  func ref(forKey key: String) throws(ImportError) -> Int? {
    var stored = key.utf8.first == UInt8(ascii: "$") ? "$" + key : key
    let plist = archive.plist
    let header = self.header
    switch stored.withUTF8({ plist.scanKeys(header, for: $0) }) {
    case .found(let index): return try plist.childRef(header, header.count + index)
    case .absent: return nil
    case .undecided: break
    }
    for index in 0..<header.count {
      if plist.string(ref: try plist.childRef(header, index), equals: stored) {
        return try plist.childRef(header, header.count + index)
      }
    }
    return nil
  }

  /// The plist reference stored under the first `key`, or nil when the key is absent.
  @inline(__always)
  func ref(forKey key: FieldKey) throws(ImportError) -> Int? {
    guard knownKeys.contains(key) else { return nil }
    let plist = archive.plist
    let keyIDs = archive.keyIDs
    let header = self.header
    let wanted = KeySlot.known(key)
    for index in 0..<header.count
    where keyIDs.slot(try plist.childRef(header, index), in: plist) == wanted {
      return try plist.childRef(header, header.count + index)
    }
    return nil
  }

  /// `body` on the archive, borrowed without retaining it: a method called on `archive` is
  /// bracketed by a retain and a release (~45 instructions), and a lookup calls one or two.
  /// (`_withUnsafeGuaranteedRef` rethrows untyped errors: a `Result` carries the typed one.)
  @inline(__always)
  func withArchive<T, Failure: Error>(
    _ body: (KeyedArchive) throws(Failure) -> T
  ) throws(Failure) -> T {
    try archiveRef._withUnsafeGuaranteedRef { archive in
      Result { () throws(Failure) -> T in try body(archive) }
    }.get()
  }

  /// The first pair under `key` among the object's stored pairs, or nil when it is absent;
  /// only for objects with `resolved.pairStart >= 0`.
  @inline(__always)
  private func pair(_ key: FieldKey) -> KeyPair? {
    let code = key.rawValue
    var pair = archive.pairs + resolved.pairStart
    let end = pair + resolved.count
    while pair < end {
      if pair.pointee.code == code { return pair.pointee }
      pair += 1
    }
    return nil
  }

  /// The plist object stored in place under `key` (not a UID), when the object's pairs are
  /// stored; nil otherwise (the caller then takes the general path).
  @inline(__always)
  func inlineRef(forKey key: FieldKey) -> Int? {
    guard knownKeys.contains(key), resolved.pairStart >= 0, let pair = pair(key), !pair.isUID
    else { return nil }
    return pair.number
  }

  /// The UID stored under `key`, when the object's pairs are stored and the value is one;
  /// nil otherwise (the caller then takes the general path).
  @inline(__always)
  func uidValue(forKey key: FieldKey) -> Int? {
    guard knownKeys.contains(key), resolved.pairStart >= 0, let pair = pair(key), pair.isUID
    else { return nil }
    return pair.number
  }

  /// The value under `key`: nil when absent, `.null` for `$null`.
  @inline(__always)
  func value(forKey key: FieldKey) throws(ImportError) -> ArchiveValue? {
    guard knownKeys.contains(key) else { return nil }
    return try locate(key) { () throws(ImportError) -> ArchiveValue? in
      if resolved.pairStart >= 0 {
        guard let pair = pair(key) else { return nil }
        let depth = depth + 1
        if pair.isUID {
          return try withArchive { archive throws(ImportError) in
            try archive.value(uid: UInt64(pair.number), depth: depth)
          }
        }
        return try withArchive { archive throws(ImportError) in
          try archive.resolve(ref: pair.number, depth: depth)
        }
      }
      guard let ref = try ref(forKey: key) else { return nil }
      return try archive.resolve(ref: ref, depth: depth + 1)
    }
  }

  /// Whether `key` is present at all (even when it holds `$null`).
  func hasKey(_ key: FieldKey) throws(ImportError) -> Bool {
    // Stored pairs answer without scanning the plist's keys (their value references were all
    // in range, so the scan could not have thrown).
    if resolved.pairStart >= 0 { return knownKeys.contains(key) && pair(key) != nil }
    return try ref(forKey: key) != nil
  }

  /// The value under `key`: nil when absent, `.null` for `$null`.
  func value(forKey key: String) throws(ImportError) -> ArchiveValue? {
    try locate(key) { () throws(ImportError) -> ArchiveValue? in
      guard let ref = try ref(forKey: key) else { return nil }
      return try archive.resolve(ref: ref, depth: depth + 1)
    }
  }

  /// Every key except `$class`, unescaped, in archive order, with its plist reference.
  func entries() throws(ImportError) -> [(key: String, ref: Int)] {
    var result = [(key: String, ref: Int)]()
    result.reserveCapacity(header.count)
    try forEachEntry { key, ref in result.append((key, ref)) }
    return result
  }

  /// Calls `body` with every key except `$class`, unescaped, in archive order, and the plist
  /// reference of its value.
  func forEachEntry(_ body: (String, Int) -> Void) throws(ImportError) {
    let plist = archive.plist
    let names = archive.keyNames
    let header = self.header
    for index in 0..<header.count {
      let keyRef = try plist.childRef(header, index)
      var key: String
      if let known = names.name(keyRef) {
        key = known
      } else {
        let keyHeader = try plist.header(keyRef)
        guard keyHeader.type == .string else {
          throw ImportError(location: location, reason: "a key is \(keyHeader.type.phrase)")
        }
        key = plist.string(keyHeader)
        names.remember(key, for: keyRef)
      }
      if key.utf8.first == UInt8(ascii: "$") {
        if key == "$class" { continue }
        if key.hasPrefix("$$") { key.removeFirst() }
      }
      body(key, try plist.childRef(header, header.count + index))
    }
  }

  /// `locate(key.name, body)`, naming the key only when an error needs it: the lookups run it
  /// on every present value.
  @inline(__always)
  func locate<T>(
    _ key: FieldKey, _ body: () throws(ImportError) -> T
  ) throws(ImportError) -> T {
    try locate(naming: key.name, body)
  }

  /// Runs `body`, giving errors that lack a place this object and key as their location.
  func locate<T>(
    _ key: String, _ body: () throws(ImportError) -> T
  ) throws(ImportError) -> T {
    try locate(naming: key, body)
  }

  @inline(__always)
  private func locate<T>(
    naming key: @autoclosure () -> String, _ body: () throws(ImportError) -> T
  ) throws(ImportError) -> T {
    do {
      return try body()
    } catch {
      guard error.location.isEmpty else { throw error }
      throw ImportError(location: "\(location) \(key())", reason: error.reason)
    }
  }

  /// The error for a value of the wrong type, e.g. `expected an array, found a string`.
  func mismatch(_ key: String, expected: String, found value: ArchiveValue) -> ImportError {
    ImportError(
      location: "\(location) \(key)",
      reason: "expected \(expected), found \(archive.describe(value))")
  }
}
