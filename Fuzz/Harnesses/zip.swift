// libFuzzer harness: the input written to a file and given to the walker and importer as a root,
// as `rkexport export FILE` would: zips (nested, Bridge uploads) and every reader behind them.
// Then once more through its folder, read where it lies: a zip below a folder root is surveyed
// on the walk's worker threads and a Bridge upload zip there is stored compactly.
import Foundation

@testable import RKImport

private let inputPath: String = {
  let folder = NSTemporaryDirectory() + "rkfuzz-zip-\(getpid())"
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder + "/input.zip"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard FileManager.default.createFile(atPath: inputPath, contents: Data(bytes: data, count: size))
  else { return 0 }
  // Small limits keep one execution fast; the checks are the same at any size.
  let limits = ZipLimits(
    maximumEntries: 1_000, maximumEntrySize: 4 << 20, maximumTotalSize: 64 << 20,
    maximumNestedZipSize: 4 << 20)
  walkAndImport(root: inputPath, limits: limits)
  var onDisk = limits
  onDisk.inMemoryZipSize = 0
  walkAndImport(root: (inputPath as NSString).deletingLastPathComponent, limits: onDisk)
  return 0
}

private func walkAndImport(root: String, limits: ZipLimits) {
  let (items, _) = InputWalker(roots: [root], zipLimits: limits).items()
  let importer = InputImporter(
    options: ImportOptions(zipLimits: limits, maximumFileSize: 4 << 20))
  for item in items { _ = importer.importItem(item) }
}
