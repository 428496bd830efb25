// libFuzzer harness: a Bridge upload held in memory. The input is a set of files separated by NUL
// bytes, each `name\ncontent` (info.json, metadata.json and the answer files it lists).
@testable import RKImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var contents: [String: [UInt8]] = [:]
  for file in splitFiles(fuzzBytes(data, size)) where contents[file.name] == nil {
    contents[file.name] = file.content
  }
  let files = BridgeUploadFiles(names: contents.keys.sorted()) { name in
    guard let bytes = contents[name] else { throw ImportError(reason: "no file \(name)") }
    return bytes
  }
  _ = try? BridgeUploadReader.read(files, parser: JSONParser(maximumBytes: 1 << 20))
  return 0
}
