// libFuzzer harness: ResearchKit ORKESerializer JSON through the shared class catalogue.
@testable import RKImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  if let document = try? JSONParser(maximumDepth: 512, maximumBytes: 1 << 20).parseDocument(bytes) {
    _ = try? ResearchKitJSONImporter.read(document)
  }
  return 0
}
