// What identifies an input's content between runs: its key, size, modification time and hash.
import Foundation
import RKImport

/// The identity of one input item on disk, for `--state`.
///
/// Zip entries and Bridge uploads inside zips are judged by their zip file: when the zip
/// changes, all its entries are read again (and only those whose runs changed differ in the
/// outputs' content). A Bridge upload folder is judged by the files directly inside it.
struct InputFingerprint: Sendable, Equatable {
  var size: Int64
  var modified: Double

  /// The state-file key: the path as given on the command line, `!` before zip entries.
  static func key(_ item: InputItem) -> String {
    switch item.location {
    case .file(let path): return path
    case .zipEntry(let zip, let entry): return zip + "!" + entry
    case .nestedZipEntry(let zip, let nested, let entry): return zip + "!" + nested + "!" + entry
    case .bridgeFolder(let path): return path + "/"
    case .bridgeZip(let zip, let nested, let root):
      return zip + "!" + (nested.map { $0 + "!" } ?? "") + root
    }
  }

  /// The files on disk whose bytes make up the item.
  static func diskFiles(_ item: InputItem) -> [String] {
    switch item.location {
    case .file(let path): return [path]
    case .zipEntry(let zip, _), .nestedZipEntry(let zip, _, _), .bridgeZip(let zip, _, _):
      return [zip]
    case .bridgeFolder(let path):
      let names = FolderListing.visibleNames(inFolder: path) ?? []
      return names.map { path + "/" + $0 }
    }
  }

  /// Size (summed) and latest modification time of the item's files; nil when one is missing.
  static func of(_ item: InputItem) -> InputFingerprint? {
    var total: Int64 = 0
    var latest = 0.0
    for file in diskFiles(item) {
      guard let fingerprint = of(file: file) else { return nil }
      total += fingerprint.size
      latest = max(latest, fingerprint.modified)
    }
    return InputFingerprint(size: total, modified: latest)
  }

  /// Size and modification time of one file; nil when it is missing.
  static func of(file: String) -> InputFingerprint? {
    var info = stat()
    guard FileSystemName.status(file, &info) == 0 else { return nil }
    let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    return InputFingerprint(size: Int64(info.st_size), modified: seconds)
  }

  /// The content hash of the item's files, in order; "" when one cannot be read.
  static func hash(_ item: InputItem, cache: HashCache) -> String {
    let files = diskFiles(item)
    if files.count == 1 { return cache.hash(ofFile: files[0]) ?? "" }
    var combined = ContentHash()
    for file in files {
      guard let part = cache.hash(ofFile: file) else { return "" }
      combined.update(Array((file + "\u{0}" + part).utf8))
    }
    return combined.hex
  }

}

/// Hashes each disk file once, even when many zip entries share it. Thread-safe.
///
/// Only the latest `capacity` files are remembered: the items of one zip come together in walk
/// order, and a plain file is one item, so a run over 100,000 files keeps 256 hashes, not
/// 100,000 (17 MB).
final class HashCache: @unchecked Sendable {
  let capacity: Int
  private let lock = NSLock()
  private var hashes: [String: String] = [:]
  /// The remembered paths, oldest at `oldest`, once `capacity` are held.
  private var paths: [String] = []
  private var oldest = 0

  init(capacity: Int = 256) {
    self.capacity = max(1, capacity)
  }

  /// Paths remembered now.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return hashes.count
  }

  func hash(ofFile path: String) -> String? {
    lock.lock()
    if let known = hashes[path] {
      lock.unlock()
      return known
    }
    lock.unlock()
    guard let computed = ContentHash.ofFile(atPath: path) else { return nil }
    lock.lock()
    defer { lock.unlock() }
    if hashes.updateValue(computed, forKey: path) == nil {
      if paths.count < capacity {
        paths.append(path)
      } else {
        hashes[paths[oldest]] = nil
        paths[oldest] = path
        oldest = (oldest + 1) % capacity
      }
    }
    return computed
  }
}
