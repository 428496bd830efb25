// libFuzzer harness: the JSON parser, its flat document checked against its tree (the same
// value, nesting and error), plus the sniffer's classification of what it parsed.
@testable import RKImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  let parser = JSONParser(maximumDepth: 512, maximumBytes: 1 << 20)
  let tree: Result<JSONValue, Error> = Result { try parser.parse(bytes) }
  let document: Result<JSONDocument, Error> = Result { try parser.parseDocument(bytes) }
  switch (tree, document) {
  case (.success(let value), .success(let document)):
    guard document.root.value == value else { fatalError("document and tree differ") }
    _ = value.keyedValue
    _ = FormatSniffer.classify(document)
  case (.failure(let treeError), .failure(let documentError)):
    guard "\(treeError)" == "\(documentError)" else { fatalError("errors differ") }
  default:
    fatalError("one parse failed, the other did not")
  }
  _ = FormatSniffer.detect(bytes)
  return 0
}
