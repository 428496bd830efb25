// Shared by every harness: turning libFuzzer's buffer into bytes, splitting multi-file inputs,
// and walking a binary plist's whole object table.
import Foundation

@testable import RKImport

/// The fuzzer's input as an array (the readers take `[UInt8]`).
func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
  Array(UnsafeBufferPointer(start: data, count: size))
}

/// Splits an input holding several files, separated by NUL bytes, each part `name\ncontent`
/// (the format of the `bridge` and `surveydefinition` seeds; see Fuzz/README.md).
func splitFiles(_ bytes: [UInt8]) -> [(name: String, content: [UInt8])] {
  bytes.split(separator: 0, omittingEmptySubsequences: false).map { part in
    guard let newline = part.firstIndex(of: 0x0A) else { return ("", Array(part)) }
    let name = String(decoding: part[part.startIndex..<newline], as: UTF8.self)
    return (name, Array(part[(newline + 1)...]))
  }
}

/// Decodes every object of `document` by type, as the keyed-archive layer would, so each
/// header, length, value and child reference is read at least once.
func walkAllObjects(_ document: BPlistDocument) {
  for ref in 0..<document.objectCount {
    guard let header = try? document.header(ref) else { continue }
    switch header.type {
    case .integer: _ = document.integer(header)
    case .real: _ = document.real(header)
    case .date: _ = document.date(header)
    case .uid: _ = document.uid(header)
    case .data: _ = document.data(header)
    case .string:
      _ = document.string(header)
      _ = document.string(header, equals: "$objects")
    case .array, .set, .dictionary:
      let children = header.type == .dictionary ? header.count * 2 : header.count
      for index in 0..<children { _ = try? document.childRef(header, index) }
    case .null, .bool: break
    }
    _ = document.number(header)
  }
}
