// Decides an input's format from its content, never from its name: magic bytes first, then
// the shape of the JSON tree for JSON formats.

/// Recognises result formats by content.
public enum FormatSniffer {
  /// What the content is; JSON inputs come with their parsed tree so it is parsed once.
  public enum Detection: Sendable {
    /// A non-JSON result format (keyed archives, zips).
    case format(InputFormat)
    /// A JSON result format and its parsed document.
    case json(InputFormat, JSONDocument)
    /// JSON that names a result format but does not parse: a damaged result file.
    case damagedJSON(InputFormat, ImportError)
    /// Not a result format, with the reason shown in `inputs.csv`.
    case notResults(reason: String)
  }

  /// The format of `bytes`.
  public static func sniff(_ bytes: [UInt8]) -> InputFormat {
    switch detect(bytes) {
    case .format(let format), .json(let format, _), .damagedJSON(let format, _): return format
    case .notResults: return .unknown
    }
  }

  /// The format of `bytes`, parsing JSON with `parser` when the content looks like JSON.
  public static func detect(_ bytes: [UInt8], parser: JSONParser = JSONParser()) -> Detection {
    if bytes.starts(with: Array("bplist00".utf8)) { return .format(.keyedArchiveBinary) }
    if isZipMagic(bytes) { return .format(.zip) }
    let head = bytes.prefix(512)
    if ByteSearch.occurs("<plist", in: head)
      || (head.starts(with: "<?xml".utf8) && ByteSearch.occurs("plist", in: head))
    {
      return .format(.keyedArchiveXML)
    }
    let first = bytes.first { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }
    guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
      return .notResults(reason: describeUnknown(bytes))
    }
    do {
      return classify(try parser.parseDocument(bytes))
    } catch let error as ImportError {
      // A JSON file naming a result format's keys near its top is a damaged result file.
      let start = bytes.prefix(4096)
      if ByteSearch.occurs("\"_class\"", in: start), ByteSearch.occurs("\"ORK", in: start) {
        return .damagedJSON(.researchKitJSON, error)
      }
      if ByteSearch.occurs("\"answers\"", in: start) { return .damagedJSON(.surveyNative, error) }
      return .notResults(reason: "not a result format (invalid JSON at \(error.location))")
    } catch {
      return .notResults(reason: "not a result format (invalid JSON)")
    }
  }

  /// Which JSON result format a parsed document is.
  public static func classify(_ document: JSONDocument) -> Detection {
    let root = document.root
    if isResearchKitJSON(root) { return .json(.researchKitJSON, document) }
    if SurveyNativeReader.isAnswers(root) { return .json(.surveyNative, document) }
    // Not a result format: the rare case, read from the tree.
    let value = root.value
    if SurveyDefinitionReader.isDefinition(value) {
      return .notResults(
        reason: "SurveyNative survey definition, not answers (pass it with --survey-definition)")
    }
    if BridgeUploadReader.isUploadInfo(root), root["files"] != nil {
      return .notResults(reason: "Bridge info.json outside an upload folder or zip")
    }
    return .notResults(reason: "JSON that is not a result format")
  }

  /// ORKESerializer JSON: an object whose `_class` names a ResearchKit class (`ORK…`), or an
  /// array holding such an object (its other elements are checked by the importer). Other
  /// programs use `_class` too (Spring Data's MongoDB documents), hence the prefix.
  static func isResearchKitJSON(_ value: JSONItem) -> Bool {
    func isResearchKit(_ value: JSONItem) -> Bool {
      value["_class"]?.stringValue?.hasPrefix("ORK") == true
    }
    if value.isObject { return isResearchKit(value) }
    return value.arrayValue?.contains(where: isResearchKit) == true
  }

  /// A short reason for `inputs.csv` when a file is no result format.
  public static func describeUnknown(_ bytes: [UInt8]) -> String {
    if bytes.isEmpty { return "empty file" }
    let kinds: [([UInt8], String)] = [
      ([0x89, 0x50, 0x4E, 0x47], "PNG image"), ([0xFF, 0xD8, 0xFF], "JPEG image"),
      (Array("GIF8".utf8), "GIF image"), (Array("%PDF".utf8), "PDF document"),
      (Array("ID3".utf8), "MP3 audio"), (Array("RIFF".utf8), "RIFF audio or video"),
      (Array("caff".utf8), "Core Audio file"),
    ]
    for (magic, kind) in kinds where bytes.starts(with: magic) {
      return "\(kind), not a result format"
    }
    if bytes.count >= 12, bytes[4..<8].elementsEqual(Array("ftyp".utf8)) {
      return "MPEG-4 audio or video, not a result format"
    }
    let sample = bytes.prefix(4096)
    let isText = !sample.contains(0) && String(validating: sample, as: UTF8.self) != nil
    return isText ? "text file, not a result format" : "not a result format"
  }
}
