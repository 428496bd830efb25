// Applies `PrivacyOptions` to task runs and inputs.csv records: one call per run in the pipeline.
import RKModel

/// Turns a task run into its shareable form: pseudonymized participant and free text dropped.
///
/// **Pseudonyms.** `participantID` becomes `Pseudonymizer.pseudonym(for:)` and each occurrence
/// of the original id inside `source` is replaced by the same pseudonym; apply
/// `apply(_:participantID:)` to inputs.csv records too, or their paths give the ids away.
///
/// **Dropped free text** (what an analyst receiving shared data expects: the same rows and
/// statuses as the full export, with text cells empty, and a codebook note saying so):
/// - `.text` answers become `""`; the row stays, status stays `answered` (the participant did
///   answer), so completion counts in summary.csv are unchanged.
/// - Text typed into an "Other" option is blanked in place, keeping value_index: a SurveyNative
///   choice marked `other_option`, and, when the task definition is given, any text choice value
///   that is not one of the item's listed options (ResearchKit's `ORKTextChoiceOther` stores the
///   typed text as the choice value). Without a definition other choice values are kept: they
///   are option codes.
/// - Text-typed results holding several values (SurveyNative `add_text_field`) blank each value.
/// - Locations: `userInput`, `address` and every address part become `""`; coordinates and the
///   region are kept (they are not text; dropping them would need a separate option).
/// - Generic results (`.fields`, e.g. consent signatures, unknown SurveyNative shapes): strings
///   become `""` unless the field names an identifier (`identifier`, `…Identifier`, `…UUID`,
///   `_class`); bytes (`.data`, e.g. signature images) become empty; numbers, booleans, dates
///   and nulls are kept.
/// - Kept as they are: choices without typed text, numbers, scales, dates, times, booleans,
///   file paths, units, time zones, run metadata, and the `extra` keys of steps and results
///   (never answers).
public struct PrivacyFilter: Sendable {
  public let options: PrivacyOptions

  public init(options: PrivacyOptions) {
    self.options = options
  }

  /// The run with every option applied; the run itself when no option is active.
  ///
  /// - Parameter definition: the task's definition when the input came with one; it lets typed
  ///   "Other" text be told apart from option codes.
  public func apply(_ run: TaskRun, definition: TaskDefinition? = nil) -> TaskRun {
    var result = run
    apply(to: &result, definition: definition)
    return result
  }

  /// The same, in place: a run no option touches is not copied.
  public func apply(to run: inout TaskRun, definition: TaskDefinition? = nil) {
    guard options.isActive else { return }
    if let pseudonymizer = options.pseudonymizer {
      run.source = pseudonymizer.pseudonymizedPath(run.source, participantID: run.participantID)
      run.participantID = pseudonymizer.pseudonym(for: run.participantID)
    }
    if options.dropFreeText {
      let eraser = FreeTextEraser(definition: definition)
      for stepIndex in run.steps.indices {
        let stepIdentifier = run.steps[stepIndex].identifier
        for resultIndex in run.steps[stepIndex].results.indices {
          eraser.erase(&run.steps[stepIndex].results[resultIndex], step: stepIdentifier)
        }
      }
    }
  }

  /// An inputs.csv record with the participant's id replaced in its path and error text.
  ///
  /// - Parameter participantID: the id the pipeline derived for this input (before
  ///   pseudonymizing); empty leaves the record as it is.
  public func apply(_ record: InputRecord, participantID: String) -> InputRecord {
    guard let pseudonymizer = options.pseudonymizer else { return record }
    var result = record
    result.path = pseudonymizer.pseudonymizedPath(record.path, participantID: participantID)
    result.error = record.error.map {
      pseudonymizer.pseudonymizedPath($0, participantID: participantID)
    }
    return result
  }
}
