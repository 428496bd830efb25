// The command line as users meet it: help, usage errors and exit statuses (design.md §4).
import Foundation
import XCTest

final class CommandLineTests: XCTestCase {
  func testHelp_RootCommand_ListsOutputsAndExitStatuses() throws {
    let dir = try Workdir()
    let result = try dir.run(["--help"])
    XCTAssertEqual(result.status, 0, result.stderr)
    for expected in ["answers.csv", "inputs.csv", "--out", "--tz", "--xlsx", "Exit status"] {
      XCTAssertTrue(result.stdout.contains(expected), "help lacks \(expected):\n\(result.stdout)")
    }
  }

  /// Exports are parsed as the export command itself (main.swift); the root's own words still
  /// reach the root: `help`, its subcommands' help, shell completion, `--version`.
  func testRootWords_AnsweredByTheRootCommand() throws {
    let dir = try Workdir()
    let rootHelp = try dir.run(["help"])
    XCTAssertEqual(rootHelp.status, 0, rootHelp.stderr)
    XCTAssertTrue(rootHelp.stdout.contains("SUBCOMMANDS"), rootHelp.stdout)
    let statsHelp = try dir.run(["help", "stats"])
    XCTAssertEqual(statsHelp.status, 0, statsHelp.stderr)
    XCTAssertTrue(statsHelp.stdout.contains("rkexport stats"), statsHelp.stdout)
    let completion = try dir.run(["--generate-completion-script", "bash"])
    XCTAssertEqual(completion.status, 0, completion.stderr)
    XCTAssertTrue(completion.stdout.contains("_rkexport"), "a script for rkexport, not export")
    let version = try dir.run(["samples", "--version"])
    XCTAssertEqual(version.status, 0, version.stderr)
    XCTAssertFalse(version.stdout.isEmpty)
    let exportHelp = try dir.run(["samples", "--help"])
    XCTAssertEqual(exportHelp.status, 0, exportHelp.stderr)
    XCTAssertTrue(exportHelp.stdout.contains("--xlsx"), exportHelp.stdout)
  }

  func testUsage_UnknownFlag_ExitsTwo() throws {
    let dir = try Workdir()
    let result = try dir.run(["samples", "--no-such-flag"])
    XCTAssertEqual(result.status, 2, result.command)
    XCTAssertTrue(result.stderr.contains("--no-such-flag"), result.stderr)
  }

  func testUsage_UnknownTimeZone_ExitsTwoNamingTheZone() throws {
    let dir = try Workdir()
    let result = try dir.run(["samples", "--tz", "Mars/Olympus"])
    XCTAssertEqual(result.status, 2, result.command)
    XCTAssertTrue(result.stderr.contains("Mars/Olympus"), result.stderr)
  }

  func testUsage_BadParticipantPattern_ExitsTwo() throws {
    let dir = try Workdir()
    let result = try dir.run(["samples", "--participant-pattern", "(unclosed"])
    XCTAssertEqual(result.status, 2, result.command)
    XCTAssertTrue(result.stderr.contains("--participant-pattern"), result.stderr)
  }

  /// `--state "$STATE"` with the variable unset in a cron line: refused at once, not after the
  /// export (which then failed to rename the finished state, exit 3).
  func testUsage_EmptyStateOrOutName_ExitsTwo() throws {
    let dir = try Workdir()
    let state = try dir.run(["samples", "--out", "out", "--state", ""])
    XCTAssertEqual(state.status, 2, state.stderr)
    XCTAssertTrue(state.stderr.contains("--state needs a file name"), state.stderr)
    let out = try dir.run(["samples", "--out", ""])
    XCTAssertEqual(out.status, 2, out.stderr)
    XCTAssertTrue(out.stderr.contains("--out needs a folder name"), out.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/out"))
  }

  /// A Latin-1 `--out` or `--state` reached rkexport as mapped characters (its arguments are
  /// read as `FileSystemName`s) and was written under their UTF-8 bytes: a folder or state
  /// file of another name, exit 0. Refused now, before anything is written.
  func testUsage_OutOrStateNotUTF8_ExitsTwoWritingNothing() throws {
    let dir = try Workdir()
    for option in ["--out", "--state"] {
      // The name's 0xFF byte is given through the shell: Process takes only Strings.
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      let extra = option == "--state" ? " --out out" : ""
      process.arguments = [
        "-c", "exec \"$0\" samples\(extra) \(option) \"$(printf 'name-\\377')\"",
        Workdir.binary.path,
      ]
      process.currentDirectoryURL = dir.root
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 2, message)
      XCTAssertTrue(message.contains("\(option) name-"), message)
      XCTAssertTrue(message.contains("valid UTF-8"), message)
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], option)
    }
  }

  func testUsage_NoInput_ExitsTwo() throws {
    let dir = try Workdir()
    let result = try dir.run([])
    XCTAssertEqual(result.status, 2, result.command)
  }

  func testUsage_XLSXCompressionWithoutXLSX_ExitsTwoSayingAddXLSX() throws {
    let dir = try Workdir()
    let result = try dir.run([
      Workdir.packageRoot.path + "/samples/study", "--xlsx-compression", "standard",
    ])
    XCTAssertEqual(result.status, 2, result.command)
    XCTAssertTrue(result.stderr.contains("add --xlsx"), result.stderr)
  }

  func testExport_XLSXCompression_DefaultFastStandardOnRequest() throws {
    let dir = try Workdir()
    let study = Workdir.packageRoot.path + "/samples/study"
    for (arguments, expectedBits) in [([], 0b110), (["--xlsx-compression", "standard"], 0)] {
      let result = try dir.run([study, "--xlsx", "--out", "out", "--quiet"] + arguments)
      XCTAssertEqual(result.status, 0, result.command + "\n" + result.stderr)
      // The first local file header (APPNOTE 4.3.7): signature, version, then the flags,
      // whose bits 1 and 2 minizip sets from the deflate level (level 1: both, level 6: none).
      let bytes = [UInt8](try Data(contentsOf: dir.root.appendingPathComponent("out/results.xlsx")))
      XCTAssertEqual(Array(bytes[0..<4]), [0x50, 0x4B, 0x03, 0x04])
      XCTAssertEqual(Int(bytes[6]) & 0b110, expectedBits, result.command)
    }
  }

  func testExport_MissingInput_ExitsThreeAndSaysWhy() throws {
    let dir = try Workdir()
    let result = try dir.run(["no-such-folder", "--out", "out"])
    XCTAssertEqual(result.status, 3, result.command + "\n" + result.stderr)
    let inputs = try dir.readCSV("out/inputs.csv")
    XCTAssertEqual(inputs.count, 2, "header and one row: \(inputs)")
    XCTAssertEqual(inputs[1][0], "no-such-folder")
    XCTAssertEqual(inputs[1][2], "failed")
    XCTAssertTrue(inputs[1][5].contains("no such file or folder"), inputs[1][5])
  }

  func testExport_UnwritableOutput_ExitsThree() throws {
    let dir = try Workdir()
    try dir.write("a-file", bytes: Array("not a folder".utf8))
    try dir.write("in/notes.txt", bytes: Array("hello".utf8))
    let result = try dir.run(["in", "--out", "a-file/out"])
    XCTAssertEqual(result.status, 3, result.command + "\n" + result.stderr)
    XCTAssertTrue(result.stderr.contains("a-file/out"), result.stderr)
  }

  func testExport_OnlyUnrelatedFiles_ExitsZeroAndListsThemSkipped() throws {
    let dir = try Workdir()
    try dir.write("in/P001/photo.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let result = try dir.run(["in", "--out", "out"])
    XCTAssertEqual(result.status, 0, result.command + "\n" + result.stderr)
    let inputs = try dir.readCSV("out/inputs.csv")
    XCTAssertEqual(inputs[0], ["path", "format", "status", "task_runs", "answers", "error"])
    XCTAssertEqual(inputs[1][0], "P001/photo.png")
    XCTAssertEqual(inputs[1][2], "skipped")
  }
}
