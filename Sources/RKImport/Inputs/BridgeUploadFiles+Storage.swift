// Where a Bridge upload's files come from: a folder on disk or a folder inside a zip.
import Foundation
import ZIPFoundation

extension BridgeUploadFiles {
  /// The files below `path` (recursively, hidden entries skipped), each read up to `limit` bytes.
  public static func folder(_ path: String, limit: Int64) throws -> BridgeUploadFiles {
    var names: [String] = []
    var visited = Set<InputWalker.FolderIdentity>()
    listFolder(path, prefix: "", into: &names, visited: &visited)
    return BridgeUploadFiles(names: names.sorted()) { name in
      try readFile(path + "/" + name, limit: limit)
    }
  }

  /// Appends the files below the folder at `path` (links followed; a folder met again
  /// through a link is listed once) to `names`, each after `prefix`.
  private static func listFolder(
    _ path: String, prefix: String, into names: inout [String],
    visited: inout Set<InputWalker.FolderIdentity>
  ) {
    var info = stat()
    guard FileSystemName.status(path, &info) == 0,
      visited.insert(InputWalker.FolderIdentity(info)).inserted,
      let listing = FolderListing(path)
    else { return }
    for entry in listing.visibleInOrder() {
      let child = listing.name(entry)
      let full = path + "/" + child
      guard FileSystemName.status(full, &info) == 0 else { continue }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        listFolder(full, prefix: prefix + child + "/", into: &names, visited: &visited)
      } else {
        names.append(prefix + child)
      }
    }
  }

  /// The entries of `archive` below `root` (`""` for the whole zip, else `"folder/"`), read
  /// within `limits`; entry paths are checked by `ZipReader` before they get here.
  static func zip(_ archive: ZipReader, root: String) -> BridgeUploadFiles {
    // By bytes: a slash followed by a combining mark is one Character with it, and a
    // Character prefix test left such a file out of the upload.
    let names = archive.entries.compactMap { entry -> String? in
      guard entry.isFile, entry.path.utf8.starts(with: root.utf8) else { return nil }
      let name = String(Substring(entry.path.utf8.dropFirst(root.utf8.count)))
      // Hidden as the folder walk judges it (a dot followed by a combining mark is another
      // Character, so not).
      return zipEntryComponents(name).contains { $0.hasPrefix(".") } ? nil : name
    }
    var files = BridgeUploadFiles(names: names.sorted()) { name in
      try archive.read(root + name)
    }
    files.parsedJSON = { name, parser in try archive.readJSON(root + name, parser: parser) }
    return files
  }
}
