// libFuzzer harness: a SurveyNative submission read without a definition and with the sample
// survey's (RKFUZZ_SURVEY_DEFINITION, set by scripts/fuzz).
import Foundation

@testable import RKImport

private let definition: SurveyRules? = {
  guard let path = ProcessInfo.processInfo.environment["RKFUZZ_SURVEY_DEFINITION"] else {
    return nil
  }
  do {
    return try SurveyDefinitionReader.read(path: path).rules
  } catch {
    // A harness that silently lost its definition would fuzz only half of what it claims.
    FileHandle.standardError.write(Data("surveynative harness: \(error)\n".utf8))
    exit(2)
  }
}()

/// Loads the definition before fuzzing starts, so a bad path stops the run instead of being
/// saved as a crash input.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  _ = definition
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  guard let document = try? JSONParser(maximumBytes: 1 << 20).parse(bytes) else { return 0 }
  _ = try? SurveyNativeReader.read(document, bytes: bytes, source: "s.json", definition: nil)
  _ = try? SurveyNativeReader.read(
    document, bytes: bytes, source: "s.json", definition: definition)
  return 0
}
