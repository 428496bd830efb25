// What the importer needs to know besides the files: definitions, zip limits, size limits.

/// Settings for `InputImporter`, given once at its creation.
public struct ImportOptions: Sendable {
  /// SurveyNative definitions (`SurveyDefinitionReader.read(path:)`). Each submission is read
  /// with the definition that knows the most of its answer ids (the first on a tie), or
  /// without a definition when none knows any.
  public var surveyDefinitions: [SurveyDefinition]
  public var zipLimits: ZipLimits
  /// Files (and zip entries) larger than this are failed without being read (default 512 MiB).
  public var maximumFileSize: Int64

  public init(
    surveyDefinitions: [SurveyDefinition] = [], zipLimits: ZipLimits = ZipLimits(),
    maximumFileSize: Int64 = 512 << 20
  ) {
    self.surveyDefinitions = surveyDefinitions
    self.zipLimits = zipLimits
    self.maximumFileSize = maximumFileSize
  }

  /// The definition for a submission with these answer ids, if any knows one of them.
  func definition(forAnswerIDs ids: [String]) -> SurveyDefinition? {
    var best: (definition: SurveyDefinition, matches: Int)? = nil
    for candidate in surveyDefinitions {
      let known = candidate.rules.questionIDs
      let matches = ids.filter { known.contains($0) }.count
      if matches > 0, matches > (best?.matches ?? 0) { best = (candidate, matches) }
    }
    return best?.definition
  }
}
