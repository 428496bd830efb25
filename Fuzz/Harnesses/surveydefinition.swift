// libFuzzer harness: a SurveyNative definition and a submission read with it. The input is two
// files separated by a NUL byte, each `name\ncontent`: the definition, then the answers.
@testable import RKImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let files = splitFiles(fuzzBytes(data, size))
  guard let first = files.first,
    let (_, rules) = try? SurveyDefinitionReader.read(first.content, fileName: first.name)
  else { return 0 }
  for answers in files.dropFirst() {
    guard let document = try? JSONParser(maximumBytes: 1 << 20).parse(answers.content) else {
      continue
    }
    _ = try? SurveyNativeReader.read(
      document, bytes: answers.content, source: answers.name, definition: rules)
  }
  return 0
}
