// The class records of one archive, in plain storage: read on every object, so no array
// exclusivity checks or copies on the hot path.

/// Class records by index, and the record index of each class UID (or -1 when not read yet).
///
/// Not thread-safe, like the archive that owns it.
final class ClassTable {
  private let slotCount: Int
  /// Per archive UID: the record index, or -1.
  private let slots: UnsafeMutablePointer<Int32>
  /// `count[0]` records are initialised in `records`, of `capacity[0]`.
  private let counts: UnsafeMutablePointer<Int>
  private var records: UnsafeMutablePointer<ArchiveClass>
  /// Scratch storage for the signature of the class record being read (see `archiveClass`).
  var signatureBuffer = ClassSignature()
  /// The `ClassNameTable` number of string objects met in class records, direct-mapped by
  /// plist object number: `ref << 16 | number + 1` per slot, 0 when empty. A slot lost to
  /// another string only costs that string's lookup again.
  private let nameNumbers: UnsafeMutablePointer<UInt64>
  private static let nameSlotCount = 64
  /// The allocation `counts`, `nameNumbers` and `slots` lie in.
  private let storage: UnsafeMutableRawPointer
  /// The plist object numbers of the key strings `$classname` and `$classes`, once met (-1
  /// before): NSKeyedArchiver writes each once for all class records.
  @exclusivity(unchecked) var classNameKeyRef = -1
  @exclusivity(unchecked) var classesKeyRef = -1

  init(objectCount: Int) {
    slotCount = max(objectCount, 1)
    // `counts`, `nameNumbers` and `slots` in one allocation (eight-byte words, then the
    // four-byte slots): each allocation costs ~250 instructions an archive with its `free`.
    let namesStart = 2 * MemoryLayout<Int>.stride
    let slotsStart = namesStart + Self.nameSlotCount * MemoryLayout<UInt64>.stride
    storage = UnsafeMutableRawPointer.allocate(
      byteCount: slotsStart + slotCount * MemoryLayout<Int32>.stride,
      alignment: MemoryLayout<UInt64>.alignment)
    counts = storage.bindMemory(to: Int.self, capacity: 2)
    counts.initialize(repeating: 0, count: 2)
    counts[1] = 16
    nameNumbers = (storage + namesStart)
      .bindMemory(to: UInt64.self, capacity: Self.nameSlotCount)
    nameNumbers.initialize(repeating: 0, count: Self.nameSlotCount)
    slots = (storage + slotsStart).bindMemory(to: Int32.self, capacity: slotCount)
    slots.initialize(repeating: -1, count: slotCount)
    records = UnsafeMutablePointer<ArchiveClass>.allocate(capacity: 16)
  }

  deinit {
    records.deinitialize(count: counts[0])
    records.deallocate()
    storage.deallocate()
  }

  /// The name number of string object `ref`, remembered from an earlier call or else given
  /// by `lookUp` (and remembered when there is one).
  @inline(__always)
  func nameNumber(ofString ref: Int, lookUp: () -> Int?) -> Int? {
    let slot = ref & (Self.nameSlotCount - 1)
    let entry = nameNumbers[slot]
    if entry != 0, Int(truncatingIfNeeded: entry >> 16) == ref {
      return Int(truncatingIfNeeded: entry & 0xFFFF) - 1
    }
    guard let number = lookUp() else { return nil }
    nameNumbers[slot] = UInt64(ref) << 16 | UInt64(number + 1)
    return number
  }

  /// The record index of class UID `uid` (checked by the caller), or nil when not read yet.
  @inline(__always)
  func index(ofUID uid: Int) -> Int? {
    let slot = slots[uid]
    return slot < 0 ? nil : Int(slot)
  }

  /// The record at `index` (an index this table returned).
  @inline(__always)
  subscript(index: Int) -> ArchiveClass { records[index] }

  /// The Foundation type of the record at `index`, without copying the record.
  @inline(__always)
  func foundation(_ index: Int) -> FoundationClass? { records[index].foundation }

  /// The `KnownClass` bits of the record at `index`, without copying the record.
  @inline(__always)
  func knownClasses(_ index: Int) -> UInt8 { records[index].knownClasses }

  /// Stores the record of class UID `uid` and returns its index. Taken (`consuming`): the
  /// caller's copy moves in instead of being copied and then destroyed.
  func add(_ record: consuming ArchiveClass, uid: Int) -> Int {
    let count = counts[0]
    if count == counts[1] {
      // At most one record per UID, so this stays below the object count.
      let larger = UnsafeMutablePointer<ArchiveClass>.allocate(capacity: count * 2)
      larger.moveInitialize(from: records, count: count)
      records.deallocate()
      records = larger
      counts[1] = count * 2
    }
    (records + count).initialize(to: record)
    counts[0] = count + 1
    slots[uid] = Int32(count)
    return count
  }
}
