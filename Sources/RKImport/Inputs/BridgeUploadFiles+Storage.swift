// Where a Bridge upload's files come from: a folder on disk or a folder inside a zip.
import Foundation
import ZIPFoundation

extension BridgeUploadFiles {
  /// The files below `path` (recursively, hidden entries skipped), each read up to `limit` bytes.
  public static func folder(_ path: String, limit: Int64) throws -> BridgeUploadFiles {
    var names: [String] = []
    var visited = Set<String>()
    listFolder(path, prefix: "", into: &names, visited: &visited)
    return BridgeUploadFiles(names: names.sorted()) { name in
      try readFile(path + "/" + name, limit: limit)
    }
  }

  private static func listFolder(
    _ path: String, prefix: String, into names: inout [String], visited: inout Set<String>
  ) {
    guard visited.insert((path as NSString).resolvingSymlinksInPath).inserted,
      let children = try? FileManager.default.contentsOfDirectory(atPath: path)
    else { return }
    for child in children.sorted() where !child.hasPrefix(".") {
      var isDirectory: ObjCBool = false
      let full = path + "/" + child
      guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else {
        continue
      }
      if isDirectory.boolValue {
        listFolder(full, prefix: prefix + child + "/", into: &names, visited: &visited)
      } else {
        names.append(prefix + child)
      }
    }
  }

  /// The entries of `archive` below `root` (`""` for the whole zip, else `"folder/"`), read
  /// within `limits`; entry paths are checked by `ZipReader` before they get here.
  static func zip(_ archive: ZipReader, root: String) -> BridgeUploadFiles {
    let names = archive.entries.compactMap { entry -> String? in
      guard entry.isFile, entry.path.hasPrefix(root) else { return nil }
      let name = String(entry.path.dropFirst(root.count))
      return name.split(separator: "/").contains { $0.hasPrefix(".") } ? nil : name
    }
    return BridgeUploadFiles(names: names.sorted()) { name in
      try archive.read(root + name)
    }
  }
}
