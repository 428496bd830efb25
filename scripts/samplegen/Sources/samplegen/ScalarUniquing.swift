// Rewrites a binary plist the way Apple's writer lays it out: each string, number, date and data
// value stored once, however many places refer to it.
//
// CFBinaryPlistWrite uniques those four types by value (`_flattenPlist`, CFBinaryPList.c: "Do
// not unique dictionaries or arrays … Uniquing bools is unnecessary"), so an archive written on
// an iPhone holds `$class`, `identifier` or `NS.time` once. swift-corelibs-foundation on Linux,
// which samplegen runs on, does not (probably because its archiver's keys are Swift strings,
// not CFStrings): every key is written again at every use, and a 14 KB archive held 661
// strings, 106 of them distinct. Archives as an app writes them are about half that size.
// UIDs, booleans and containers are left as they are, as Apple's writer leaves them.

enum ScalarUniquing {
  /// `bytes` (a `bplist00` file this program wrote) with duplicate scalars merged into their
  /// first occurrence and every reference renumbered; the object order is otherwise kept.
  static func apply(_ bytes: [UInt8]) -> [UInt8] {
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let refSize = Int(bytes[trailer + 7])
    let count = Int(readBigEndian(bytes, at: trailer + 8, width: 8))
    let top = Int(readBigEndian(bytes, at: trailer + 16, width: 8))
    let table = Int(readBigEndian(bytes, at: trailer + 24, width: 8))
    let offsets = (0..<count).map {
      Int(readBigEndian(bytes, at: table + $0 * offsetSize, width: offsetSize))
    }

    // Each object as its encoded bytes (scalars) or its marker and references (containers).
    var objects: [StoredObject] = []
    var firstOfValue: [[UInt8]: Int] = [:]
    var renumbered = [Int](repeating: 0, count: count)
    for index in 0..<count {
      let object = StoredObject(bytes, at: offsets[index], refSize: refSize)
      if object.isUniqued, let first = firstOfValue[object.encoded] {
        renumbered[index] = first
        continue
      }
      renumbered[index] = objects.count
      if object.isUniqued { firstOfValue[object.encoded] = objects.count }
      objects.append(object)
    }

    // Written at the smallest reference and offset sizes for the objects left.
    let builder = BPlistBuilder()
    for object in objects {
      if object.isContainer {
        builder.add(.container(header: object.encoded, refs: object.refs.map { renumbered[$0] }))
      } else {
        builder.add(.raw(object.encoded))
      }
    }
    return [UInt8](builder.data(top: renumbered[top]))
  }

  /// One object: for a scalar its whole encoding; for a container its marker and count bytes,
  /// and its references (keys then values for a dictionary) to write at the new size.
  private struct StoredObject {
    var encoded: [UInt8]
    var refs: [Int] = []
    var isUniqued: Bool
    var isContainer = false

    init(_ bytes: [UInt8], at start: Int, refSize: Int) {
      let marker = bytes[start]
      let kind = marker >> 4
      var length = Int(marker & 0x0F)
      var payload = start + 1
      if kind >= 0x4 && kind != 0x8 && length == 0x0F {
        // The count follows as an integer object.
        let width = 1 << Int(bytes[payload] & 0x0F)
        length = Int(readBigEndian(bytes, at: payload + 1, width: width))
        payload += 1 + width
      }
      switch kind {
      case 0x1, 0x2, 0x3:  // integer, real, date
        let width = kind == 0x3 ? 8 : 1 << length
        encoded = Array(bytes[start..<(payload + width)])
        isUniqued = true
      case 0x4, 0x5:  // data, ASCII string
        encoded = Array(bytes[start..<(payload + length)])
        isUniqued = true
      case 0x6:  // UTF-16 string
        encoded = Array(bytes[start..<(payload + 2 * length)])
        isUniqued = true
      case 0x8:  // UID
        encoded = Array(bytes[start..<(start + 1 + length + 1)])
        isUniqued = false
      case 0xA, 0xC, 0xD:  // array, set, dictionary
        let refCount = kind == 0xD ? 2 * length : length
        encoded = Array(bytes[start..<payload])
        refs = (0..<refCount).map {
          Int(readBigEndian(bytes, at: payload + $0 * refSize, width: refSize))
        }
        isUniqued = false
        isContainer = true
      default:  // null, booleans, fill
        encoded = [marker]
        isUniqued = false
      }
    }
  }
}
