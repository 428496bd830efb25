// Class records found by the numbers of the names they hold, one table per thread: every
// archive has ~16 class records, and building each one's signature from its name bytes (the
// `ClassRecordCache` path) cost ~1,450 instructions a record, ~5 % of an export.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// This thread's class names, numbered, and the class records made of them.
///
/// An archive's class records name ~25 strings in all, most of them several times (`NSObject`,
/// `ORKResult`…): the archive numbers each string object once (`ClassTable.nameNumber`), and a
/// record is then found by its numbers, the class name's and the chain's in order. A number
/// stands for exact bytes (a name is compared whole when it is numbered), so a record found is
/// the one its bytes decode to. Only usual records are numbered (`KeyedArchive.recordByNames`):
/// ASCII names of at most `longestName` bytes, a chain of at most `longestChain`. Both tables
/// are capped: once full, records take the signature path.
final class ClassNameTable {
  static let maximumNames = 4095
  static let longestName = 512
  static let longestChain = 9
  static let maximumRecords = 1024
  private static let nameSlotCount = 8192
  private static let arenaCapacity = 1 << 17
  private static let recordSlotCount = 2048

  /// Name number + 1 per slot (0: empty); open addressing on the name's hash.
  private let nameSlots: UnsafeMutablePointer<Int32>
  /// Per name number: its hash, and where its bytes lie in `arena`.
  private let nameHashes: UnsafeMutablePointer<UInt64>
  private let nameStarts: UnsafeMutablePointer<Int32>
  private let nameLengths: UnsafeMutablePointer<Int32>
  private let arena: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var nameCount = 0
  @exclusivity(unchecked) private var arenaUsed = 0
  /// Records by key (an empty slot's key is `RecordKey.empty`), linear probing.
  private let recordKeys: UnsafeMutablePointer<RecordKey>
  private let records: UnsafeMutablePointer<ArchiveClass?>
  @exclusivity(unchecked) private var recordCount = 0

  /// A class record's name numbers: the class name's in the low 12 bits, the chain's count in
  /// the next 4, the chain's numbers 12 bits each after it (four in `low`, five in `high`),
  /// filled in by `KeyedArchive.recordByNames`. The top bit of `high` is set, so no key is
  /// `empty`.
  struct RecordKey: Equatable {
    var low: UInt64
    var high: UInt64

    static let empty = RecordKey(low: 0, high: 0)

    var hash: UInt64 { ByteHash.hash(words: low, high) }
  }

  /// An empty table (`current` gives the thread's; tests make their own).
  init() {
    nameSlots = .allocate(capacity: Self.nameSlotCount)
    nameSlots.initialize(repeating: 0, count: Self.nameSlotCount)
    nameHashes = .allocate(capacity: Self.maximumNames)
    nameStarts = .allocate(capacity: Self.maximumNames)
    nameLengths = .allocate(capacity: Self.maximumNames)
    arena = .allocate(capacity: Self.arenaCapacity)
    recordKeys = .allocate(capacity: Self.recordSlotCount)
    recordKeys.initialize(repeating: .empty, count: Self.recordSlotCount)
    records = .allocate(capacity: Self.recordSlotCount)
    records.initialize(repeating: nil, count: Self.recordSlotCount)
  }

  deinit {
    nameSlots.deallocate()
    nameHashes.deallocate()
    nameStarts.deallocate()
    nameLengths.deallocate()
    arena.deallocate()
    recordKeys.deallocate()
    records.deinitialize(count: Self.recordSlotCount)
    records.deallocate()
  }

  /// This thread's table (made on first use, freed when the thread ends).
  static var current: ClassNameTable { threadSlot.object { ClassNameTable() } }

  /// The number of the name whose bytes are the `count` at `bytes`, numbered now if new; nil
  /// when it is longer than `longestName` or the table is full.
  func number(of bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
    guard count <= Self.longestName else { return nil }
    let hash = ByteHash.hash(bytes, count: count)
    var slot = Int(truncatingIfNeeded: hash) & (Self.nameSlotCount - 1)
    while nameSlots[slot] != 0 {
      let number = Int(nameSlots[slot]) - 1
      if nameHashes[number] == hash, Int(nameLengths[number]) == count,
        memcmp(arena + Int(nameStarts[number]), bytes, count) == 0
      {
        return number
      }
      slot = (slot + 1) & (Self.nameSlotCount - 1)
    }
    guard nameCount < Self.maximumNames, count <= Self.arenaCapacity - arenaUsed else {
      return nil
    }
    let number = nameCount
    (arena + arenaUsed).initialize(from: bytes, count: count)
    nameHashes[number] = hash
    nameStarts[number] = Int32(arenaUsed)
    nameLengths[number] = Int32(count)
    nameSlots[slot] = Int32(number + 1)
    arenaUsed += count
    nameCount += 1
    return number
  }

  /// The record remembered under `key`, or nil.
  func record(for key: RecordKey) -> ArchiveClass? {
    var slot = Int(truncatingIfNeeded: key.hash) & (Self.recordSlotCount - 1)
    while recordKeys[slot] != .empty {
      if recordKeys[slot] == key { return records[slot] }
      slot = (slot + 1) & (Self.recordSlotCount - 1)
    }
    return nil
  }

  /// Remembers `record` under `key` (not already there), while there is room.
  func remember(_ record: ArchiveClass, for key: RecordKey) {
    guard recordCount < Self.maximumRecords else { return }
    var slot = Int(truncatingIfNeeded: key.hash) & (Self.recordSlotCount - 1)
    while recordKeys[slot] != .empty {
      if recordKeys[slot] == key { return }
      slot = (slot + 1) & (Self.recordSlotCount - 1)
    }
    recordKeys[slot] = key
    records[slot] = record
    recordCount += 1
  }
}

/// Each thread's `ClassNameTable`.
private let threadSlot = ThreadSlot<ClassNameTable>()
