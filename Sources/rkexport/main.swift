// Entry point: runs the command and maps every outcome to design.md's exit statuses.
import ArgumentParser
import CMallocPolicy
import Foundation

/// design.md §4 says a usage error exits 2; ArgumentParser's default is 64 (EX_USAGE).
func exitStatus(for error: Error) -> Int32 {
  let code = RKExportCommand.exitCode(for: error)
  if code == .validationFailure { return 2 }
  return code.rawValue
}

// Peak memory that does not grow with the number of archives (see CMallocPolicy).
_ = rk_malloc_return_large_blocks()

do {
  var command = try RKExportCommand.parseAsRoot()
  try command.run()
} catch let failure as RunFailure {
  FileHandle.standardError.write(Data("rkexport: \(failure.message)\n".utf8))
  exit(failure.status)
} catch {
  let status = exitStatus(for: error)
  let message = RKExportCommand.fullMessage(for: error)
  if !message.isEmpty {
    let stream = status == 0 ? FileHandle.standardOutput : FileHandle.standardError
    stream.write(Data((message + "\n").utf8))
  }
  exit(status)
}
