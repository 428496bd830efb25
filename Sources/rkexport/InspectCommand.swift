// `rkexport inspect FILE`: one archive's hierarchy as an indented tree, for files that look odd.
import ArgumentParser
import Foundation
import RKImport

struct InspectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract: "Print one archive's result hierarchy: classes, identifiers, dates and answers."
  )

  @Argument(help: ArgumentHelp("The archive to show.", valueName: "file"))
  var file: String

  func run() throws {
    // Read as the export reads inputs (a name that is not UTF-8 too; a pipe is refused).
    let bytes: [UInt8]
    do {
      bytes = try readFile(file, limit: ImportOptions().maximumFileSize)
    } catch let error as ImportError {
      throw RunFailure(status: 1, message: "\(file): cannot read: \(error.reason)")
    }
    do {
      print(try ArchiveInspector.render(bytes), terminator: "")
    } catch let error as ImportError {
      throw RunFailure(status: 1, message: error.inFile(file).description)
    }
  }
}
