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
  /// Zips surveyed at once on all cores (see `ZipSurvey`): enough for every core, few enough
  /// that their readers (in-memory zips up to `ZipLimits.inMemoryZipSize` each) stay small
  /// together; 0 lists every zip on the walking thread alone.
  var zipSurveyWindow = 8
  /// Files listed before they are probed together, on all cores: enough to keep both cores
  /// busy for a while, few enough that their names and paths take well under a megabyte
  /// (memory stays flat in large trees).
  var probeBatch = 4096

  public init(roots: [String], zipLimits: ZipLimits = ZipLimits()) {
    self.roots = roots
    self.zipLimits = zipLimits
  }

  /// All items below all roots, each root's items sorted by display path; paths that do not
  /// exist, zip entries that escape their zip, and zips that cannot be listed are reported as
  /// problems rather than thrown, so the other inputs still export.
  public func items() -> (items: [InputItem], problems: [ImportError]) {
    let (list, problems) = itemList()
    return (Array(list), problems)
  }

  /// The same items in compact storage (see `InputItemList`): what an export walks with.
  ///
  /// Per file the walk costs one `open`, `fstat`, `read` of four bytes (zip or not) and `close`;
  /// folder entries are typed by `readdir` (a `stat` only for links and unknown types).
  public func itemList() -> (items: InputItemList, problems: [ImportError]) {
    var list = InputItemList()
    var problems: [ImportError] = []
    for root in roots {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
        problems.append(ImportError(file: root, reason: "no such file or folder"))
        continue
      }
      var found = Found(items: list)
      list = InputItemList()
      let start = found.items.count
      found.items.beginRoot(
        path: root, label: InputWalker.rootLabel(root), isDirectory: isDirectory.boolValue,
        labelsRoots: roots.count > 1)
      let name = (root as NSString).lastPathComponent
      if isDirectory.boolValue, isBridgeFolder(root) {
        found.items.append(bridgeFolderItem(root, display: name, folders: []))
      } else if isDirectory.boolValue {
        var visited = Set<FolderIdentity>()
        var tree = FolderTree()
        listTree(root, relative: [], into: &tree, found: &found, visited: &visited)
        addListed(tree, into: &found)
      } else {
        if let probe = FileProbe(root) {
          addFile(root, probe: probe, display: name, folders: [], isRoot: true, into: &found)
        }
      }
      found.items.sortItems(from: start)
      if roots.count > 1 {
        let label = InputWalker.rootLabel(root)
        for index in found.problems.indices where !found.problems[index].file.isEmpty {
          found.problems[index].file = label + "/" + found.problems[index].file
        }
      }
      list = found.items
      problems += found.problems
    }
    return (list, problems)
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
    var items: InputItemList
    var problems: [ImportError] = []
  }

  /// A folder's identity on disk, so a symlink back to an ancestor is visited once, not forever.
  struct FolderIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  /// Part of a folder tree as listed, before any file in it is opened: what the walk found, in
  /// walk order. Its files are probed together (see `addListed`) whenever `probeBatch` of them
  /// are listed, and at the end.
  struct FolderTree {
    enum Step {
      /// A file (or a link to one) to probe: `name` in `folders[folder]`.
      case file(folder: Int, name: String)
      case item(InputItem)
      case problem(ImportError)
    }

    struct Folder {
      var path: String
      /// Its folders below the root.
      var relative: [String]
    }

    var folders: [Folder] = []
    var steps: [Step] = []
    var fileCount = 0
    /// How many times the tree was probed and emptied: a folder index from an earlier batch
    /// is void.
    var batch = 0

    /// Forgets the listed steps and folders once they have been probed and added.
    mutating func startNextBatch() {
      folders.removeAll(keepingCapacity: true)
      steps.removeAll(keepingCapacity: true)
      fileCount = 0
      batch += 1
    }
  }

  private func listTree(
    _ path: String, relative: [String], into tree: inout FolderTree, found: inout Found,
    visited: inout Set<FolderIdentity>
  ) {
    var info = stat()
    if stat(path, &info) == 0 {
      let identity = FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      guard visited.insert(identity).inserted else { return }
    }
    guard let entries = listFolder(path) else {
      let display = relative.joined(separator: "/")
      tree.steps.append(
        .problem(ImportError(file: display.isEmpty ? path : display, reason: "cannot list folder")))
      return
    }
    let prefix = relative.isEmpty ? "" : relative.joined(separator: "/") + "/"
    let visible = entries.filter { !$0.name.hasPrefix(".") }.sorted { $0.name < $1.name }
    // This folder's index in `tree.folders` and the batch it was registered in: a later
    // batch (the tree was probed and emptied meanwhile) registers it again.
    var registered: (batch: Int, index: Int)?
    for (name, type) in visible {
      let child = path + "/" + name
      var isDirectory = type == DT_DIR
      if type == DT_LNK || type == DT_UNKNOWN {
        // A link (followed, as any path) or a file system that does not type its entries.
        var target = stat()
        guard stat(child, &target) == 0 else { continue }
        isDirectory = (target.st_mode & S_IFMT) == S_IFDIR
      }
      if isDirectory, isBridgeFolder(child) {
        tree.steps.append(
          .item(bridgeFolderItem(child, display: prefix + name, folders: relative)))
      } else if isDirectory {
        listTree(
          child, relative: relative + [name], into: &tree, found: &found, visited: &visited)
      } else {
        let folder: Int
        if let registered, registered.batch == tree.batch {
          folder = registered.index
        } else {
          tree.folders.append(FolderTree.Folder(path: path, relative: relative))
          folder = tree.folders.count - 1
          registered = (tree.batch, folder)
        }
        tree.steps.append(.file(folder: folder, name: name))
        tree.fileCount += 1
        if tree.fileCount >= probeBatch {
          addListed(tree, into: &found)
          tree.startNextBatch()
        }
      }
    }
  }

  /// The listed tree's items, in walk order: every file probed first (a zip's entries become
  /// items, a vanished file is skipped).
  private func addListed(_ tree: FolderTree, into found: inout Found) {
    var paths: [String] = []
    paths.reserveCapacity(tree.fileCount)
    for step in tree.steps {
      guard case .file(let folder, let name) = step else { continue }
      paths.append(tree.folders[folder].path + "/" + name)
    }
    let probes = InputWalker.probe(paths)
    // Zips are opened and surveyed a few at a time on all cores (a window bounds the readers
    // held at once), then listed here in walk order.
    let zipNumbers = probes.indices.filter {
      probes[$0]?.isZip == true && probes[$0]?.isRegular == true
    }
    var nextZip = 0
    var surveyed: [Int: ZipSurvey] = [:]
    var fileNumber = 0
    for step in tree.steps {
      switch step {
      case .item(let item):
        found.items.append(item)
      case .problem(let problem):
        found.problems.append(problem)
      case .file(let folder, let name):
        defer { fileNumber += 1 }
        guard let probe = probes[fileNumber] else { continue }
        let relative = tree.folders[folder].relative
        let display = relative.isEmpty ? name : relative.joined(separator: "/") + "/" + name
        if zipSurveyWindow > 0, nextZip < zipNumbers.count, zipNumbers[nextZip] == fileNumber {
          let window = zipNumbers[nextZip..<min(nextZip + zipSurveyWindow, zipNumbers.count)]
          for (number, survey) in zip(window, surveys(window.map { paths[$0] })) {
            surveyed[number] = survey
          }
          nextZip += window.count
        }
        addFile(
          paths[fileNumber], probe: probe, display: display, folders: relative, isRoot: false,
          survey: surveyed.removeValue(forKey: fileNumber), into: &found)
      }
    }
  }

  /// The probes of `paths` (nil for a vanished file), made on all cores when there are many:
  /// the walk runs before any parsing starts, and per file it waits on four system calls.
  static func probe(_ paths: [String]) -> [FileProbe?] {
    var probes = [FileProbe?](repeating: nil, count: paths.count)
    guard paths.count >= 64 else {
      for index in paths.indices { probes[index] = FileProbe(paths[index]) }
      return probes
    }
    // A few contiguous chunks per core: one dispatch per file would cost more than its probe.
    let chunks = min(paths.count / 16, ProcessInfo.processInfo.activeProcessorCount * 4)
    probes.withUnsafeMutableBufferPointer { buffer in
      // Each chunk writes its own elements; concurrentPerform returns after all ran.
      nonisolated(unsafe) let slots = buffer
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        let start = paths.count * chunk / chunks
        let end = paths.count * (chunk + 1) / chunks
        for index in start..<end { slots[index] = FileProbe(paths[index]) }
      }
    }
    return probes
  }

  /// The names in a folder with their `readdir` types; nil when it cannot be listed.
  private func listFolder(_ path: String) -> [(name: String, type: Int)]? {
    guard let folder = opendir(path) else { return nil }
    defer { closedir(folder) }
    var entries: [(name: String, type: Int)] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      entries.append((name, Int(entry.pointee.d_type)))
    }
    return entries
  }

  private func addFile(
    _ path: String, probe: FileProbe, display: String, folders: [String], isRoot: Bool,
    survey: ZipSurvey? = nil, into found: inout Found
  ) {
    guard probe.isRegular else {
      found.problems.append(ImportError(file: display, reason: notRegularFile))
      return
    }
    let size = probe.size
    guard probe.isZip else {
      if isRoot {
        found.items.append(
          InputItem(
            displayPath: display, folders: folders, location: .file(path: path), size: size))
      } else {
        found.items.appendFile(below: display, size: size)
      }
      return
    }
    let reader: ZipReader
    do {
      reader = try survey?.reader.get() ?? ZipReader(path: path, limits: zipLimits)
    } catch {
      // The importer reports the same error for this file in inputs.csv.
      found.items.append(
        InputItem(displayPath: display, folders: folders, location: .file(path: path), size: size))
      return
    }
    let name = (path as NSString).lastPathComponent
    let listing = ZipListing(
      zipPath: path, nestedZip: nil, display: display, aboveFolders: folders,
      entryFolders: isRoot ? [] : folders + [name], size: size, isBelowFolderRoot: !isRoot)
    list(reader, listing, survey: survey, into: &found)
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

/// A file's size and whether it starts like a zip, from one `open`, `fstat` and 4-byte `read`.
struct FileProbe: Sendable {
  var size: Int64
  var isZip: Bool
  /// false for a named pipe, socket or device: never read (a pipe would block the run).
  var isRegular: Bool

  /// nil when nothing is at `path` (a dangling link); a file that exists but cannot be opened
  /// is probed by `stat` alone (not a zip), so the importer reports why it cannot be read.
  init?(_ path: String) {
    var info = stat()
    // Non-blocking: opening a named pipe would otherwise wait for a writer forever.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      guard stat(path, &info) == 0 else { return nil }
      size = Int64(info.st_size)
      isZip = false
      isRegular = (info.st_mode & S_IFMT) == S_IFREG
      return
    }
    defer { close(fd) }
    guard fstat(fd, &info) == 0 else {
      size = 0
      isZip = false
      isRegular = true  // the importer says what is wrong with it
      return
    }
    size = Int64(info.st_size)
    isRegular = (info.st_mode & S_IFMT) == S_IFREG
    guard isRegular else {
      isZip = false
      return
    }
    var head: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    let got = withUnsafeMutableBytes(of: &head) { read(fd, $0.baseAddress, 4) }
    isZip = got == 4 && isZipMagic([head.0, head.1, head.2, head.3])
  }
}

/// The size of the file at `path` (links followed); 0 when it cannot be stat'ed.
func fileSize(_ path: String) -> Int64 {
  var info = stat()
  return stat(path, &info) == 0 ? Int64(info.st_size) : 0
}
