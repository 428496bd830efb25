// libFuzzer harness: the XML plist reader, and the binary plist it transcodes to.
@testable import RKImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard let binary = try? XMLPlistReader.transcode(fuzzBytes(data, size)) else { return 0 }
  // What the writer produced must always parse: anything else is a writer bug.
  guard let document = try? BPlistDocument(bytes: binary) else {
    fatalError("XMLPlistReader produced a binary plist that BPlistDocument rejects")
  }
  walkAllObjects(document)
  return 0
}
