// Finds every input below the given paths, in a deterministic order.
import Foundation

/// Walks files and folders (recursively, hidden entries skipped, symlink loops safe) and lists
/// the items to import, sorted by path so every run sees them in the same order.
public struct InputWalker: Sendable {
  public var roots: [String]

  public init(roots: [String]) {
    self.roots = roots
  }

  /// All items below all roots, each root's items sorted by display path; paths that do not
  /// exist are reported as problems rather than thrown, so the other roots still export.
  public func items() -> (items: [InputItem], problems: [ImportError]) {
    var items: [InputItem] = []
    var problems: [ImportError] = []
    for root in roots {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
        problems.append(ImportError(file: root, reason: "no such file or folder"))
        continue
      }
      if isDirectory.boolValue {
        var found: [InputItem] = []
        var visited = Set<String>()
        walkFolder(root, relative: [], into: &found, visited: &visited, problems: &problems)
        found.sort { $0.displayPath < $1.displayPath }
        items += found
      } else {
        let name = (root as NSString).lastPathComponent
        items.append(
          InputItem(displayPath: name, folders: [], location: .file(path: root), size: fileSize(root)))
      }
    }
    return (items, problems)
  }

  private func walkFolder(
    _ path: String, relative: [String], into items: inout [InputItem], visited: inout Set<String>,
    problems: inout [ImportError]
  ) {
    // Resolve symlinks so a link back to an ancestor is visited once, not forever.
    let real = (path as NSString).resolvingSymlinksInPath
    guard visited.insert(real).inserted else { return }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      let display = relative.joined(separator: "/")
      problems.append(ImportError(file: display.isEmpty ? path : display, reason: "cannot list folder"))
      return
    }
    for name in names.sorted() where !name.hasPrefix(".") {
      let child = path + "/" + name
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: child, isDirectory: &isDirectory) else { continue }
      if isDirectory.boolValue {
        walkFolder(child, relative: relative + [name], into: &items, visited: &visited, problems: &problems)
      } else {
        let display = (relative + [name]).joined(separator: "/")
        items.append(
          InputItem(displayPath: display, folders: relative, location: .file(path: child), size: fileSize(child)))
      }
    }
  }
}

func fileSize(_ path: String) -> Int64 {
  let attributes = try? FileManager.default.attributesOfItem(atPath: path)
  return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
}
