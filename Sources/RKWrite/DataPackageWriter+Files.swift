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

  /// Writes to a hidden temporary file in the same folder, then renames it onto `path`.
  ///
  /// A private stand-in for the shared `AtomicFile` (same scheme: `.<name>.<token>.tmp`).
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let temporary = "\(folder).\(name).\(token).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw DataPackageWriteError(path: path, errorNumber: errno) }
    var failure: Int32?
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = systemWrite(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == nil { failure = errno }
    if failure == nil, rename(temporary, path) != 0 { failure = errno }
    if let failure {
      unlink(temporary)
      throw DataPackageWriteError(path: path, errorNumber: failure)
    }
  }
}

/// Writing `datapackage.json` failed: the path and the system's reason.
public struct DataPackageWriteError: Error, Equatable, CustomStringConvertible {
  public var path: String
  /// The `errno` value of the failed call.
  public var errorNumber: Int32

  public var description: String {
    "\(path): cannot write data package: \(String(cString: strerror(errorNumber)))"
  }
}

/// `write(2)`, named apart from `DataPackageWriter.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
  #else
    Darwin.write(descriptor, bytes, count)
  #endif
}
