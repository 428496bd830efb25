// Column and file names of the wide tables: close to the ids, safe to load, never repeated.
/// Naming rules of the wide tables (documented for users in the README):
///
/// - A question's column is its item id, or `step_id.item_id` when the item id appears in more
///   than one step of the task; an option column is `<question column>.<option value>`.
/// - Control characters (which break CSV readers and R/pandas headers) become `_`; an empty
///   name becomes `_`. Everything else is kept as is, so names stay readable.
/// - A name already taken (by a run column or an earlier question) gets `_2`, `_3`, … appended.
/// - The codebook lists every column with its exact step id, item id and option, so no
///   information is lost to renaming (`WideColumn`).
/// - File stems (`wide/<stem>.csv`) additionally replace `/ \ : * ? " < > |` and a leading `.`
///   with `_`, are cut to 120 UTF-8 bytes, and are unique ignoring case (macOS, Windows).
enum WideNaming {
  /// `name` with control characters replaced; never empty.
  static func safeName(_ name: String) -> String {
    var result = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      let value = scalar.value
      let isControl = value < 0x20 || (value >= 0x7F && value < 0xA0)
      result.append(isControl ? "_" : scalar)
    }
    return result.isEmpty ? "_" : String(result)
  }

  /// A file name stem for a task id.
  static func fileStem(_ taskID: String) -> String {
    var result = String.UnicodeScalarView()
    var byteCount = 0
    for scalar in safeName(taskID).unicodeScalars {
      let forbidden = "/\\:*?\"<>|".unicodeScalars.contains(scalar)
      let replaced: Unicode.Scalar = forbidden || (result.isEmpty && scalar == ".") ? "_" : scalar
      let width = String(replaced).utf8.count
      if byteCount + width > 120 { break }
      byteCount += width
      result.append(replaced)
    }
    return String(result)
  }

  /// Hands out unique names: the first claim of a base gets it as is, later ones a suffix.
  struct UniqueNames {
    private var used: Set<String> = []
    private let foldCase: Bool

    init(foldCase: Bool = false) { self.foldCase = foldCase }

    mutating func claim(_ base: String) -> String {
      if used.insert(fold(base)).inserted { return base }
      var suffix = 2
      while true {
        let candidate = "\(base)_\(suffix)"
        if used.insert(fold(candidate)).inserted { return candidate }
        suffix += 1
      }
    }

    private func fold(_ name: String) -> String { foldCase ? name.lowercased() : name }
  }
}
