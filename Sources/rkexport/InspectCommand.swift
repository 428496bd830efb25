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
    guard let data = FileManager.default.contents(atPath: file) else {
      throw RunFailure(status: 1, message: "\(file): cannot read")
    }
    do {
      print(try ArchiveInspector.render([UInt8](data)), terminator: "")
    } catch let error as ImportError {
      throw RunFailure(status: 1, message: error.inFile(file).description)
    }
  }
}
