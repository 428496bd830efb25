// libFuzzer harness: the binary plist parser (BPlistDocument), every object decoded.
@testable import RKImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  if let document = try? BPlistDocument(bytes: fuzzBytes(data, size)) {
    walkAllObjects(document)
  }
  return 0
}
