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
  /// Regular files below a folder root are listed without being opened (`InputItem.mayBeZip`):
  /// whoever reads one tells a zip then and lists it with `zipContents(of:)`. The walk then
  /// costs a `readdir` per folder instead of four system calls per file. A file whose name
  /// begins a sibling's name followed by a byte up to `!` (`a.zip` beside `a.zip 2` or
  /// `a.zip!x`) is still probed: as a zip its entries (`a.zip!/…`) sort after that sibling,
  /// not at the zip's own place.
  public var opensFilesAtImport = false
  /// Without `opensFilesAtImport`, the files that may still be listed unopened, by path (a
  /// `--state` run: those the state has no entry for, so that no entry of a zip is needed
  /// before it is read). nil: none.
  public var listsUnopened: (@Sendable (String) -> Bool)?
  /// Whether any file may be listed unopened.
  private var mayListUnopened: Bool { opensFilesAtImport || listsUnopened != nil }
  /// A folder where `itemList()` streams its items as it lists them (see
  /// `InputItemList.init(streamDirectory:)`): the walk then holds no list of the inputs in
  /// memory. nil: the list is built in memory.
  public var streamDirectory: String?
  /// For a file the caller knows as a plain file unchanged since it last read it (a nightly
  /// `--state` run: the state has an entry under its path, and its size and modification time
  /// still match), its size; the walk then does not open it to tell a zip. nil: open it.
  public var knownPlainFileSize: (@Sendable (String) -> Int64?)?

  public init(roots: [String], zipLimits: ZipLimits = ZipLimits()) {
    self.roots = roots
    self.zipLimits = zipLimits
  }

  /// All items below all roots, each root's items sorted by display path; paths that do not
  /// exist, zip entries that escape their zip, and zips that cannot be listed are reported as
  /// problems rather than thrown, so the other inputs still export.
  public func items() -> (items: [InputItem], problems: [ImportError]) {
    let (list, problems) = itemList()
    return (Array(list), problems.map(\.error))
  }

  /// A problem of the walk and its place among the items: `before` is the index of the item
  /// it is listed before (the items' count: after all), so that a report of every input lists
  /// problems in path order too. A root that does not exist is placed where its items would
  /// be.
  public struct PlacedProblem: Sendable {
    public var error: ImportError
    public var before: Int
  }

  /// The same items in compact storage (see `InputItemList`): what an export walks with.
  ///
  /// Per file the walk costs one `open`, `fstat`, `read` of four bytes (zip or not) and `close`,
  /// nothing with `opensFilesAtImport`; folder entries are typed by `readdir` (a `stat` only for
  /// links and unknown types).
  public func itemList() -> (items: InputItemList, problems: [PlacedProblem]) {
    var list = streamDirectory.map { InputItemList(streamDirectory: $0) } ?? InputItemList()
    var problems: [PlacedProblem] = []
    for root in roots {
      var rootInfo = stat()
      guard FileSystemName.status(root, &rootInfo) == 0 else {
        problems.append(
          PlacedProblem(
            error: ImportError(file: root, reason: "no such file or folder"), before: list.count))
        continue
      }
      var found = Found(items: list)
      list = InputItemList()
      let start = found.items.count
      let isDirectory = (rootInfo.st_mode & S_IFMT) == S_IFDIR
      let name = Self.lastComponent(root)
      let isUpload = isDirectory && isBridgeFolder(root)
      found.items.beginRoot(
        path: root, label: InputWalker.rootLabel(root), isDirectory: isDirectory,
        labelsRoots: roots.count > 1,
        // With `listsUnopened` a root's files may be either; a file listed as probed is read
        // the same way (told from its bytes at import).
        filesUnopened: mayListUnopened,
        ownName: isDirectory && !isUpload ? nil : name)
      if isUpload {
        found.items.append(bridgeFolderItem(root, display: name, folders: []))
      } else if isDirectory {
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
      problems += Self.placed(
        found.problems, in: found.items, from: start, labelled: roots.count > 1)
      list = found.items
    }
    return (list, problems)
  }

  /// A root's problems (paths below it) placed among its items, sorted from `start`, in
  /// path order; the root's label put before their paths.
  static func placed(
    _ problems: [ImportError], in items: InputItemList, from start: Int, labelled: Bool
  ) -> [PlacedProblem] {
    let places = items.places(of: problems.map(\.file), from: start)
    var placed = zip(problems, places).map { problem, place in
      var error = problem
      if labelled, !error.file.isEmpty { error.file = items.labelledInCurrentRoot(error.file) }
      return PlacedProblem(error: error, before: place)
    }
    // Among problems placed before the same item: by path (as items are sorted), the walk's
    // order among equal paths.
    let paths = problems.map(\.file)
    placed = placed.indices.sorted { lhs, rhs in
      if placed[lhs].before != placed[rhs].before {
        return placed[lhs].before < placed[rhs].before
      }
      if paths[lhs] != paths[rhs] { return paths[lhs] < paths[rhs] }
      return lhs < rhs
    }.map { placed[$0] }
    return placed
  }

  /// What a file listed unopened (`InputItem.mayBeZip`) holds when it starts like a zip: the
  /// items and problems the walk would have listed for it had it opened it, sorted by display
  /// path (they all start with the zip's own). nil when it is not a zip (or no longer there).
  /// A zip that cannot be listed is one item, the file itself, no longer `mayBeZip`: its
  /// import reports why. `zipSize`: the caller read its first bytes and size already
  /// (`InputImporter.readUnopened`), so it is not opened again to tell.
  public func zipContents(of item: InputItem, zipSize: Int64? = nil) -> (
    items: InputItemList, problems: [PlacedProblem]
  )? {
    zipContents(of: item, zipSize: zipSize, survey: nil)
  }

  /// As `zipContents(of:zipSize:)`, with the zip opened and surveyed by the caller (`survey`).
  func zipContents(of item: InputItem, zipSize: Int64?, survey: ZipSurvey?) -> (
    items: InputItemList, problems: [PlacedProblem]
  )? {
    guard case .file(let path) = item.location,
      let probe = zipSize.map({ FileProbe(regularFileOfSize: $0, isZip: true) }) ?? FileProbe(path),
      probe.isZip, probe.isRegular
    else { return nil }
    // Rebuilt from the item: its disk path is the root's, `/` and its path below the root; its
    // display path the same with the root's label in front, when roots are labelled.
    let below = item.pathBelowRoot
    let labelled = item.displayPath != below
    var found = Found(items: InputItemList())
    found.items.beginRoot(
      path: String(path.utf8.dropLast(below.utf8.count + 1)) ?? "",
      label: String(item.displayPath.utf8.dropLast(below.utf8.count + 1)) ?? "",
      isDirectory: true, labelsRoots: labelled)
    addFile(
      path, probe: probe, display: below, folders: item.folders, isRoot: false, survey: survey,
      into: &found)
    found.items.sortItems(from: 0)
    let problems = Self.placed(found.problems, in: found.items, from: 0, labelled: labelled)
    return (found.items, problems)
  }

  /// The last component of a path, as `NSString.lastPathComponent` gives it (trailing slashes
  /// dropped; `/` for the root), without its cost: ~25 k instructions a call on Linux, as much
  /// as the rest of listing a Bridge upload's zip.
  static func lastComponent(_ path: String) -> String {
    let slash = UInt8(ascii: "/")
    var end = path.utf8.endIndex
    while path.utf8.distance(from: path.utf8.startIndex, to: end) > 1,
      path.utf8[path.utf8.index(before: end)] == slash
    {
      end = path.utf8.index(before: end)
    }
    guard let last = path.utf8[..<end].lastIndex(of: slash),
      path.utf8.distance(from: path.utf8.startIndex, to: end) > 1
    else { return String(path[..<end]) }
    return String(path[path.utf8.index(after: last)..<end])
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
      /// A regular file listed without being opened (`opensFilesAtImport`): its name's
      /// bytes are `names[name]`.
      case unopenedFile(folder: Int, name: Range<Int>)
      case item(InputItem)
      case problem(ImportError)
    }

    struct Folder {
      var path: String
      /// Its folders below the root.
      var relative: [String]
      /// Its path below the root and a slash, or "" for the root: what its files' display
      /// paths start with (made once per folder, not once per file).
      var displayPrefix: String
    }

    var folders: [Folder] = []
    var steps: [Step] = []
    /// The names of the files listed unopened, one after the other.
    var names: [UInt8] = []
    var fileCount = 0
    /// How many times the tree was probed and emptied: a folder index from an earlier batch
    /// is void.
    var batch = 0

    /// Appends the name of `listing`'s `entry` to `names`; where it is there.
    mutating func appendName(_ listing: FolderListing, _ entry: Int) -> Range<Int> {
      let start = names.count
      listing.appendName(entry, to: &names)
      return start..<names.count
    }

    /// Forgets the listed steps and folders once they have been probed and added.
    mutating func startNextBatch() {
      folders.removeAll(keepingCapacity: true)
      steps.removeAll(keepingCapacity: true)
      names.removeAll(keepingCapacity: true)
      fileCount = 0
      batch += 1
    }
  }

  /// Lists the folder at `path` and below; `look` is what a lookahead found of it already.
  private func listTree(
    _ path: String, relative: [String], into tree: inout FolderTree, found: inout Found,
    visited: inout Set<FolderIdentity>, look: FolderLook? = nil
  ) {
    // A lookahead's answers stand as they are, nil ones too (a failed `stat` or listing).
    let identity = look == nil ? folderIdentity(path) : look?.identity
    if let identity {
      guard visited.insert(identity).inserted else { return }
    }
    guard let listing = look == nil ? FolderListing(path) : look?.listing else {
      let display = relative.joined(separator: "/")
      tree.steps.append(
        .problem(ImportError(file: display.isEmpty ? path : display, reason: "cannot list folder")))
      return
    }
    let prefix = relative.isEmpty ? "" : relative.joined(separator: "/") + "/"
    let visible = listing.visibleInOrder()
    let probedAnyway =
      mayListUnopened ? listing.namesSortingBeforeTheirEntries(visible) : []
    // This folder's index in `tree.folders` and the batch it was registered in: a later
    // batch (the tree was probed and emptied meanwhile) registers it again.
    var registered: (batch: Int, index: Int)?
    // Subfolders are looked at ahead on another thread, when there are a few.
    let subfolders = visible.filter { listing.type($0) == DT_DIR }
    let lookahead =
      subfolders.count >= 2
      ? FolderLookahead(paths: subfolders.map { path + "/" + listing.name($0) }) {
        [self] in folderLook(at: $0)
      } : nil
    for entry in visible {
      let type = listing.type(entry)
      let look = type == DT_DIR ? lookahead?.next() : nil
      // The name as a String and the child's path only when they are needed: a regular file
      // listed unopened keeps its name's bytes (a String and a path per file cost ~2,000
      // instructions, before any archive was read).
      var name: String { listing.name(entry) }
      var child: String { path + "/" + name }
      var isDirectory = type == DT_DIR
      if type == DT_LNK || type == DT_UNKNOWN {
        // A link (followed, as any path) or a file system that does not type its entries.
        var target = stat()
        guard FileSystemName.status(child, &target) == 0 else { continue }
        isDirectory = (target.st_mode & S_IFMT) == S_IFDIR
      }
      if isDirectory, look?.isBridge ?? isBridgeFolder(child) {
        tree.steps.append(
          .item(bridgeFolderItem(child, display: prefix + name, folders: relative)))
      } else if isDirectory {
        listTree(
          child, relative: relative + [name], into: &tree, found: &found, visited: &visited,
          look: look)
      } else {
        let folder: Int
        if let registered, registered.batch == tree.batch {
          folder = registered.index
        } else {
          tree.folders.append(
            FolderTree.Folder(path: path, relative: relative, displayPrefix: prefix))
          folder = tree.folders.count - 1
          registered = (tree.batch, folder)
        }
        if type == DT_REG && mayListUnopened
          && (probedAnyway.isEmpty || !probedAnyway.contains(listing.nameBytes(entry)))
          && (opensFilesAtImport || listsUnopened?(child) == true)
        {
          tree.steps.append(.unopenedFile(folder: folder, name: tree.appendName(listing, entry)))
        } else {
          tree.steps.append(.file(folder: folder, name: name))
        }
        tree.fileCount += 1
        if tree.fileCount >= probeBatch {
          addListed(tree, into: &found)
          tree.startNextBatch()
        }
      }
    }
  }

  /// The folder's device and inode; nil when `stat` fails.
  private func folderIdentity(_ path: String) -> FolderIdentity? {
    var info = stat()
    guard FileSystemName.status(path, &info) == 0 else { return nil }
    return FolderIdentity(info)
  }

  /// What `listTree` asks of a subfolder before going into it, as it would ask it: whether it
  /// is an upload, else its identity and entries. Made on a lookahead's thread.
  private func folderLook(at path: String) -> FolderLook {
    if isBridgeFolder(path) { return FolderLook(identity: nil, isBridge: true, listing: nil) }
    return FolderLook(
      identity: folderIdentity(path), isBridge: false, listing: FolderListing(path))
  }

  /// The listed tree's items, in walk order: every file probed first (a zip's entries become
  /// items, a vanished file is skipped); a file listed unopened is an item as it is.
  private func addListed(_ tree: FolderTree, into found: inout Found) {
    var paths: [String] = []
    paths.reserveCapacity(tree.fileCount)
    for step in tree.steps {
      guard case .file(let folder, let name) = step else { continue }
      paths.append(tree.folders[folder].path + "/" + name)
    }
    let probes = InputWalker.probe(paths, knownPlainFileSize: knownPlainFileSize)
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
      case .unopenedFile(let folder, let name):
        tree.names.withUnsafeBufferPointer { names in
          found.items.appendFile(
            inFolder: tree.folders[folder].displayPrefix,
            name: UnsafeBufferPointer(rebasing: names[name]), size: 0)
        }
      case .file(let folder, let name):
        defer { fileNumber += 1 }
        guard let probe = probes[fileNumber] else { continue }
        let relative = tree.folders[folder].relative
        let display = tree.folders[folder].displayPrefix + name
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
  static func probe(
    _ paths: [String], knownPlainFileSize: (@Sendable (String) -> Int64?)? = nil
  ) -> [FileProbe?] {
    var probes = [FileProbe?](repeating: nil, count: paths.count)
    @Sendable func probeOne(_ path: String) -> FileProbe? {
      if let size = knownPlainFileSize?(path) {
        return FileProbe(regularFileOfSize: size, isZip: false)
      }
      return FileProbe(path)
    }
    guard paths.count >= 64 else {
      for index in paths.indices { probes[index] = probeOne(paths[index]) }
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
        for index in start..<end { slots[index] = probeOne(paths[index]) }
      }
    }
    return probes
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
    let listing = ZipListing(
      zipPath: path, nestedZip: nil, display: display, aboveFolders: folders,
      entryFolders: isRoot ? [] : folders + [Self.lastComponent(path)], size: size,
      isBelowFolderRoot: !isRoot)
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
    var status = stat()
    guard FileSystemName.status(info, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR,
      let bytes = try? readFile(info, limit: 1 << 20),
      let value = try? JSONParser().parseDocument(bytes).root
    else { return false }
    return BridgeUploadReader.isUploadInfo(value)
  }
}

extension InputWalker.FolderIdentity {
  /// The identity `stat` gave.
  init(_ info: stat) {
    self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }
}

/// True for a zip's local file header or an empty zip's end record.
func isZipMagic<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool {
  guard bytes.count >= 4 else { return false }
  let start = bytes.startIndex
  let third = bytes[bytes.index(start, offsetBy: 2)]
  let fourth = bytes[bytes.index(start, offsetBy: 3)]
  return bytes[start] == 0x50 && bytes[bytes.index(after: start)] == 0x4B
    && ((third == 0x03 && fourth == 0x04) || (third == 0x05 && fourth == 0x06))
}

/// A file's size and whether it starts like a zip, from one `open`, `fstat` and 4-byte `read`.
struct FileProbe: Sendable {
  var size: Int64
  var isZip: Bool
  /// false for a named pipe, socket or device: never read (a pipe would block the run).
  var isRegular: Bool

  /// A regular file whose size and kind are known without opening it again (see
  /// `InputWalker.knownPlainFileSize`, `InputWalker.zipContents(of:zipSize:)`).
  init(regularFileOfSize size: Int64, isZip: Bool) {
    self.size = size
    self.isZip = isZip
    isRegular = true
  }

  /// nil when nothing is at `path` (a dangling link); a file that exists but cannot be opened
  /// is probed by `stat` alone (not a zip), so the importer reports why it cannot be read.
  init?(_ path: String) {
    var info = stat()
    // Non-blocking: opening a named pipe would otherwise wait for a writer forever.
    let fd = FileSystemName.openPath(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      guard FileSystemName.status(path, &info) == 0 else { return nil }
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
  return FileSystemName.status(path, &info) == 0 ? Int64(info.st_size) : 0
}
