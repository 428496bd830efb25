// Keeps the few most recently used zips open, so importing the entries of one zip (listed in
// order) does not reopen and rescan it, or re-inflate a nested zip, for every entry.
import Foundation

/// A small LRU of open `ZipReader`s shared by the importer's threads; each reader is used by
/// one thread at a time.
final class ZipReaderCache: @unchecked Sendable {
  private final class Slot {
    let key: String
    let reader: ZipReader
    let lock = NSLock()

    init(key: String, reader: ZipReader) {
      self.key = key
      self.reader = reader
    }
  }

  private let lock = NSLock()
  private var slots: [Slot] = []  // most recently used last
  private let capacity = 4

  /// Runs `body` with the zip at `zipPath`, or with its entry `nestedZip` opened as a zip.
  func withReader<T>(
    zipPath: String, nestedZip: String?, limits: ZipLimits, _ body: (ZipReader) throws -> T
  ) throws -> T {
    let key = nestedZip.map { zipPath + "!/" + $0 } ?? zipPath
    let slot = try cachedSlot(key) ?? insert(key, try open(zipPath, nestedZip, limits))
    slot.lock.lock()
    defer { slot.lock.unlock() }
    return try body(slot.reader)
  }

  /// Keeps `reader`, just opened from the zip file at `zipPath`, for the entries to come.
  func keep(_ reader: ZipReader, zipPath: String) {
    _ = insert(zipPath, reader)
  }

  private func open(_ zipPath: String, _ nestedZip: String?, _ limits: ZipLimits) throws
    -> ZipReader
  {
    guard let nestedZip else { return try ZipReader(path: zipPath, limits: limits) }
    let bytes = try withReader(zipPath: zipPath, nestedZip: nil, limits: limits) { outer in
      guard let entry = outer.entries.first(where: { $0.path == nestedZip }),
        entry.uncompressedSize <= limits.maximumNestedZipSize
      else {
        throw ImportError(reason: "nested zip is over the limit for zips inside zips")
      }
      return try outer.read(nestedZip)
    }
    return try ZipReader(bytes: bytes, limits: limits)
  }

  private func cachedSlot(_ key: String) -> Slot? {
    lock.lock()
    defer { lock.unlock() }
    guard let index = slots.firstIndex(where: { $0.key == key }) else { return nil }
    let slot = slots.remove(at: index)
    slots.append(slot)
    return slot
  }

  private func insert(_ key: String, _ reader: ZipReader) -> Slot {
    lock.lock()
    defer { lock.unlock() }
    if let existing = slots.first(where: { $0.key == key }) { return existing }
    let slot = Slot(key: key, reader: reader)
    slots.append(slot)
    if slots.count > capacity { slots.removeFirst() }
    return slot
  }
}
