// Runs Foundation's NSKeyedArchiver, then renames class records to their Objective-C names.
//
// swift-corelibs-foundation names a Swift class `Module.Class` in `$classname` and `$classes`
// (NSStringFromClass), and `NSKeyedArchiver.setClassName(_:for:)` would write only `$classname`
// without `$classes` (`_classDictionary`). So the archive is written as is, read back with
// PropertyListSerialization (UIDs survive the round trip) and every class record renamed:
// `samplegen.ORKTaskResult` → `ORKTaskResult`, `DecimalNumberRecord` → `NSDecimalNumber`.
// Everything else (object table, UIDs, uniquing, key names) is the archiver's own output.
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
    return try PropertyListSerialization.data(fromPropertyList: top, format: format, options: 0)
  }

  private static func objcName(_ name: String) -> String {
    guard name.hasPrefix(modulePrefix) else { return name }
    let bare = String(name.dropFirst(modulePrefix.count))
    return foundationRecordNames[bare] ?? bare
  }
}
