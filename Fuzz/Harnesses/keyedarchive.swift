// libFuzzer harness: keyed archives (binary or XML) through the importer and the inspector.
@testable import RKImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  _ = try? KeyedArchiveImporter.importRuns(from: bytes)
  _ = try? ArchiveInspector.render(bytes)
  return 0
}
