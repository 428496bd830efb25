// Reads a CSV file record by record as raw bytes, in constant memory, for --append's merge.
import Foundation

/// Splits an RFC 4180 file into records (each with its `\n`), honouring quoted line breaks.
/// Reads 1 MiB at a time; a record is held whole, so memory is one chunk plus the longest row.
struct CSVRecordReader {
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var position = 0
  private var atEnd = false

  init(path: String) throws {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw OutputError(path: path, reason: "cannot read the table")
    }
    self.handle = handle
  }

  /// The next record with its line end, or nil at the end of the file.
  mutating func next() throws -> Data? {
    var inQuotes = false
    var index = position
    while true {
      if index == buffer.count {
        if atEnd {
          guard position < buffer.count else { return nil }
          let record = Data(buffer[position...]) + Data([0x0A])
          position = buffer.count
          return record
        }
        let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
        if chunk.isEmpty { atEnd = true }
        buffer.removeSubrange(0..<position)
        index -= position
        position = 0
        buffer.append(contentsOf: chunk)
        continue
      }
      let byte = buffer[index]
      if byte == 0x22 {
        inQuotes.toggle()
      } else if byte == 0x0A && !inQuotes {
        let record = Data(buffer[position...index])
        position = index + 1
        return record
      }
      index += 1
    }
  }

  /// The unquoted fields of one record (its line end dropped).
  static func fields(_ record: Data) -> [String] {
    var fields: [String] = []
    var field: [UInt8] = []
    var inQuotes = false
    var bytes = Array(record)
    if bytes.last == 0x0A { bytes.removeLast() }
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if inQuotes {
        if byte == 0x22 {
          if index + 1 < bytes.count && bytes[index + 1] == 0x22 {
            field.append(0x22)
            index += 1
          } else {
            inQuotes = false
          }
        } else {
          field.append(byte)
        }
      } else if byte == 0x22 {
        inQuotes = true
      } else if byte == 0x2C {
        fields.append(String(decoding: field, as: UTF8.self))
        field = []
      } else {
        field.append(byte)
      }
      index += 1
    }
    fields.append(String(decoding: field, as: UTF8.self))
    return fields
  }
}
