import RKTable

// Resource names and the atomic file write behind DataPackageWriter.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension DataPackageWriter {
  /// A Frictionless name (`^[-a-z0-9._/]+$`): lower-cased, other characters become `-`.
  static func resourceName(_ name: String) -> String {
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-._/".unicodeScalars)
    let scalars = name.lowercased().unicodeScalars.map { allowed.contains($0) ? $0 : "-" }
    let result = String(String.UnicodeScalarView(scalars))
    return result.isEmpty ? "table" : result
  }

  /// Unique resource names per schema name; a clash after cleaning gets `-2`, `-3`, ….
  static func resourceNames(for schemas: [TableSchema]) -> [String: String] {
    var names: [String: String] = [:]
    var used: Set<String> = []
    for schema in schemas where names[schema.name] == nil {
      let base = resourceName(schema.name)
      var candidate = base
      var suffix = 2
      while used.contains(candidate) {
        candidate = "\(base)-\(suffix)"
        suffix += 1
      }
      used.insert(candidate)
      names[schema.name] = candidate
    }
    return names
  }

  /// Lets `body` write through `AtomicFile`: a hidden temporary file in the same folder,
  /// renamed onto `path` only when `body` returns.
  static func writeAtomically(to path: String, _ body: (AtomicFile) throws -> Void) throws {
    let file = try AtomicFile(path: path)
    do {
      try body(file)
      try file.commit()
    } catch {
      file.abandon()
      throw error
    }
  }
}
