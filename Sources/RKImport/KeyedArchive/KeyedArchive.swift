// The NSKeyedArchiver container (formats.md §1): $top, $objects, UIDs and class records.

/// What a key or UID resolves to.
enum ArchiveValue {
  /// UID 0 (`$null`) or a plist null.
  case null
  /// A plist value stored in place: a number, string, data, date or an inline container.
  case inline(PlistObjectHeader)
  /// An encoded object: a dictionary in `$objects` with a `$class`.
  case object(ArchivedObject)
}

/// One class record: `$classname` and the `$classes` chain, most specific first.
struct ArchiveClass {
  var name: String
  var chain: [String]
  /// The Foundation type this class decodes as (first known entry of the chain), if any.
  var foundation: FoundationClass?
  /// The ResearchKit family that decodes results of this class.
  var family: ResultFamilyKind
  /// `KnownClass.bits(in: chain)`.
  var knownClasses: UInt8
}

/// A keyed archive over its plist: resolves UIDs to objects, caches class records, and guards
/// against hostile graphs (depth cap, cycle detection, a budget of object visits).
///
/// Not thread-safe: one archive is decoded by one thread.
final class KeyedArchive {
  /// Deepest allowed chain of nested objects and containers.
  static let maximumDepth = 256

  let plist: BPlistDocument
  /// `$objects`: the plist object number of each archive object (index = UID).
  let objectRefs: [Int]
  /// `$top`'s root entry (`root`, or the only key), as a UID.
  let rootUID: Int
  /// Class records, read once per class UID.
  let classes: ClassTable
  /// Objects already resolved, by UID, with their key/value pairs.
  let objects: ObjectTable
  /// `objects.pairs`, read without going through `objects` (no reference counting).
  let pairs: UnsafeMutablePointer<KeyPair>
  /// Key strings already decoded, by plist object number: NSKeyedArchiver stores each key
  /// once, so every object of a class shares them.
  let keyNames: KeyNameCache
  /// The `FieldKey` of each key string, by plist object number.
  let keyIDs: KeyIDTable
  /// This thread's Strings of short texts (the archive is read on one thread).
  let shortStrings = ShortStringCache.current
  /// This thread's class records by the numbers of their names.
  let classNames = ClassNameTable.current
  /// Object visits left (one cell: plain storage, no exclusivity check per visit); stops
  /// exponential re-decoding of shared objects.
  private let visitsLeft: UnsafeMutablePointer<Int>

  deinit { visitsLeft.deallocate() }

  /// Opens a binary or XML plist keyed archive.
  init(bytes: [UInt8]) throws(ImportError) {
    // Read through a local until the end: each read of the stored property copied the
    // document (its bytes retained and released), ~20 times an archive.
    let plist: BPlistDocument
    if bytes.starts(with: BPlistDocument.magic) {
      plist = try BPlistDocument(bytes: bytes)
    } else if XMLPlistReader.looksLikeXML(bytes) {
      plist = try BPlistDocument(bytes: try XMLPlistReader.transcode(bytes))
    } else {
      throw ImportError(reason: "not a property list (no bplist or XML header)")
    }
    self.plist = plist
    keyNames = KeyNameCache(objectCount: plist.objectCount)
    keyIDs = KeyIDTable(objectCount: plist.objectCount)
    let top = try plist.header(plist.topObject)
    guard top.type == .dictionary else {
      throw ImportError(reason: "not a keyed archive: the top object is \(top.type.phrase)")
    }
    var objectArray: PlistObjectHeader?
    var topTable: PlistObjectHeader?
    var archiver: PlistObjectHeader?
    for index in 0..<top.count {
      let key = try plist.header(try plist.childRef(top, index))
      let value = try plist.header(try plist.childRef(top, top.count + index))
      // A key is one of the three at most: later comparisons are skipped once one matched.
      if plist.string(key, equals: "$objects") {
        objectArray = value
      } else if plist.string(key, equals: "$top") {
        topTable = value
      } else if plist.string(key, equals: "$archiver") {
        archiver = value
      }
    }
    guard archiver?.type == .string, let objectArray, objectArray.type == .array,
      let topTable, topTable.type == .dictionary
    else {
      throw ImportError(reason: "not a keyed archive: $archiver, $objects or $top missing")
    }
    let refs = try Self.objectRefs(of: objectArray, in: plist)
    objectRefs = refs
    classes = ClassTable(objectCount: refs.count)
    // Each pair stands for two references in the plist, so distinct dictionaries fit.
    objects = ObjectTable(
      objectCount: refs.count, pairLimit: plist.bytes.count / (2 * plist.refSize) + 16)
    pairs = objects.pairs
    rootUID = try Self.rootUID(in: topTable, plist: plist, objectCount: refs.count)
    // Allocated last: nothing throws after this, so `deinit` always frees it.
    visitsLeft = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    visitsLeft.initialize(to: 4 * plist.bytes.count + 10_000)
  }

  /// The plist object number of each element of `$objects` (a checked array header), read
  /// straight from the buffer: an archive has about as many as it has plist objects.
  private static func objectRefs(
    of objectArray: PlistObjectHeader, in plist: BPlistDocument
  ) throws(ImportError) -> [Int] {
    let count = objectArray.count
    let refSize = plist.refSize
    let objectCount = UInt64(plist.objectCount)
    var complete = true
    let refs = plist.bytes.withUnsafeBufferPointer { buffer in
      [Int](unsafeUninitializedCapacity: count) { refs, initialized in
        guard let base = buffer.baseAddress else {
          complete = false
          return
        }
        // The count is stored once, after the loop (stored per element, it was a store in
        // every iteration).
        var index = 0
        while index < count {
          let ref = BPlistDocument.readBigEndian(
            base, at: objectArray.payloadOffset &+ index &* refSize, refSize)
          guard ref < objectCount else {
            complete = false
            break
          }
          refs[index] = Int(ref)
          index &+= 1
        }
        initialized = index
      }
    }
    guard complete else {
      // The checked read names the first reference out of range.
      for index in 0..<count { _ = try plist.childRef(objectArray, index) }
      throw ImportError(reason: "$objects could not be read")
    }
    return refs
  }

  private static func rootUID(
    in table: PlistObjectHeader, plist: BPlistDocument, objectCount: Int
  ) throws(ImportError) -> Int {
    var chosen: Int?
    for index in 0..<table.count {
      let key = try plist.header(try plist.childRef(table, index))
      if plist.string(key, equals: "root") || table.count == 1 {
        chosen = try plist.childRef(table, table.count + index)
      }
    }
    guard let chosen else { throw ImportError(location: "$top", reason: "no root object") }
    let value = try plist.header(chosen)
    guard value.type == .uid else {
      throw ImportError(location: "$top", reason: "root is \(value.type.phrase), not a reference")
    }
    let uid = plist.uid(value)
    guard uid < UInt64(objectCount) else {
      throw ImportError(location: "$top", reason: "root object \(uid) out of range")
    }
    return Int(uid)
  }

  /// The root object (nil when `$top` points at `$null`).
  func root() throws(ImportError) -> ArchiveValue {
    try value(uid: UInt64(rootUID), depth: 0)
  }

  /// Resolves a plist object found inside an archive object: UIDs are followed, anything
  /// else is an inline value.
  func resolve(ref: Int, depth: Int) throws(ImportError) -> ArchiveValue {
    if let uid = plist.inlineUID(ref) { return try value(uid: uid, depth: depth) }
    let header = try plist.header(ref)
    if header.type == .uid { return try value(uid: plist.uid(header), depth: depth) }
    if header.type == .null { return .null }
    return .inline(header)
  }

  /// The archive object with number `uid` (UID 0 is nil).
  func value(uid: UInt64, depth: Int) throws(ImportError) -> ArchiveValue {
    guard uid != 0 else { return .null }
    guard uid < UInt64(objectRefs.count) else {
      throw ImportError(
        reason: "reference to object \(uid) out of range (\(objectRefs.count) objects)")
    }
    let number = Int(uid)
    if let known = objects.entry(number) {
      // Resolved before: only the visit is counted again.
      try spendVisit(at: number, depth: depth)
      return .object(ArchivedObject(archive: self, uid: number, depth: depth, resolved: known))
    }
    let header = try plist.header(objectRefs[number])
    let scan = header.type == .dictionary ? try scanKeys(header) : nil
    guard let scan, let classUID = scan.classUID else {
      if let scan, scan.pairStart >= 0 { objects.releasePairs(from: scan.pairStart) }
      if header.type == .uid {
        throw ImportError(location: "object \(number)", reason: "a reference to a reference")
      }
      return header.type == .null ? .null : .inline(header)
    }
    do {
      try spendVisit(at: number, depth: depth)
    } catch {
      if scan.pairStart >= 0 { objects.releasePairs(from: scan.pairStart) }
      throw error
    }
    let classIndex = try archiveClass(uid: classUID, for: number)
    let resolved = ResolvedObject(
      payloadOffset: header.payloadOffset, count: header.count, classIndex: classIndex,
      pairStart: scan.pairStart, keys: scan.keys, foundation: classes.foundation(classIndex))
    objects.remember(resolved, for: number)
    return .object(ArchivedObject(archive: self, uid: number, depth: depth, resolved: resolved))
  }

  /// `NS.time` of archive object `uid` when it is a plain NSDate met for the first time: a
  /// dictionary of exactly `NS.time` (an 8-byte real) and `$class` (the UID of a class
  /// record, decoding as NSDate). nil for anything else, which the caller then
  /// reads through `value(uid:depth:)`, reporting what is wrong. Dates are the most frequent
  /// objects (two per task, step and result): this skips their pair storage, class lookup and
  /// object record. Counts one visit, as `value(uid:depth:)` does.
  func plainDateSeconds(uid: Int, depth: Int) -> Double? {
    // Read in place before (another reference to the same NSDate): counted as that read was.
    if let seconds = objects.plainDate(uid), depth <= Self.maximumDepth, visitsLeft.pointee > 1 {
      visitsLeft.pointee -= 1
      return seconds
    }
    guard
      let found = plainPair(
        uid: uid, depth: depth, key: .nsTime, slot: 0,
        storedKey: { base, at, available in
          available >= 8 && Self.word(base, at) == Self.nsTimeKeyWord
        },
        read: { base, _, at, available -> Double? in
          guard base[at] == 0x23, available > 8 else { return nil }
          return Double(bitPattern: BPlistDocument.readBigEndian(base, at: at + 1, 8))
        }),
      classes.foundation(found.classIndex) == .date
    else { return nil }
    visitsLeft.pointee -= 1
    objects.rememberPlainDate(found.value, for: uid)
    return found.value
  }

  /// The text of archive object `uid` when it is a plain NSUUID met for the first time: a
  /// dictionary of exactly `NS.uuidbytes` (16 bytes of data) and `$class` (the UID of a class
  /// record, decoding as NSUUID), as `uuid(_:)` writes it. nil for anything
  /// else, which the caller reads through `value(uid:depth:)`, reporting what is wrong. Every
  /// task run has one: this skips its pair storage, class lookup and object record. Counts
  /// one visit, as `value(uid:depth:)` does.
  func plainUUID(uid: Int, depth: Int) -> String? {
    guard
      let found = plainPairObject(
        uid: uid, depth: depth, key: .nsUUIDBytes, slot: 1, type: .data,
        storedKey: { base, at, available in
          available >= 13 && Self.word(base, at) == Self.nsUUIDBytesKeyHead
            && Self.word(base, at + 5) == Self.nsUUIDBytesKeyTail
        }),
      found.header.count == 16, classes.foundation(found.classIndex) == .uuid
    else { return nil }
    visitsLeft.pointee -= 1
    return uuidText(at: found.header.payloadOffset)
  }

  /// The inline array under `NS.objects` of archive object `uid` when it is a plain NSArray or
  /// NSSet met for the first time: a dictionary of exactly `NS.objects` (an inline array) and
  /// `$class` (the UID of a class record, decoding as an array or a set). nil for
  /// anything else, which the caller reads through `value(uid:depth:)`, reporting what is
  /// wrong. Step results, task results and choice answers are such arrays: this skips their
  /// pair storage, class lookup and object record. Counts the one visit `value(uid:depth:)`
  /// counts for the dictionary; the caller counts the inline array's, as `forEachElement` does.
  func plainArray(uid: Int, depth: Int) -> PlistObjectHeader? {
    guard
      let found = plainPairObject(
        uid: uid, depth: depth, key: .nsObjects, slot: 2, type: .array,
        storedKey: { base, at, available in
          available >= 11 && Self.word(base, at) == Self.nsObjectsKeyHead
            && base[at + 8] == 0x63 && base[at + 9] == 0x74 && base[at + 10] == 0x73
        })
    else { return nil }
    let foundation = classes.foundation(found.classIndex)
    guard foundation == .array || foundation == .set else { return nil }
    visitsLeft.pointee -= 1
    return found.header
  }

  /// `plainPair` for a value that is a plist object of `type` in its own right (an inline
  /// array, data): its header, decoded by the checked reader, and the class record's index.
  @inline(__always)
  private func plainPairObject(
    uid: Int, depth: Int, key: FieldKey, slot: Int, type: PlistType,
    storedKey: (_ base: UnsafePointer<UInt8>, _ at: Int, _ available: Int) -> Bool
  ) -> (header: PlistObjectHeader, classIndex: Int)? {
    guard
      let found = plainPair(
        uid: uid, depth: depth, key: key, slot: slot, storedKey: storedKey,
        read: { _, ref, _, _ in ref }),
      let header = try? plist.header(found.value), header.type == type
    else { return nil }
    return (header, found.classIndex)
  }

  /// What the plain readers share: archive object `uid`, not resolved yet, when it is a
  /// dictionary of exactly two pairs (marker 0xD2), `$class` (a UID within `$objects` naming a
  /// class record, read now if it was not yet) and `key`, whose value `read` accepts. Returns
  /// `read`'s result and the class record's index; nil for anything else.
  ///
  /// Reads from the buffer as `readPairs` does (the offset table was checked when the plist
  /// was opened); the checks are `checkedOffset`'s and `inlineUID`'s. The keys are compared in
  /// place first, marker and text as words (`storedKey` for `key`): corelibs-written archives
  /// store every key string anew, so the key cache seldom knows them, and a match is what the
  /// cache would say (the same bytes, within the object area); the two key references this
  /// reader (`slot`) matched last are taken as they were then
  /// (`ObjectTable.plainKeyReferences`). `read` gets the value's plist
  /// reference, its offset and the bytes left before the offset table.
  private func plainPair<Value>(
    uid: Int, depth: Int, key wanted: FieldKey, slot: Int,
    storedKey: (_ base: UnsafePointer<UInt8>, _ at: Int, _ available: Int) -> Bool,
    read: (_ base: UnsafePointer<UInt8>, _ ref: Int, _ at: Int, _ available: Int) -> Value?
  ) -> (value: Value, classIndex: Int)? {
    guard uid > 0, uid < objectRefs.count, objects.entry(uid) == nil,
      depth <= Self.maximumDepth, visitsLeft.pointee > 1
    else { return nil }
    let objectRef = objectRefs[uid]
    let refSize = plist.refSize
    let offsetSize = plist.offsetSize
    let tableStart = plist.offsetTableOffset
    let objectCount = plist.objectCount
    let uidCount = UInt64(objectRefs.count)
    let found = plist.bytes.withUnsafeBufferPointer { buffer -> (Value, classUID: Int)? in
      guard let base = buffer.baseAddress else { return nil }
      func offset(of ref: Int) -> Int? {
        let offset = Int(
          BPlistDocument.readBigEndian(base, at: tableStart &+ ref &* offsetSize, offsetSize))
        return offset >= 8 && offset < tableStart ? offset : nil
      }
      // Marker 0xD2: a dictionary of two pairs, whose four references lie before the table.
      guard let start = offset(of: objectRef), base[start] == 0xD2,
        4 * refSize < tableStart - start
      else { return nil }
      func reference(_ index: Int) -> Int {
        Int(BPlistDocument.readBigEndian(base, at: start &+ 1 &+ index &* refSize, refSize))
      }
      let keyRefs = (reference(0), reference(1))
      let valueRefs = (reference(2), reference(3))
      guard keyRefs.0 < objectCount, keyRefs.1 < objectCount, valueRefs.0 < objectCount,
        valueRefs.1 < objectCount, let value0 = offset(of: valueRefs.0),
        let value1 = offset(of: valueRefs.1)
      else { return nil }
      // The keys of this reader's last object, in either order: the same key objects.
      let known = objects.plainKeyReferences(slot)
      let wantedFirst: Bool
      if keyRefs.0 == known[0] && keyRefs.1 == known[1] {
        wantedFirst = true
      } else if keyRefs.0 == known[1] && keyRefs.1 == known[0] {
        wantedFirst = false
      } else {
        guard let key0 = offset(of: keyRefs.0), let key1 = offset(of: keyRefs.1) else {
          return nil
        }
        // Each key's code: compared in place first (see above), then as `$class`, then by
        // the key cache. The key and `$class`, in either order, make a plain object.
        func code(_ key: Int, _ keyRef: Int) -> UInt8 {
          if storedKey(base, key, tableStart - key) { return wanted.rawValue }
          if tableStart - key >= 7,
            Self.word(base, key) & 0x00FF_FFFF_FFFF_FFFF == KeyIDTable.classKeyWord
          {
            return FieldKey.classMarker.rawValue
          }
          return otherKeyCode(keyRef, at: base, count: buffer.count)
        }
        switch (code(key0, keyRefs.0), code(key1, keyRefs.1)) {
        case (wanted.rawValue, FieldKey.classMarker.rawValue): wantedFirst = true
        case (FieldKey.classMarker.rawValue, wanted.rawValue): wantedFirst = false
        default: return nil
        }
        known[0] = wantedFirst ? keyRefs.0 : keyRefs.1
        known[1] = wantedFirst ? keyRefs.1 : keyRefs.0
      }
      let valueRef = wantedFirst ? valueRefs.0 : valueRefs.1
      let valueStart = wantedFirst ? value0 : value1
      let classStart = wantedFirst ? value1 : value0
      guard let value = read(base, valueRef, valueStart, tableStart - valueStart) else {
        return nil
      }
      // The class: a UID of at most four bytes, within `$objects`.
      let marker = base[classStart]
      let size = Int(marker & 0x0F) + 1
      guard marker >> 4 == 0x8, size <= 4, size < tableStart - classStart else { return nil }
      let classRef = BPlistDocument.readBigEndian(base, at: classStart + 1, size)
      guard classRef > 0, classRef < uidCount else { return nil }
      return (value, Int(classRef))
    }
    guard let found else { return nil }
    // A class record not read yet (the archive's first date, array or UUID) is read now, as
    // resolving the object would read it; one that cannot be read is left for that to report.
    guard
      let classIndex = classes.index(ofUID: found.classUID)
        ?? (try? archiveClass(uid: UInt64(found.classUID), for: uid))
    else { return nil }
    return (found.0, classIndex)
  }

  /// The key cache's code for a key of a two-pair object that is stored neither as the wanted
  /// key nor as `$class` (rare: the object then mostly takes the general path). Out of line:
  /// inlined, its matching made the plain readers spill their state on every call.
  @inline(never)
  private func otherKeyCode(_ keyRef: Int, at base: UnsafePointer<UInt8>, count: Int) -> UInt8 {
    keyIDs.code(keyRef, at: base, count: count, in: plist, matching: FieldKeyMatcher.table)
  }

  /// The eight bytes at `offset` as a little-endian word: a key's marker and first characters,
  /// compared in one step. Eight bytes are readable at any object: the offset table and the
  /// trailer follow the objects.
  @inline(__always)
  private static func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
  }

  /// The key `NS.objects` as stored (marker 0x5A and ten bytes): its first eight bytes as a
  /// little-endian word; the last three are `cts`.
  private static let nsObjectsKeyHead: UInt64 = 0x656A_626F_2E53_4E5A

  /// The key `NS.uuidbytes` as stored (marker 0x5C and twelve bytes): its first eight bytes,
  /// and its last eight (`uidbytes`), as little-endian words.
  private static let nsUUIDBytesKeyHead: UInt64 = 0x6469_7575_2E53_4E5C
  private static let nsUUIDBytesKeyTail: UInt64 = 0x7365_7479_6264_6975

  /// The key `NS.time` as stored (marker 0x57 and seven bytes), read as a little-endian word.
  private static let nsTimeKeyWord: UInt64 = 0x656D_6974_2E53_4E57

  /// The text of archive object `uid` when it is a string stored as bytes (marker 0x5n: how
  /// NSKeyedArchiver stores ASCII strings, the usual identifiers), decoded as
  /// `BPlistDocument.string` decodes it; nil for anything else, which the caller reads through
  /// `value(uid:depth:)`. Strings are leaves: that path counts no visit for them either.
  /// Inlined: called, it cost `ArchivedObject.string` (every identifier) more than the
  /// lookups of zone names it saves.
  @inline(__always)
  func plainString(uid: Int) -> String? {
    guard uid > 0, uid < objectRefs.count, let start = plist.checkedOffset(of: objectRefs[uid])
    else { return nil }
    let tableStart = plist.offsetTableOffset
    return plist.bytes.withUnsafeBufferPointer { buffer -> String? in
      guard let base = buffer.baseAddress,
        let span = BPlistDocument.byteStringSpan(at: start, in: base, end: tableStart)
      else { return nil }
      return shortStrings.string(
        base + span.lowerBound, count: span.count, available: buffer.count - span.lowerBound)
    }
  }

  /// Counts one decoding step and enforces the depth cap, naming a cycle when there is one.
  /// `number` is the archive object being entered (nil for an inline container).
  @inline(__always)
  func spendVisit(at number: Int?, depth: Int) throws(ImportError) {
    visitsLeft.pointee -= 1
    // The common case inline; the checks that name the place out of line.
    if visitsLeft.pointee > 0, depth <= Self.maximumDepth { return }
    try refuseVisit(at: number, depth: depth)
  }

  /// The error for a visit over the budget or the depth cap, naming a cycle when there is one.
  private func refuseVisit(at number: Int?, depth: Int) throws(ImportError) {
    // The place is text only when an error needs it.
    var place: String { number.map { "object \($0)" } ?? "" }
    guard visitsLeft.pointee > 0 else {
      throw ImportError(
        location: place, reason: "too many object visits (shared objects nested too often)")
    }
    guard depth <= Self.maximumDepth else {
      if let number, containsCycle(from: number) {
        throw ImportError(location: place, reason: "reference cycle: the object contains itself")
      }
      throw ImportError(
        location: place, reason: "nesting deeper than \(Self.maximumDepth) levels")
    }
  }

  /// One pass over an object dictionary's keys: the UID of its (last) `$class`, the
  /// `FieldKey`s it holds, and its key/value pairs stored in `objects` (`pairStart` -1 when
  /// some key or value reference is out of range or the storage is full). A key reference
  /// out of range makes every later lookup scan.
  private func scanKeys(
    _ header: PlistObjectHeader
  ) throws(ImportError) -> (classUID: UInt64?, keys: FieldKeySet, pairStart: Int) {
    var pairStart = objects.reservePairs(header.count) ?? -1
    let pass = plist.bytes.withUnsafeBufferPointer { buffer in
      readPairs(header, in: buffer, into: pairStart >= 0 ? pairs + pairStart : nil)
    }
    if !pass.pairsComplete, pairStart >= 0 {
      objects.releasePairs(from: pairStart)
      pairStart = -1
    }
    guard !pass.keyOutOfRange else { return (try classReference(header), .all, -1) }
    guard pass.classEntry >= 0 else { return (nil, pass.keys, pairStart) }
    if let classUID = pass.classUID { return (classUID, pass.keys, pairStart) }
    let value = try plist.header(try plist.childRef(header, header.count + pass.classEntry))
    guard value.type == .uid else { return (nil, pass.keys, pairStart) }
    return (plist.uid(value), pass.keys, pairStart)
  }

  /// What `readPairs` found in one object dictionary.
  private struct PairPass {
    var keys = FieldKeySet()
    /// The index of the last `$class` key, or -1.
    var classEntry = -1
    /// The UID under that key, when it is one within `$objects`.
    var classUID: UInt64?
    /// A key reference is out of range (the pass stopped there).
    var keyOutOfRange = false
    /// Every pair was written (false when a value reference is out of range, or no storage).
    var pairsComplete = true

    /// Notes key `code` of entry `index`: a `FieldKey` joins `keys`, `$class` moves
    /// `classEntry`.
    @inline(__always)
    mutating func note(_ code: UInt8, at index: Int) {
      guard code < KeyIDTable.firstSpecialCode else { return }
      keys.insert(rawValue: code)
      if code == FieldKey.classMarker.rawValue { classEntry = index }
    }
  }

  /// Reads a dictionary's key and value references straight from the buffer (the ranges were
  /// checked by `BPlistDocument.init` and `header`): each key's `FieldKey`, and each value as a
  /// UID within `$objects` when it is one, else as its plist object number. Never throws:
  /// whatever it cannot judge, `scanKeys` and the lookups read again through checked paths.
  ///
  /// Two loops: the first reads the references and writes the pairs, the second sums up their
  /// keys. One loop doing both kept too much state to hold in registers (~125 instructions a
  /// pair, most of them spills). A dictionary whose key references repeat a recent one's
  /// (`ObjectTable.keyLayout`) takes that one's codes and sum and reads only the values.
  private func readPairs(
    _ header: PlistObjectHeader, in buffer: UnsafeBufferPointer<UInt8>,
    into pairs: UnsafeMutablePointer<KeyPair>?
  ) -> PairPass {
    var pass = PairPass()
    guard let base = buffer.baseAddress else {
      pass.pairsComplete = false
      return pass
    }
    let count = header.count
    let refSize = plist.refSize
    let objectCount = UInt64(plist.objectCount)
    // Offsets below stay inside ranges `header` and `BPlistDocument.init` checked: wrapping
    // arithmetic, no overflow checks.
    let matcher = FieldKeyMatcher.table
    let keyRefs = header.payloadOffset
    guard let pairs else {
      // No storage left: the keys alone.
      pass.pairsComplete = false
      for index in 0..<count {
        let keyRef = BPlistDocument.readBigEndian(base, at: keyRefs &+ index &* refSize, refSize)
        guard keyRef < objectCount else {
          pass.keyOutOfRange = true
          return pass
        }
        let code = keyIDs.code(
          Int(keyRef), at: base, count: buffer.count, in: plist, matching: matcher)
        pass.note(code, at: index)
      }
      return pass
    }
    let offsetSize = plist.offsetSize
    let tableStart = plist.offsetTableOffset
    let uidCount = UInt64(objectRefs.count)
    let valueRefs = keyRefs &+ count &* refSize
    // Objects of one class list the same key objects in the same order (NSKeyedArchiver
    // stores each key string once): when the key references are the bytes of the last
    // dictionary with as many keys, its codes and summary are taken, not read again.
    let layout = objects.keyLayout(
      count: count, keyReferences: keyRefs, refSize: refSize, in: base)
    // The first value reference out of range: that pair and the later ones keep their key's
    // code only, and the pairs are not used.
    var firstMisfit = count
    for index in 0..<count {
      let code: UInt8
      if let layout {
        code = layout.codes[index]
      } else {
        let keyRef = BPlistDocument.readBigEndian(base, at: keyRefs &+ index &* refSize, refSize)
        guard keyRef < objectCount else {
          // `scanKeys` then reads the keys through the checked path: nothing else counts.
          pass.keyOutOfRange = true
          pass.pairsComplete = false
          return pass
        }
        // Not-a-string keys keep their own code: no lookup asks for it, and the listing of
        // other fields reads them by name (and reports them) as for any unknown key.
        code = keyIDs.code(
          Int(keyRef), at: base, count: buffer.count, in: plist, matching: matcher)
      }
      let valueRef = BPlistDocument.readBigEndian(base, at: valueRefs &+ index &* refSize, refSize)
      guard valueRef < objectCount, firstMisfit == count else {
        firstMisfit = min(firstMisfit, index)
        pairs[index] = KeyPair(code: code, ref: 0)
        continue
      }
      // A UID into `$objects` is decoded now, so lookups skip the value's header.
      let start = Int(
        BPlistDocument.readBigEndian(
          base, at: tableStart &+ Int(valueRef) &* offsetSize, offsetSize))
      let marker = start >= 8 && start < tableStart ? base[start] : 0
      let size = Int(marker & 0x0F) + 1
      if marker >> 4 == 0x8, size <= 4, size < tableStart - start {
        let uid = BPlistDocument.readBigEndian(base, at: start &+ 1, size)
        if uid < uidCount {
          pairs[index] = KeyPair(code: code, uid: Int(uid))
          continue
        }
      }
      pairs[index] = KeyPair(code: code, ref: Int(valueRef))
    }
    if let layout {
      pass.keys = layout.summary.keys
      pass.classEntry = layout.summary.classEntry
    } else {
      for index in 0..<count { pass.note(pairs[index].code, at: index) }
      objects.rememberKeyLayout(
        count: count, keyReferences: keyRefs, pairs: pairs,
        summary: KeyLayout(keys: pass.keys, classEntry: pass.classEntry))
    }
    pass.pairsComplete = firstMisfit == count
    // The UID under the last `$class`, when its pair was decoded as one.
    if pass.classEntry >= 0, pass.classEntry < firstMisfit, pairs[pass.classEntry].isUID {
      pass.classUID = UInt64(pairs[pass.classEntry].number)
    }
    return pass
  }

  /// Whether archive object `uid` is surely no `KnownClass` of `mask`, told without resolving
  /// it: a plist object that is no dictionary (nor a UID), or a dictionary of two or more
  /// pairs whose `$class` is a class record already read. false when unsure (the caller then
  /// resolves it, reporting what is wrong). An answer is asked whether it is an `ORKNoAnswer`
  /// before it is read: resolved for that, it could no longer be read in place (dates and
  /// choice arrays, the usual answers, by `plainDateSeconds` and `plainArray`).
  func isSurelyNone(of mask: UInt8, uid: Int) -> Bool {
    guard uid > 0, uid < objectRefs.count else { return false }
    if let known = objects.entry(uid) { return classes.knownClasses(known.classIndex) & mask == 0 }
    let objectRef = objectRefs[uid]
    guard let start = plist.checkedOffset(of: objectRef) else { return false }
    let refSize = plist.refSize
    let tableStart = plist.offsetTableOffset
    let objectCount = plist.objectCount
    let uidCount = objectRefs.count
    return plist.bytes.withUnsafeBufferPointer { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      let marker = base[start]
      switch marker >> 4 {
      case 0x8: return false  // a reference to a reference: an error the caller reports
      case 0xD: break
      default:
        // No dictionary: read as an inline value, never as an object. The header must be
        // sound, as the caller's read would find it.
        return (try? plist.header(objectRef)) != nil
      }
      let count = Int(marker & 0x0F)
      // One pair (`$class` alone, as `ORKDontKnowAnswer` is archived) or a count stored apart.
      guard count >= 2, count < 0x0F, 2 * count * refSize < tableStart - start else {
        return false
      }
      for index in 0..<count {
        let keyRef = Int(
          BPlistDocument.readBigEndian(base, at: start &+ 1 &+ index &* refSize, refSize))
        guard keyRef < objectCount else { return false }
        guard otherKeyCode(keyRef, at: base, count: buffer.count) == FieldKey.classMarker.rawValue
        else { continue }
        let valueRef = Int(
          BPlistDocument.readBigEndian(
            base, at: start &+ 1 &+ (count &+ index) &* refSize, refSize))
        guard valueRef < objectCount, let value = try? plist.header(valueRef), value.type == .uid
        else { return false }
        let classUID = plist.uid(value)
        guard classUID > 0, classUID < UInt64(uidCount),
          let classIndex = classes.index(ofUID: Int(classUID))
        else { return false }
        return classes.knownClasses(classIndex) & mask == 0
      }
      return false
    }
  }

  /// Whether archive object `uid` is surely not null, told from its marker without resolving
  /// it (a number, date, data, string, array, set or dictionary); false when unsure. The
  /// caller reads the value next, which reports whatever is wrong with it.
  func isSurelyNotNull(uid: Int) -> Bool {
    guard uid > 0, uid < objectRefs.count else { return false }
    if objects.entry(uid) != nil { return true }
    guard let start = plist.checkedOffset(of: objectRefs[uid]) else { return false }
    switch plist.bytes[start] >> 4 {
    case 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0xA, 0xC, 0xD: return true
    default: return false
    }
  }

  /// The UID of `$class` in an object dictionary, or nil when it has none.
  private func classReference(_ header: PlistObjectHeader) throws(ImportError) -> UInt64? {
    // NSKeyedArchiver writes `$class` last; search from the end.
    for index in stride(from: header.count - 1, through: 0, by: -1) {
      guard keyIDs.slot(try plist.childRef(header, index), in: plist) == .known(.classMarker)
      else { continue }
      let value = try plist.header(try plist.childRef(header, header.count + index))
      guard value.type == .uid else { return nil }
      return plist.uid(value)
    }
    return nil
  }

  func className(_ object: ArchivedObject) -> String { classes[object.classIndex].name }
}
