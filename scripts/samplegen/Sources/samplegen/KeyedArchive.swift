// Runs Foundation's NSKeyedArchiver, then renames class records to their Objective-C names.
//
// swift-corelibs-foundation names a Swift class `Module.Class` in `$classname` and `$classes`
// (NSStringFromClass), and `NSKeyedArchiver.setClassName(_:for:)` would write only `$classname`
// without `$classes` (`_classDictionary`). So the archive is written as is, read back with
// PropertyListSerialization (UIDs survive the round trip) and every class record renamed:
// `samplegen.ORKTaskResult` → `ORKTaskResult`, `DecimalNumberRecord` → `NSDecimalNumber`.
// Everything else (object table, UIDs, uniquing, key names) is the archiver's own output, with
// binary files then laid out as Apple's plist writer lays them out (`ScalarUniquing`).
import Foundation

enum ArchiveError: Error, CustomStringConvertible {
  case unexpectedShape(String)

  var description: String {
    switch self {
    case .unexpectedShape(let what): return "archiver output has an unexpected shape: \(what)"
    }
  }
}

enum KeyedArchive {
  /// `samplegen.` — the prefix corelibs puts before our class names.
  private static let modulePrefix: String = {
    let qualified = String(reflecting: ORKResult.self)
    return String(qualified.prefix(qualified.count - "ORKResult".count))
  }()

  /// Archives `root` under `$top.root`, as `archivedDataWithRootObject:` does.
  static func data(root: NSObject, format: PropertyListSerialization.PropertyListFormat)
    throws -> Data
  {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.outputFormat = .binary
    archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return try renamingClasses(in: archiver.encodedData, format: format)
  }

  /// The archive's class records renamed to Objective-C names, serialized in `format`.
  static func renamingClasses(in data: Data, format: PropertyListSerialization.PropertyListFormat)
    throws -> Data
  {
    let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
    guard var top = plist as? [String: Any], let objects = top["$objects"] as? [Any] else {
      throw ArchiveError.unexpectedShape("no $objects array")
    }
    top["$objects"] = objects.map { object -> Any in
      guard var record = object as? [String: Any], let name = record["$classname"] as? String
      else { return object }
      record["$classname"] = objcName(name)
      if let chain = record["$classes"] as? [String] {
        record["$classes"] = chain.map(objcName)
      }
      return record
    }
    let data = try PropertyListSerialization.data(
      fromPropertyList: top, format: format, options: 0)
    guard format == .binary else { return data }
    // Laid out as an iPhone writes it (see ScalarUniquing): keys and repeated values once.
    let uniqued = Data(ScalarUniquing.apply([UInt8](data)))
    // The same property list read back either way, or the rewrite is wrong.
    guard try xmlText(data) == xmlText(uniqued) else {
      throw ArchiveError.unexpectedShape("storing repeated values once changed the archive")
    }
    return uniqued
  }

  /// The property list in `data` as XML, where UIDs are compared by value (`CF$UID`).
  private static func xmlText(_ data: Data) throws -> Data {
    let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
    return try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
  }

  private static func objcName(_ name: String) -> String {
    guard name.hasPrefix(modulePrefix) else { return name }
    let bare = String(name.dropFirst(modulePrefix.count))
    return foundationRecordNames[bare] ?? bare
  }
}
