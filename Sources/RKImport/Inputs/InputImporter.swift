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
public struct InputImporter: Sendable {
  /// Files larger than this are failed without being read (no result archive comes close).
  public var maximumFileSize: Int64

  public init(maximumFileSize: Int64 = 512 << 20) {
    self.maximumFileSize = maximumFileSize
  }

  public func importItem(_ item: InputItem) -> ImportOutcome {
    let bytes: [UInt8]
    do {
      bytes = try readBytes(item)
    } catch let error as ImportError {
      return .failed(.unknown, error.inFile(item.displayPath))
    } catch {
      return .failed(.unknown, ImportError(file: item.displayPath, reason: "cannot read: \(error)"))
    }
    let format = FormatSniffer.sniff(bytes)
    do {
      switch format {
      case .keyedArchiveBinary, .keyedArchiveXML:
        let runs = try KeyedArchiveImporter.importRuns(from: bytes)
        return .imported(ImportedInput(format: format, runs: runs))
      case .unknown:
        return .skipped(.unknown, reason: FormatSniffer.describeUnknown(bytes))
      default:
        return .skipped(format, reason: "format not supported yet")
      }
    } catch let error as ImportError {
      return .failed(format, error.inFile(item.displayPath))
    } catch {
      return .failed(format, ImportError(file: item.displayPath, reason: "\(error)"))
    }
  }

  func readBytes(_ item: InputItem) throws -> [UInt8] {
    switch item.location {
    case .file(let path):
      return try readFile(path, limit: maximumFileSize)
    case .zipEntry:
      throw ImportError(reason: "zip inputs are not supported yet")
    }
  }
}

/// Reads a whole file with POSIX calls (no Foundation `Data` round trip on the hot path).
func readFile(_ path: String, limit: Int64) throws -> [UInt8] {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { throw ImportError(reason: "cannot open: \(String(cString: strerror(errno)))") }
  defer { close(fd) }
  var info = stat()
  guard fstat(fd, &info) == 0 else { throw ImportError(reason: "cannot stat") }
  let size = Int64(info.st_size)
  guard size <= limit else {
    throw ImportError(reason: "file is \(size) bytes, over the limit of \(limit) bytes")
  }
  var bytes = [UInt8](repeating: 0, count: Int(size))
  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeMutableBytes { buffer in
      read(fd, buffer.baseAddress! + offset, buffer.count - offset)
    }
    if n < 0 { throw ImportError(reason: "read failed: \(String(cString: strerror(errno)))") }
    if n == 0 { break }
    offset += n
  }
  if offset < bytes.count { bytes.removeLast(bytes.count - offset) }
  return bytes
}
