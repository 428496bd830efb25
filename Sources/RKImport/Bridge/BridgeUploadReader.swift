// A Bridge-style upload (folder or zip with info.json) read as ONE task run (design.md §4,
// formats.md §5.1–5.2): info.json and metadata.json describe the run, each answer file is a step.
import RKModel

/// The files of one Bridge upload, however they are stored (folder, zip, zip inside a zip).
public struct BridgeUploadFiles {
  /// Paths relative to the upload's root, `/`-separated, sorted.
  public var names: [String]
  /// Reads one file by its relative path.
  public var read: (String) throws -> [UInt8]
  /// Parses one file as JSON in place of `parse(_:with:)`'s reading and parsing: a zip's
  /// reader may hand back the value it parsed already (see `ZipReader.readJSON`).
  var parsedJSON: ((String, JSONParser) throws -> JSONItem)?

  public init(names: [String], read: @escaping (String) throws -> [UInt8]) {
    self.names = names
    self.read = read
  }

  /// One file parsed as JSON by `parser`.
  func parse(_ name: String, with parser: JSONParser) throws -> JSONItem {
    if let parsedJSON { return try parsedJSON(name, parser) }
    return try parser.parseDocument(try read(name)).root
  }
}

/// What a Bridge upload yielded.
public enum BridgeUpload: Sendable {
  /// One task run, with notes on files kept out of the answers (attachments, missing files).
  case run(TaskRun, notes: [String])
  /// A recognised upload holding no ResearchKit results (e.g. the 2014 prototype format).
  case noResults(reason: String)
}

/// Reads Bridge uploads: AppCore and ResearchUXFactory `v1_legacy` answer files and `v2_generic`
/// flat `answers.json` maps.
public enum BridgeUploadReader {
  /// Whether a content type names JSON (`application/json`, `text/JSON`, `…+json`), in any
  /// case. (By bytes: Foundation's `lowercased().contains` cost ~6 k instructions a file.)
  static func mentionsJSON(_ contentType: String) -> Bool {
    var text = contentType
    return text.withUTF8 { ByteSearch.occurs("json", in: $0, foldingCase: true) }
  }

  /// True when `info` looks like a Bridge `info.json` (an object with a `files` array or one of
  /// `item`, `dataFilename`, `taskRun`): used to tell upload folders from ordinary ones.
  public static func isUploadInfo(_ info: JSONItem) -> Bool {
    guard info.isObject else { return false }
    if info["files"]?.arrayValue != nil { return true }
    return ["item", "dataFilename", "taskRun"].contains { info[$0]?.stringValue != nil }
  }

  /// Reads one upload. Throws `ImportError` naming the inner file when info.json or an answer
  /// file is not JSON or not shaped as Bridge writes it.
  public static func read(_ files: BridgeUploadFiles, parser: JSONParser = JSONParser()) throws
    -> BridgeUpload
  {
    let info = try parseFile("info.json", files, parser)
    guard info.isObject else {
      throw ImportError(
        location: "info.json", reason: "expected an object, found \(info.kindDescription)")
    }
    let metadata =
      files.names.contains("metadata.json") ? try parseFile("metadata.json", files, parser) : nil
    if metadata == nil, let reason = prototypeReason(info, files) {
      return .noResults(reason: reason)
    }
    var notes: [String] = []
    var run = TaskRun(
      taskIdentifier: metadata?["taskIdentifier"]?.stringValue ?? info["item"]?.stringValue ?? "",
      runUUID: (metadata?["taskRunUUID"]?.stringValue ?? info["taskRun"]?.stringValue)?
        .uppercased(),
      startDate: metadata?["startDate"]?.dateText?.instant,
      endDate: metadata?["endDate"]?.dateText?.instant,
      metadata: runMetadata(info: info, metadata: metadata))
    let dataFilename = info["dataFilename"]?.stringValue
    let isGeneric = info["format"]?.stringValue == "v2_generic"
    for entry in orderedDataFiles(info, files, notes: &notes) {
      if let contentType = entry.contentType, !Self.mentionsJSON(contentType) {
        notes.append("attachment \(entry.name) (\(contentType)) listed, not exported as answers")
        continue
      }
      let bytes = try files.read(entry.name)
      let value: JSONItem
      do {
        value = try parser.parseDocument(bytes).root
      } catch let error as ImportError {
        if entry.contentType == nil, !entry.name.lowercased().hasSuffix(".json") {
          notes.append("attachment \(entry.name) listed, not exported as answers")
          continue
        }
        throw ImportError(location: "\(entry.name) \(error.location)", reason: error.reason)
      }
      if isGeneric || (entry.name == dataFilename && value["item"] == nil) {
        run.steps += try BridgeGenericAnswers.steps(from: value, file: entry.name)
      } else {
        run.steps.append(try BridgeAnswerFile.step(from: value, file: entry.name, notes: &notes))
      }
    }
    return .run(run, notes: notes)
  }

  static func parseFile(_ name: String, _ files: BridgeUploadFiles, _ parser: JSONParser) throws
    -> JSONItem
  {
    do {
      return try files.parse(name, with: parser)
    } catch let error as ImportError {
      let location = error.location.isEmpty ? name : "\(name) \(error.location)"
      throw ImportError(location: location, reason: error.reason)
    }
  }

  /// info.json and metadata.json keys that are facts about the run, in file order.
  static func runMetadata(info: JSONItem, metadata: JSONItem?) -> [Field] {
    let consumed: Set<String> = [
      "files", "item", "taskRun", "dataFilename", "taskRunUUID", "taskIdentifier", "startDate",
      "endDate",
    ]
    let members = (info.objectMembers ?? []) + (metadata?.objectMembers ?? [])
    return members.filter { !consumed.contains($0.key) }.map { Field($0.key, $0.value.keyedValue) }
  }

  /// Data files in info.json's `files` order, then any other file of the upload by name.
  static func orderedDataFiles(
    _ info: JSONItem, _ files: BridgeUploadFiles, notes: inout [String]
  ) -> [(name: String, contentType: String?)] {
    let present = Set(files.names)
    var seen: Set<String> = ["info.json", "metadata.json"]
    var ordered: [(name: String, contentType: String?)] = []
    for listed in info["files"]?.arrayValue ?? [] {
      guard let name = listed["filename"]?.stringValue, !seen.contains(name) else { continue }
      seen.insert(name)
      if present.contains(name) {
        ordered.append((name, listed["contentType"]?.stringValue))
      } else {
        notes.append("\(name) is listed in info.json but missing from the upload")
      }
    }
    for name in files.names where !seen.contains(name) {
      ordered.append((name, nil))
    }
    return ordered
  }

  /// The 2014 Bridge prototype (`taskInstance` and `study` in info.json, data files without any
  /// ResearchKit answer key) predates ResearchKit: say so rather than invent answers.
  static func prototypeReason(_ info: JSONItem, _ files: BridgeUploadFiles) -> String? {
    guard info["taskInstance"] != nil || info["study"] != nil,
      info["appVersion"] == nil, info["format"] == nil, info["taskRun"] == nil
    else { return nil }
    let dataFiles = files.names.filter { $0 != "info.json" }
    return "Bridge upload of 2014 prototype format (no ResearchKit answers): info.json has "
      + "taskInstance/study and no appVersion, format or taskRun; data files "
      + (dataFiles.isEmpty ? "none" : dataFiles.joined(separator: ", "))
  }
}
