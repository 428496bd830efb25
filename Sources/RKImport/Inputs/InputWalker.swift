// Finds every input below the given paths, in a deterministic order: files, zip entries (one
// level of nested zips too) and Bridge uploads (folders or zips holding info.json) as one item.
import Foundation

/// Walks files and folders (recursively, hidden entries skipped, symlink loops safe) and lists
/// the items to import, sorted by path so every run sees them in the same order.
///
/// A file is a zip when its first bytes say so (never by its name); its entries become items
/// (`upload.zip!/a/b.json`). A folder or zip whose top (or, in a zip, one folder down) holds a
/// Bridge `info.json` is one item: the upload.
public struct InputWalker: Sendable {
  public var roots: [String]
  public var zipLimits: ZipLimits

  public init(roots: [String], zipLimits: ZipLimits = ZipLimits()) {
    self.roots = roots
    self.zipLimits = zipLimits
  }

  /// All items below all roots, each root's items sorted by display path; paths that do not
  /// exist, zip entries that escape their zip, and zips that cannot be listed are reported as
  /// problems rather than thrown, so the other inputs still export.
  public func items() -> (items: [InputItem], problems: [ImportError]) {
    var all: [InputItem] = []
    var problems: [ImportError] = []
    for root in roots {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
        problems.append(ImportError(file: root, reason: "no such file or folder"))
        continue
      }
      var found = Found()
      let name = (root as NSString).lastPathComponent
      if isDirectory.boolValue, isBridgeFolder(root) {
        found.items.append(bridgeFolderItem(root, display: name, folders: []))
      } else if isDirectory.boolValue {
        var visited = Set<String>()
        walkFolder(root, relative: [], into: &found, visited: &visited)
      } else {
        addFile(root, display: name, folders: [], isRoot: true, into: &found)
      }
      found.items.sort { $0.displayPath < $1.displayPath }
      if roots.count > 1 {
        // Several roots may hold the same relative paths (each its README.md): name the root.
        let label = InputWalker.rootLabel(root)
        for index in found.items.indices {
          let below = found.items[index].displayPath
          found.items[index].displayPath = isDirectory.boolValue ? label + "/" + below : label
        }
        for index in found.problems.indices where !found.problems[index].file.isEmpty {
          found.problems[index].file = label + "/" + found.problems[index].file
        }
      }
      all += found.items
      problems += found.problems
    }
    return (all, problems)
  }

  /// A root as the user gave it, without `./` in front or `/` at the end.
  static func rootLabel(_ root: String) -> String {
    var label = root
    while label.hasPrefix("./") { label.removeFirst(2) }
    while label.count > 1 && label.hasSuffix("/") { label.removeLast() }
    return label.isEmpty ? "." : label
  }

  /// Items and problems found below one root.
  struct Found {
    var items: [InputItem] = []
    var problems: [ImportError] = []
  }

  private func walkFolder(
    _ path: String, relative: [String], into found: inout Found, visited: inout Set<String>
  ) {
    // Resolve symlinks so a link back to an ancestor is visited once, not forever.
    let real = (path as NSString).resolvingSymlinksInPath
    guard visited.insert(real).inserted else { return }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      let display = relative.joined(separator: "/")
      found.problems.append(
        ImportError(file: display.isEmpty ? path : display, reason: "cannot list folder"))
      return
    }
    for name in names.sorted() where !name.hasPrefix(".") {
      let child = path + "/" + name
      let display = (relative + [name]).joined(separator: "/")
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: child, isDirectory: &isDirectory) else {
        continue
      }
      if isDirectory.boolValue, isBridgeFolder(child) {
        found.items.append(bridgeFolderItem(child, display: display, folders: relative))
      } else if isDirectory.boolValue {
        walkFolder(child, relative: relative + [name], into: &found, visited: &visited)
      } else {
        addFile(child, display: display, folders: relative, isRoot: false, into: &found)
      }
    }
  }

  private func addFile(
    _ path: String, display: String, folders: [String], isRoot: Bool, into found: inout Found
  ) {
    let size = fileSize(path)
    guard isZipMagic(peekFile(path, count: 4)) else {
      found.items.append(
        InputItem(displayPath: display, folders: folders, location: .file(path: path), size: size))
      return
    }
    let reader: ZipReader
    do {
      reader = try ZipReader(path: path, limits: zipLimits)
    } catch {
      // The importer reports the same error for this file in inputs.csv.
      found.items.append(
        InputItem(displayPath: display, folders: folders, location: .file(path: path), size: size))
      return
    }
    let name = (path as NSString).lastPathComponent
    let listing = ZipListing(
      zipPath: path, nestedZip: nil, display: display, aboveFolders: folders,
      entryFolders: isRoot ? [] : folders + [name], size: size)
    list(reader, listing, into: &found)
  }

  private func bridgeFolderItem(_ path: String, display: String, folders: [String]) -> InputItem {
    let names = (try? BridgeUploadFiles.folder(path, limit: Int64.max).names) ?? []
    let size = names.reduce(Int64(0)) { $0 + fileSize(path + "/" + $1) }
    return InputItem(
      displayPath: display, folders: folders, location: .bridgeFolder(path: path), size: size)
  }

  /// True when the folder holds a file `info.json` shaped like a Bridge upload's.
  private func isBridgeFolder(_ path: String) -> Bool {
    let info = path + "/info.json"
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: info, isDirectory: &isDirectory),
      !isDirectory.boolValue, let bytes = try? readFile(info, limit: 1 << 20),
      let value = try? JSONParser().parse(bytes)
    else { return false }
    return BridgeUploadReader.isUploadInfo(value)
  }
}

/// True for a zip's local file header or an empty zip's end record.
func isZipMagic(_ bytes: [UInt8]) -> Bool {
  bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
}

/// Up to `count` leading bytes of a file (empty when it cannot be read).
func peekFile(_ path: String, count: Int) -> [UInt8] {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return [] }
  defer { close(fd) }
  var buffer = [UInt8](repeating: 0, count: count)
  let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
  return got > 0 ? Array(buffer.prefix(got)) : []
}

func fileSize(_ path: String) -> Int64 {
  let attributes = try? FileManager.default.attributesOfItem(atPath: path)
  return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
}
