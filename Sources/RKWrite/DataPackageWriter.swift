// datapackage.json: the Frictionless Data Package that describes every CSV of an export.
import Foundation
import RKTable

/// Writes `datapackage.json` (Frictionless Data Package v1) from the tables' schemas, so
/// `frictionless validate`, R's `frictionless` and Python readers load typed columns.
///
/// Each `TableSchema` becomes one tabular data resource at `<schema.name>.csv` with `fields`
/// (name, type, description, unit, `constraints.enum` and v2 `categories` for categorical
/// columns), `missingValues: [""]` (an empty cell is missing), `primaryKey` and `foreignKeys`.
/// Instants are `datetime`: ISO 8601 with `Z` or an offset parses with the default format.
///
/// ```swift
/// try DataPackageWriter.write(schemas: [answers, summary], toDirectory: "rkexport-out")
/// ```
public enum DataPackageWriter {
  /// The descriptor's text (ends with a newline). Same schemas, same bytes.
  public static func json(packageName: String = "rkexport", schemas: [TableSchema]) -> String {
    var text: [UInt8] = []
    utf8(packageName: packageName, schemas: schemas) { text += $0 }
    return String(decoding: text, as: UTF8.self)
  }

  /// About how many bytes `utf8(packageName:schemas:output:)` hands over at a time.
  static let chunk = 1 << 16

  /// `json(packageName:schemas:)` as UTF-8 bytes, handed to `output` in order, about `chunk`
  /// at a time. Resources and their fields are made one at a time as they are written: a wide
  /// table of 40,000 columns made an 8 MB descriptor that, built whole, took ~29 MB.
  static func utf8(
    packageName: String, schemas: [TableSchema], output: ([UInt8]) throws -> Void
  ) rethrows {
    let names = resourceNames(for: schemas)
    let resources = DataPackageJSON.lazyArray(count: schemas.count) { index in
      let schema = schemas[index]
      return resource(schema, name: names[schema.name] ?? schema.name, names: names)
    }
    let package = DataPackageJSON.object([
      ("profile", .string("tabular-data-package")),
      ("name", .string(resourceName(packageName))),
      ("resources", resources),
    ])
    var bytes: [UInt8] = []
    try package.append(to: &bytes, indent: 0) { bytes in
      guard bytes.count >= chunk else { return }
      try output(bytes)
      bytes.removeAll(keepingCapacity: true)
    }
    bytes.append(UInt8(ascii: "\n"))
    try output(bytes)
  }

  /// Writes `datapackage.json` into `directory` under a temporary name, then renames it into
  /// place, so a reader never sees half a descriptor.
  public static func write(
    packageName: String = "rkexport", schemas: [TableSchema], toDirectory directory: String
  ) throws {
    let path =
      directory.hasSuffix("/")
      ? directory + "datapackage.json" : directory + "/datapackage.json"
    try writeAtomically(to: path) { file in
      try utf8(packageName: packageName, schemas: schemas) { try file.write($0) }
    }
  }

  // MARK: - Descriptor parts

  private static func resource(
    _ schema: TableSchema, name: String, names: [String: String]
  ) -> DataPackageJSON {
    var tableSchema: [(String, DataPackageJSON)] = [
      ("fields", .lazyArray(count: schema.columns.count) { field(schema.columns[$0]) }),
      ("missingValues", .array([.string("")])),
    ]
    if !schema.primaryKey.isEmpty {
      tableSchema.append(("primaryKey", .array(schema.primaryKey.map { .string($0) })))
    }
    if !schema.foreignKeys.isEmpty {
      let keys = schema.foreignKeys.map { key -> DataPackageJSON in
        // Frictionless names the same resource with an empty string.
        let target =
          key.referencedTable == schema.name
          ? "" : names[key.referencedTable] ?? resourceName(key.referencedTable)
        return .object([
          ("fields", .array(key.columns.map { .string($0) })),
          (
            "reference",
            .object([
              ("resource", .string(target)),
              ("fields", .array(key.referencedColumns.map { .string($0) })),
            ])
          ),
        ])
      }
      tableSchema.append(("foreignKeys", .array(keys)))
    }
    return .object([
      ("name", .string(name)),
      ("path", .string(schema.name + ".csv")),
      ("profile", .string("tabular-data-resource")),
      ("format", .string("csv")),
      ("mediatype", .string("text/csv")),
      ("encoding", .string("utf-8")),
      ("schema", .object(tableSchema)),
    ])
  }

  private static func field(_ column: Column) -> DataPackageJSON {
    var members: [(String, DataPackageJSON)] = [
      ("name", .string(column.name)),
      ("type", .string(column.type.rawValue)),
    ]
    if !column.description.isEmpty { members.append(("description", .string(column.description))) }
    if let unit = column.unit, !unit.isEmpty { members.append(("unit", .string(unit))) }
    if !column.categories.isEmpty {
      // v1 readers enforce constraints.enum; v2 readers use categories for factors.
      if let values = enumValues(column) {
        members.append(("constraints", .object([("enum", .array(values))])))
      }
      members.append(("categories", .array(column.categories.map { .string($0) })))
    }
    return .object(members)
  }

  /// Allowed values typed as the field (the enum compares typed values); nil when a category
  /// does not parse as the column's type.
  private static func enumValues(_ column: Column) -> [DataPackageJSON]? {
    var values: [DataPackageJSON] = []
    for category in column.categories {
      switch column.type {
      case .string: values.append(.string(category))
      case .integer:
        guard let value = Int64(category) else { return nil }
        values.append(.number(String(value)))
      case .number:
        guard let value = Double(category), value.isFinite else { return nil }
        values.append(.number(category))
      case .boolean:
        guard category == "true" || category == "false" else { return nil }
        values.append(.bool(category == "true"))
      case .datetime: return nil
      }
    }
    return values
  }
}
