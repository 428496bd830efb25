// The walker's zip half: a zip's entries become items, Bridge uploads inside it become one item
// each, unsafe entry paths become problems, and zips inside the zip are expanded one level.

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
}

extension InputWalker {
  func list(_ reader: ZipReader, _ listing: ZipListing, into found: inout Found) {
    let roots = bridgeRoots(reader)
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
    for entry in reader.entries {
      let display = listing.display + "!/" + entry.path
      // Unsafe paths are reported before anything else, so `../x` is never taken as hidden.
      if let reason = unsafeReason(entry) {
        found.problems.append(ImportError(file: display, reason: reason))
        continue
      }
      let components = entry.path.split(separator: "/", omittingEmptySubsequences: true)
      if entry.path.hasSuffix("/") || components.contains(where: { $0.hasPrefix(".") })
        || roots.contains(where: { entry.path.hasPrefix($0) })
      {
        continue
      }
      guard entry.isFile else { continue }
      let folders = listing.entryFolders + components.dropLast().map(String.init)
      if listing.nestedZip == nil, isZipMagic(reader.peek(entry.path, count: 4)) {
        listNested(reader, entry: entry, in: listing, display: display, into: &found)
        continue
      }
      let location: InputItem.Location =
        listing.nestedZip.map {
          .nestedZipEntry(zipPath: listing.zipPath, nestedZip: $0, entry: entry.path)
        } ?? .zipEntry(zipPath: listing.zipPath, entry: entry.path)
      found.items.append(
        InputItem(
          displayPath: display, folders: folders, location: location,
          size: entry.uncompressedSize))
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
      let components = entry.path.split(separator: "/").map(String.init)
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
      let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false)
      guard entry.isFile, parts.last == "info.json", parts.count <= 2,
        !parts.contains(where: { $0.hasPrefix(".") || $0.isEmpty || $0 == ".." }),
        entry.uncompressedSize <= 1 << 20,
        let value = try? JSONParser().parse(try reader.read(entry.path)),
        BridgeUploadReader.isUploadInfo(value)
      else { return nil }
      return parts.count == 1 ? "" : parts[0] + "/"
    }
  }

  /// Why an entry may not be read: paths that are absolute or climb out of the zip (zip-slip),
  /// and links (never followed).
  private func unsafeReason(_ entry: ZipReader.EntryInfo) -> String? {
    let path = entry.path
    let parts = path.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
    let isAbsolute =
      path.hasPrefix("/") || path.hasPrefix("\\")
      || (parts.first.map { $0.count == 2 && $0.last == ":" } ?? false)
    if isAbsolute || parts.contains("..") || path.contains("\0") {
      return "zip entry path escapes the archive (absolute or '..'); not read"
    }
    if entry.isSymlink { return "zip entry is a symbolic link; not followed" }
    return nil
  }
}
