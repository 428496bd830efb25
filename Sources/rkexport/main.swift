// Entry point: runs the command and maps every outcome to design.md's exit statuses.
import ArgumentParser
import CMallocPolicy
import Foundation
import RKImport

/// design.md §4 says a usage error exits 2; ArgumentParser's default is 64 (EX_USAGE).
func exitStatus(for error: Error) -> Int32 {
  let code = RKExportCommand.exitCode(for: error)
  if code == .validationFailure { return 2 }
  return code.rawValue
}

// Peak memory that does not grow with the number of archives (see CMallocPolicy).
_ = rk_malloc_return_large_blocks()

/// The command the arguments ask for. Nearly every run is an export, the default subcommand:
/// parsed as the export command itself, ArgumentParser does not reflect the root command and
/// then the export command's arguments a second time to see whether they pass the rest through
/// (~8 M instructions at every start, before any input is read). Anything else, and any
/// arguments the export command does not accept as they are (help, version, a mistake), go
/// through the root command, so its messages, help and exit statuses are unchanged.
func parsedCommand() throws -> ParsableCommand {
  // Made from the bytes as file names are (`FileSystemName`): an input path that is not valid
  // UTF-8 then names its file, where `CommandLine.arguments` repairs it past opening.
  let arguments = (1..<Int(CommandLine.argc)).map { index -> String in
    guard let argument = CommandLine.unsafeArgv[index] else { return "" }
    return FileSystemName.string(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
  }
  // The root's own words: its subcommands, and what ArgumentParser adds (`help`, help and
  // version flags, shell completion and help dumps), answered for the root command.
  let rootWords =
    RKExportCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
    + ["help"]
  let isRootFlag = { (argument: String) in
    ["-h", "--help", "-help", "--version"].contains(argument)
      || argument.hasPrefix("--generate-completion-script")
      || argument.hasPrefix("--experimental-dump-help")
  }
  if let first = arguments.first, !rootWords.contains(first),
    !arguments.contains(where: isRootFlag),
    // An export, not the help command ArgumentParser makes of `--help`.
    let export = (try? ExportCommand.parseAsRoot(arguments)) as? ExportCommand
  {
    return export
  }
  return try RKExportCommand.parseAsRoot(arguments)
}

do {
  var command = try parsedCommand()
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
