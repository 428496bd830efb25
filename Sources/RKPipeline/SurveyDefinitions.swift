// The --survey-definition files of a run, read once before any input.
import RKImport
import RKModel

/// Survey definitions for the importer (rules) and for labels (task definitions).
struct SurveyDefinitions {
  var surveys: [SurveyDefinition] = []
  var tasks: [TaskDefinition] { surveys.map(\.definition) }

  /// Reads every definition file; a file that cannot be read is a usage problem of the run,
  /// so it throws (naming the file) rather than exporting answers without their rules.
  static func load(_ paths: [String]) throws -> SurveyDefinitions {
    var result = SurveyDefinitions()
    for path in paths {
      do {
        result.surveys.append(try SurveyDefinitionReader.read(path: path))
      } catch let error as ImportError {
        throw error.file.isEmpty ? error.inFile(path) : error
      }
    }
    return result
  }
}
