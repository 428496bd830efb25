// The walker's zip half: a zip's entries become items, Bridge uploads inside it become one item
// each, unsafe entry paths become problems, and zips inside the zip are expanded one level.
import Foundation

/// Where a zip being listed sits, and how its entries are named and attributed.
struct ZipListing {
  /// The zip file on disk.
  var zipPath: String
  /// The entry of `zipPath` that this zip is, when it is nested.
  var nestedZip: String?
  /// The zip's own display path (`P1/upload.zip`, `export.zip!/P1/u.zip`).
  var display: String
  /// Folders above the zip (the participant of a Bridge upload that is the whole zip).
  var aboveFolders: [String]
  /// Folders attributed to the zip's entries before their own folders.
  var entryFolders: [String]
  var size: Int64
  /// The zip is a file below a folder root: its display path is its path below the root, and
  /// `aboveFolders` that path's folders (an upload it holds whole is stored compactly).
  var isBelowFolderRoot = false
}

/// The slow part of listing one zip file, done ahead for many zips at once on all cores: the
/// open reader (or why it cannot be opened), its Bridge upload roots, and which entries start
/// like a zip. The reader is used by one thread at a time: surveyed, then listed.
struct ZipSurvey: @unchecked Sendable {
  var reader: Result<ZipReader, any Error>
  var roots: [String] = []
  /// Per entry of the reader: starts like a zip (peeked only where `list` asks, see
  /// `asksWhetherZip`).
  var startsLikeZip: [Bool] = []
}

/// What the listing makes of one zip entry.
private enum EntryKind {
  /// A path that escapes the zip, or a link: reported, not read.
  case unsafe(reason: String)
  /// A folder, a hidden entry, or part of a Bridge upload in the zip.
  case skipped
  case file
}

extension InputWalker {
  /// Opens the zip at `path` (from `bytes`, its contents, when given) and reads what `list`
  /// needs of it.
  func survey(_ path: String, bytes: [UInt8]? = nil) -> ZipSurvey {
    let reader: ZipReader
    do {
      reader = try ZipReader(path: path, bytes: bytes, limits: zipLimits)
    } catch {
      return ZipSurvey(reader: .failure(error))
    }
    var survey = ZipSurvey(reader: .success(reader), roots: bridgeRoots(reader))
    guard !survey.roots.contains("") else { return survey }
    survey.startsLikeZip = reader.entries.map { entry in
      asksWhetherZip(entry, kind: kind(of: entry, roots: survey.roots))
        && isZipMagic(reader.peek(entry.path, count: 4))
    }
    return survey
  }

  /// Whether `list` peeks at an entry of this kind to tell a zip inside the zip (of a zip that
  /// is not nested itself): files of four bytes or more; fewer cannot start like a zip.
  private func asksWhetherZip(_ entry: ZipReader.EntryInfo, kind: EntryKind) -> Bool {
    guard case .file = kind else { return false }
    return entry.uncompressedSize >= 4
  }

  /// The kind of `entry` in a zip whose Bridge upload roots are `roots`. Unsafe paths come
  /// first, so `../x` is never taken as hidden.
  private func kind(of entry: ZipReader.EntryInfo, roots: [String]) -> EntryKind {
    if let reason = unsafeReason(entry) { return .unsafe(reason: reason) }
    if entry.path.hasSuffix("/")
      || zipEntryComponents(entry.path).contains(where: { $0.hasPrefix(".") })
      || roots.contains(where: { entry.path.hasPrefix($0) }) || !entry.isFile
    {
      return .skipped
    }
    return .file
  }

  /// Surveys of the zips at `paths`, made on all cores.
  func surveys(_ paths: [String]) -> [ZipSurvey] {
    var surveys = [ZipSurvey?](repeating: nil, count: paths.count)
    surveys.withUnsafeMutableBufferPointer { buffer in
      // Each iteration writes its own element; concurrentPerform returns after all ran.
      nonisolated(unsafe) let slots = buffer
      DispatchQueue.concurrentPerform(iterations: paths.count) { index in
        slots[index] = survey(paths[index])
      }
    }
    return surveys.map { $0 ?? ZipSurvey(reader: .failure(ImportError(reason: "not surveyed"))) }
  }

  /// Lists a zip's entries into `found`; `survey` (of this zip, not nested) saves reading its
  /// Bridge roots and peeking at its entries again.
  func list(
    _ reader: ZipReader, _ listing: ZipListing, survey: ZipSurvey? = nil, into found: inout Found
  ) {
    let roots = survey?.roots ?? bridgeRoots(reader)
    if roots.contains(""), listing.isBelowFolderRoot {
      found.items.appendBridgeZip(below: listing.display, size: listing.size)
      return
    }
    if roots.contains("") {
      found.items.append(
        InputItem(
          displayPath: listing.display, folders: listing.aboveFolders,
          location: .bridgeZip(zipPath: listing.zipPath, nestedZip: listing.nestedZip, root: ""),
          size: listing.size))
      return
    }
    for root in roots.sorted() {
      let size = reader.entries.filter { $0.path.hasPrefix(root) }.reduce(0) {
        $0 + $1.uncompressedSize
      }
      found.items.append(
        InputItem(
          displayPath: listing.display + "!/" + root.dropLast(), folders: listing.entryFolders,
          location: .bridgeZip(zipPath: listing.zipPath, nestedZip: listing.nestedZip, root: root),
          size: size))
    }
    let zip = found.items.beginZip(
      zipPath: listing.zipPath, nestedZip: listing.nestedZip, display: listing.display,
      entryFolders: listing.entryFolders)
    for (index, entry) in reader.entries.enumerated() {
      // Only problems and nested zips need it here: the list stores the entry's own copy.
      var display: String { listing.display + "!/" + entry.path }
      let kind = kind(of: entry, roots: roots)
      switch kind {
      case .unsafe(let reason):
        found.problems.append(ImportError(file: display, reason: reason))
        continue
      case .skipped: continue
      case .file: break
      }
      if listing.nestedZip == nil, asksWhetherZip(entry, kind: kind),
        survey?.startsLikeZip[index] ?? isZipMagic(reader.peek(entry.path, count: 4))
      {
        listNested(reader, entry: entry, in: listing, display: display, into: &found)
        continue
      }
      // Stored compactly: the list rebuilds the item (display path, folders, location).
      found.items.appendZipEntry(zip: zip, path: entry.path, size: entry.uncompressedSize)
    }
  }

  /// Reads a zip entry that is a zip into memory and lists its entries (one level only).
  private func listNested(
    _ reader: ZipReader, entry: ZipReader.EntryInfo, in listing: ZipListing, display: String,
    into found: inout Found
  ) {
    guard entry.uncompressedSize <= zipLimits.maximumNestedZipSize else {
      found.problems.append(
        ImportError(
          file: display,
          reason: "nested zip is \(entry.uncompressedSize) bytes, over the limit of "
            + "\(zipLimits.maximumNestedZipSize) bytes for zips inside zips"))
      return
    }
    do {
      let inner = try ZipReader(bytes: try reader.read(entry.path), limits: zipLimits)
      let components = zipEntryComponents(entry.path)
      let nested = ZipListing(
        zipPath: listing.zipPath, nestedZip: entry.path, display: display,
        aboveFolders: listing.entryFolders + components.dropLast(),
        entryFolders: listing.entryFolders + components, size: entry.uncompressedSize)
      list(inner, nested, into: &found)
    } catch let error as ImportError {
      found.problems.append(error.inFile(display))
    } catch {
      found.problems.append(ImportError(file: display, reason: "\(error)"))
    }
  }

  /// Folders of the zip (`""` = its top, else `"name/"`, one level down) holding a Bridge
  /// `info.json`.
  private func bridgeRoots(_ reader: ZipReader) -> [String] {
    reader.entries.compactMap { entry -> String? in
      // Most entries are not `info.json`: a byte test before splitting (by bytes, as
      // `zipEntryComponents` does).
      guard entry.path.utf8.reversed().starts(with: "info.json".utf8.reversed()) else {
        return nil
      }
      let parts = entry.path.utf8.split(
        separator: UInt8(ascii: "/"), omittingEmptySubsequences: false
      )
      .map { String(Substring($0)) }
      guard entry.isFile, parts.last == "info.json", parts.count <= 2,
        !parts.contains(where: { $0.hasPrefix(".") || $0.isEmpty || $0 == ".." }),
        entry.uncompressedSize <= 1 << 20,
        let value = try? reader.readJSON(entry.path, parser: JSONParser()),
        BridgeUploadReader.isUploadInfo(value)
      else { return nil }
      return parts.count == 1 ? "" : parts[0] + "/"
    }
  }

  /// `escapesZip`'s test over the bytes of a printable ASCII path (see `zipEntryComponents`):
  /// absolute (a leading separator, or a first part of two bytes ending in `:`), or a part that
  /// is `..`, parts being split at `/` and `\`.
  private static func escapes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func isSeparator(_ byte: UInt8) -> Bool { byte == 0x2F || byte == 0x5C }
    if let first = bytes.first, isSeparator(first) { return true }
    var start = 0
    var isFirstPart = true
    for index in 0...bytes.count where index == bytes.count || isSeparator(bytes[index]) {
      let length = index - start
      if isFirstPart && length == 2 && bytes[start + 1] == UInt8(ascii: ":") { return true }
      if length == 2 && bytes[start] == 0x2E && bytes[start + 1] == 0x2E { return true }
      isFirstPart = false
      start = index + 1
    }
    return false
  }

  /// Why an entry may not be read: paths that are absolute or climb out of the zip (zip-slip),
  /// and links (never followed).
  private func unsafeReason(_ entry: ZipReader.EntryInfo) -> String? {
    if Self.escapesZip(entry.path) {
      return "zip entry path escapes the archive (absolute or '..'); not read"
    }
    if entry.isSymlink { return "zip entry is a symbolic link; not followed" }
    return nil
  }

  /// Whether `path` is absolute or climbs out of the zip. Printable ASCII paths are tested
  /// over their bytes (no NUL can occur there), others by Characters.
  private static func escapesZip(_ path: String) -> Bool {
    var path = path
    if let ascii = path.withUTF8({ isPrintableASCII($0) ? escapes($0) : nil }) { return ascii }
    let parts = path.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
    let isAbsolute =
      path.hasPrefix("/") || path.hasPrefix("\\")
      || (parts.first.map { $0.count == 2 && $0.last == ":" } ?? false)
    return isAbsolute || parts.contains("..") || path.contains("\0")
  }
}

/// The `/`-separated components of a zip entry path, empty ones left out, split by bytes: a
/// slash followed by a combining mark is one Character with it, and splitting by Characters
/// took `P001/◌́a` for a single component.
func zipEntryComponents(_ path: String) -> [String] {
  var path = path
  return path.withUTF8 { bytes -> [String] in
    var components: [String] = []
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x2F {
      if index > start {
        components.append(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
      }
      start = index + 1
    }
    return components
  }
}

/// True when every byte is printable ASCII (0x20…0x7E): one Character per byte.
func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
}
