// libFuzzer harness: the JSON parser, plus the sniffer's classification of what it parsed.
@testable import RKImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  if let value = try? JSONParser(maximumDepth: 512, maximumBytes: 1 << 20).parse(bytes) {
    _ = value.keyedValue
    _ = FormatSniffer.classify(value)
  }
  _ = FormatSniffer.detect(bytes)
  return 0
}
