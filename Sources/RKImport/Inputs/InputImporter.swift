// Reads one input item, sniffs its format from content and hands it to the right reader.
import Foundation
import RKModel

/// The outcome of importing one input item.
public enum ImportOutcome: Sendable {
  /// Read: its format and the task runs it held.
  case imported(ImportedInput)
  /// Recognised (or not) but unreadable: the error names the file and the place.
  case failed(InputFormat, ImportError)
  /// Not a result format (images, audio, notes): listed as skipped with the reason.
  case skipped(InputFormat, reason: String)
}

/// Imports input items; safe to call from several threads at once.
///
/// Every run it returns has `source` set to the item's display path (`#N` appended, 1-based,
/// when a file holds several runs); `participantID` is left for the caller's participant rule.
public struct InputImporter: Sendable {
  public var options: ImportOptions
  private let zipCache = ZipReaderCache()

  public init(options: ImportOptions = ImportOptions()) {
    self.options = options
  }

  public init(maximumFileSize: Int64) {
    self.init(options: ImportOptions(maximumFileSize: maximumFileSize))
  }

  /// Files larger than this are failed without being read (no result archive comes close).
  public var maximumFileSize: Int64 { options.maximumFileSize }

  public func importItem(_ item: InputItem) -> ImportOutcome {
    switch item.location {
    case .bridgeFolder, .bridgeZip:
      return importBridge(item)
    case .file, .zipEntry, .nestedZipEntry:
      break
    }
    let bytes: [UInt8]
    do {
      bytes = try readBytes(item)
    } catch let error as ImportError {
      return .failed(.unknown, error.inFile(item.displayPath))
    } catch {
      return .failed(.unknown, ImportError(file: item.displayPath, reason: "cannot read: \(error)"))
    }
    return importBytes(bytes, item: item)
  }

  /// What reading a file the walk did not open (`InputItem.mayBeZip`) found.
  public enum UnopenedRead: Sendable {
    /// Its bytes, to import (`importItem(_:bytes:)`).
    case bytes([UInt8])
    /// It starts like a zip, of `size` bytes: to be listed (`zipContents(of:size:bytes:walker:)`),
    /// not imported.
    case zip(size: Int64, bytes: ZipBytes)
    /// It cannot be read: the outcome `importItem(_:)` gives.
    case failed(ImportOutcome)
  }

  /// Reads a file the walk listed without opening it, telling a zip by its first bytes as
  /// the walk would have (`readFileUnlessZip`: a large zip is not read whole, since a zip of
  /// any size is listed).
  public func readUnopened(_ item: InputItem) -> UnopenedRead {
    guard case .file(let path) = item.location else {
      return .failed(importItem(item))
    }
    do {
      switch try readFileUnlessZip(path, limit: maximumFileSize) {
      case .bytes(let bytes): return .bytes(bytes)
      case .zip(let size, let bytes): return .zip(size: size, bytes: ZipBytes(bytes: bytes))
      case .larger(let size):
        let error = ImportError(reason: fileTooLarge(size: size, limit: maximumFileSize))
        return .failed(.failed(.unknown, error.inFile(item.displayPath)))
      }
    } catch let error as ImportError {
      return .failed(.failed(.unknown, error.inFile(item.displayPath)))
    } catch {
      return .failed(
        .failed(.unknown, ImportError(file: item.displayPath, reason: "cannot read: \(error)")))
    }
  }

  /// The bytes of a zip `readUnopened` read whole to tell it (nil: a large one, not read).
  public struct ZipBytes: Sendable {
    fileprivate var bytes: [UInt8]?
  }

  /// What a file `readUnopened` found to be a zip holds, as `InputWalker.zipContents(of:)`
  /// lists it; nil when it is no zip after all. A small zip is listed from the bytes read to
  /// tell it, and the reader kept for importing its items: a Bridge upload zip was otherwise
  /// read and its directory decoded three times (to tell, to list, to import).
  public func zipContents(of item: InputItem, size: Int64, bytes: ZipBytes, walker: InputWalker)
    -> (items: InputItemList, problems: [InputWalker.PlacedProblem])?
  {
    guard case .file(let path) = item.location, let bytes = bytes.bytes else {
      return walker.zipContents(of: item, zipSize: size)
    }
    let survey = walker.survey(path, bytes: bytes)
    // Kept only where the importer would open it alike (the limits it reads entries with).
    if case .success(let reader) = survey.reader, walker.zipLimits == zipLimits {
      zipCache.keep(reader, zipPath: path)
    }
    return walker.zipContents(of: item, zipSize: size, survey: survey)
  }

  /// Imports an item from its bytes, read by the caller (who needed them first: `--state`
  /// hashes a file before deciding to import it); as `importItem(_:)` for a file or zip entry.
  public func importItem(_ item: InputItem, bytes: [UInt8]) -> ImportOutcome {
    importBytes(bytes, item: item)
  }

  private func importBytes(_ bytes: [UInt8], item: InputItem) -> ImportOutcome {
    let detection = FormatSniffer.detect(bytes, parser: parser)
    let format: InputFormat
    switch detection {
    case .format(let found), .json(let found, _): format = found
    case .damagedJSON(let found, let error): return .failed(found, error.inFile(item.displayPath))
    case .notResults(let reason): return .skipped(.unknown, reason: reason)
    }
    do {
      switch detection {
      case .format(.keyedArchiveBinary), .format(.keyedArchiveXML):
        let runs = try KeyedArchiveImporter.importRuns(from: bytes)
        return .imported(ImportedInput(format: format, runs: sourced(consume runs, item)))
      case .format(.zip):
        return zipOutcome(item)
      case .json(.researchKitJSON, let document):
        switch try ResearchKitJSONImporter.read(document) {
        case .runs(let runs, let notes):
          return .imported(
            ImportedInput(format: .researchKitJSON, runs: sourced(consume runs, item), notes: notes)
          )
        case .noResults(let reason):
          return .skipped(.researchKitJSON, reason: reason)
        }
      case .json(.surveyNative, let parsed):
        let document = parsed.root.value
        let ids = document["answers"]?.objectMembers?.map(\.key) ?? []
        let definition = options.definition(forAnswerIDs: ids)
        let (run, notes) = try SurveyNativeReader.read(
          document, bytes: bytes, source: item.displayPath, definition: definition?.rules)
        return .imported(ImportedInput(format: .surveyNative, runs: [run], notes: notes))
      default:
        return .skipped(format, reason: "format not supported yet")
      }
    } catch let error as ImportError {
      return .failed(format, error.inFile(item.displayPath))
    } catch {
      return .failed(format, ImportError(file: item.displayPath, reason: "\(error)"))
    }
  }

  /// A zip reaching the importer is one the walker could not list, or one nested too deep.
  private func zipOutcome(_ item: InputItem) -> ImportOutcome {
    guard case .file(let path) = item.location else {
      return .skipped(
        .zip, reason: "zip inside a zip inside a zip: only one level of nesting is read")
    }
    do {
      _ = try ZipReader(path: path, limits: zipLimits)
      return .skipped(.zip, reason: "zip listed as a single file; its entries are read separately")
    } catch let error as ImportError {
      return .failed(.zip, error.inFile(item.displayPath))
    } catch {
      return .failed(.zip, ImportError(file: item.displayPath, reason: "\(error)"))
    }
  }

  private func importBridge(_ item: InputItem) -> ImportOutcome {
    do {
      let upload: BridgeUpload
      switch item.location {
      case .bridgeFolder(let path):
        upload = try BridgeUploadReader.read(
          .folder(path, limit: options.maximumFileSize), parser: parser)
      case .bridgeZip(let zipPath, let nestedZip, let root):
        upload = try zipCache.withReader(
          zipPath: zipPath, nestedZip: nestedZip, limits: zipLimits
        ) { reader in
          try BridgeUploadReader.read(.zip(reader, root: root), parser: parser)
        }
      default:
        return .failed(.bridgeUpload, ImportError(file: item.displayPath, reason: "not an upload"))
      }
      switch upload {
      case .run(let run, let notes):
        return .imported(
          ImportedInput(format: .bridgeUpload, runs: sourced([run], item), notes: notes))
      case .noResults(let reason):
        return .skipped(.bridgeUpload, reason: reason)
      }
    } catch let error as ImportError {
      return .failed(.bridgeUpload, error.inFile(item.displayPath))
    } catch {
      return .failed(.bridgeUpload, ImportError(file: item.displayPath, reason: "\(error)"))
    }
  }

  private var parser: JSONParser {
    JSONParser(maximumBytes: Int(clamping: options.maximumFileSize))
  }

  private func sourced(_ runs: consuming [TaskRun], _ item: InputItem) -> [TaskRun] {
    // In place: the callers hand the decoder's runs over, so no run is copied.
    let count = runs.count
    for index in runs.indices {
      runs[index].source = count == 1 ? item.displayPath : Self.source(item.displayPath, index + 1)
    }
    return runs
  }

  /// `path#number` (`String.joining`: interpolation cost ~1,350 instructions a run, as it grows
  /// the string twice; most of the ~600 left is the String's allocation).
  static func source(_ path: String, _ number: Int) -> String {
    var path = path
    return path.withUTF8 { path in
      // Written from the end: 20 bytes hold any Int's decimal text with its sign.
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var value = number.magnitude
        var start = digits.count
        repeat {
          start -= 1
          digits.initializeElement(at: start, to: UInt8(ascii: "0") + UInt8(value % 10))
          value /= 10
        } while value > 0
        if number < 0 {
          start -= 1
          digits.initializeElement(at: start, to: UInt8(ascii: "-"))
        }
        return String.joining(
          path, UInt8(ascii: "#"), UnsafeBufferPointer(rebasing: digits[start...]))
      }
    }
  }

  func readBytes(_ item: InputItem) throws -> [UInt8] {
    switch item.location {
    case .file(let path):
      return try readFile(path, limit: maximumFileSize)
    case .zipEntry(let zipPath, let entry):
      return try readZipEntry(zipPath: zipPath, nestedZip: nil, entry: entry)
    case .nestedZipEntry(let zipPath, let nestedZip, let entry):
      return try readZipEntry(zipPath: zipPath, nestedZip: nestedZip, entry: entry)
    case .bridgeFolder, .bridgeZip:
      throw ImportError(reason: "a Bridge upload is read as a whole")
    }
  }

  private func readZipEntry(zipPath: String, nestedZip: String?, entry: String) throws -> [UInt8] {
    try zipCache.withReader(zipPath: zipPath, nestedZip: nestedZip, limits: zipLimits) {
      try $0.read(entry)
    }
  }

  /// The zip limits, with entries also held to the maximum file size.
  private var zipLimits: ZipLimits {
    var limits = options.zipLimits
    limits.maximumEntrySize = min(limits.maximumEntrySize, maximumFileSize)
    return limits
  }
}
