// A minimal binary property list writer for hostile fixtures: unlike PropertyListSerialization
// it writes whatever it is told — cycles through UIDs, absurd nesting, lying counts and offsets.
// `ScalarUniquing` writes its rewritten archives through it too.
import Foundation

/// One object of a binary plist; containers refer to other objects by index.
enum BPlistObject {
  case bool(Bool)
  case int(Int64)
  case real(Double)
  case string(String)
  case data([UInt8])
  case uid(UInt32)
  case array([Int])
  case dict([(key: Int, value: Int)])
  /// Raw bytes written as the object (for lying headers).
  case raw([UInt8])
  /// A container's marker and count bytes as given, then its references at the file's
  /// reference size (an object copied from another file, renumbered).
  case container(header: [UInt8], refs: [Int])
}

/// Collects objects, then writes `bplist00` with the smallest reference and offset sizes.
final class BPlistBuilder {
  private(set) var objects: [BPlistObject] = []
  private var strings: [String: Int] = [:]

  @discardableResult
  func add(_ object: BPlistObject) -> Int {
    objects.append(object)
    return objects.count - 1
  }

  /// A string object, stored once however often it is used (as Foundation does for keys).
  func string(_ text: String) -> Int {
    if let index = strings[text] { return index }
    let index = add(.string(text))
    strings[text] = index
    return index
  }

  /// A dictionary from string keys to object indices.
  func dict(_ pairs: [(String, Int)]) -> Int {
    add(.dict(pairs.map { (key: string($0.0), value: $0.1) }))
  }

  /// The file; the overrides let a fixture lie about the object count or table offset.
  func data(top: Int, numObjectsOverride: UInt64? = nil, offsetTableOverride: UInt64? = nil)
    -> Data
  {
    let refSize = byteWidth(UInt64(objects.count))
    var body = Array("bplist00".utf8)
    var offsets: [UInt64] = []
    for object in objects {
      offsets.append(UInt64(body.count))
      append(object, refSize: refSize, to: &body)
    }
    let tableOffset = UInt64(body.count)
    let offsetSize = byteWidth(tableOffset)
    for offset in offsets { appendBigEndian(offset, width: offsetSize, to: &body) }
    // Trailer: 5 unused bytes, sort version, offset size, reference size, then three UInt64s.
    body += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
    appendBigEndian(numObjectsOverride ?? UInt64(objects.count), width: 8, to: &body)
    appendBigEndian(UInt64(top), width: 8, to: &body)
    appendBigEndian(offsetTableOverride ?? tableOffset, width: 8, to: &body)
    return Data(body)
  }

  private func append(_ object: BPlistObject, refSize: Int, to bytes: inout [UInt8]) {
    switch object {
    case .bool(let value): bytes.append(value ? 0x09 : 0x08)
    case .int(let value):
      bytes.append(0x13)
      appendBigEndian(UInt64(bitPattern: value), width: 8, to: &bytes)
    case .real(let value):
      bytes.append(0x23)
      appendBigEndian(value.bitPattern, width: 8, to: &bytes)
    case .string(let text):
      let utf8 = Array(text.utf8)
      if utf8.allSatisfy({ $0 < 0x80 }) {
        appendMarker(0x50, count: utf8.count, to: &bytes)
        bytes += utf8
      } else {
        let utf16 = Array(text.utf16)
        appendMarker(0x60, count: utf16.count, to: &bytes)
        for unit in utf16 { appendBigEndian(UInt64(unit), width: 2, to: &bytes) }
      }
    case .data(let data):
      appendMarker(0x40, count: data.count, to: &bytes)
      bytes += data
    case .uid(let value):
      bytes.append(0x83)
      appendBigEndian(UInt64(value), width: 4, to: &bytes)
    case .array(let refs):
      appendMarker(0xA0, count: refs.count, to: &bytes)
      for ref in refs { appendBigEndian(UInt64(ref), width: refSize, to: &bytes) }
    case .dict(let pairs):
      appendMarker(0xD0, count: pairs.count, to: &bytes)
      for pair in pairs { appendBigEndian(UInt64(pair.key), width: refSize, to: &bytes) }
      for pair in pairs { appendBigEndian(UInt64(pair.value), width: refSize, to: &bytes) }
    case .raw(let raw): bytes += raw
    case .container(let header, let refs):
      bytes += header
      for ref in refs { appendBigEndian(UInt64(ref), width: refSize, to: &bytes) }
    }
  }

  private func appendMarker(_ high: UInt8, count: Int, to bytes: inout [UInt8]) {
    if count < 15 {
      bytes.append(high | UInt8(count))
    } else {
      bytes.append(high | 0x0F)
      bytes.append(0x13)
      appendBigEndian(UInt64(count), width: 8, to: &bytes)
    }
  }

  private func byteWidth(_ value: UInt64) -> Int {
    value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : value < 1 << 32 ? 4 : 8
  }
}

func appendBigEndian(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
  for index in stride(from: width - 1, through: 0, by: -1) {
    bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
  }
}

/// The unsigned big-endian integer of `width` bytes at `offset`.
func readBigEndian(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
  var value: UInt64 = 0
  for index in 0..<width { value = value << 8 | UInt64(bytes[offset + index]) }
  return value
}

/// A keyed-archive skeleton: `$objects[0]` is `$null`; `build` adds the rest and returns the
/// `$objects` entries (as builder indices) in order; `$top.root` is UID 1.
func keyedArchive(_ build: (BPlistBuilder) -> [Int]) -> Data {
  let builder = BPlistBuilder()
  let null = builder.string("$null")
  let entries = [null] + build(builder)
  let objects = builder.add(.array(entries))
  let root = builder.add(.uid(1))
  let top = builder.dict([("root", root)])
  let archiverName = builder.string("NSKeyedArchiver")
  let version = builder.add(.int(100_000))
  let document = builder.dict([
    ("$archiver", archiverName), ("$objects", objects), ("$top", top), ("$version", version),
  ])
  return builder.data(top: document)
}

/// A class record `{"$classname": name, "$classes": chain}` added to `builder`.
func classRecord(_ builder: BPlistBuilder, _ chain: [String]) -> Int {
  let names = builder.add(.array(chain.map { builder.string($0) }))
  return builder.dict([("$classname", builder.string(chain[0])), ("$classes", names)])
}
