// samplegen: the sample study + ground truth, hostile fixtures, or a benchmark corpus.
//
//   samplegen samples <samples-dir> <truth.json>
//   samplegen hostile <dir> [small]
//   samplegen corpus <dir> <count>
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Swift seeds Dictionary hashing per process, which reorders the keys NSKeyedArchiver writes;
/// with SWIFT_DETERMINISTIC_HASHING set the same input gives the same bytes. Re-run once with it.
func ensureDeterministicHashing() {
  guard ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil else { return }
  setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
  let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
  execv("/proc/self/exe", arguments)
  // execv returns only on failure; carry on (output is then valid but not byte-stable).
  FileHandle.standardError.write(Data("samplegen: could not re-exec for stable output\n".utf8))
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("samplegen: \(message)\n".utf8))
  exit(2)
}

ensureDeterministicHashing()
let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "samples" where arguments.count == 3:
    try SampleWriter.write(samplesDirectory: arguments[1], truthPath: arguments[2])
  case "hostile" where arguments.count == 2 || (arguments.count == 3 && arguments[2] == "small"):
    try HostileWriter.write(directory: arguments[1], small: arguments.count == 3)
  case "corpus" where arguments.count == 3:
    guard let count = Int(arguments[2]), count > 0 else { fail("count must be a positive integer") }
    try CorpusWriter.write(directory: arguments[1], count: count)
  default:
    fail("usage: samplegen samples DIR TRUTH.json | hostile DIR [small] | corpus DIR COUNT")
  }
} catch {
  fail("\(error)")
}
