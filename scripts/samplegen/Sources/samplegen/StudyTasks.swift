// The five survey tasks of the sample study, modelled on ResearchKit's "Creating Surveys" guide:
// each function plays one run of a task forward in time and returns its steps.
import Foundation

/// Moves forward through a run, handing out step and answer times with microsecond fractions.
struct RunClock {
  var now: Micros
  var rng: SeededRandom

  /// A span starting a moment after the previous one and lasting `seconds` (plus a fraction).
  mutating func span(_ seconds: ClosedRange<Int>) -> (start: Micros, end: Micros) {
    let start = now.adding(seconds: 0, micros: Int64(rng.int(2_000...90_000)))
    let end = start.adding(seconds: rng.int(seconds), micros: rng.subSecondMicros())
    now = end
    return (start, end)
  }
}

/// What one participant is like across runs, and which edge cases their runs must show.
struct ParticipantProfile {
  var id: String
  var zoneName: String
  var flags: Set<String>
  var age: Int
  var takesSupplements: Bool

  func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// Builds steps for each task; `layout` decides whether don't-know answers are possible.
struct StudyTasks {
  var clock: RunClock
  let participant: ParticipantProfile
  let layout: ArchiveLayout

  static let taskIDs = ["eligibility", "profile", "pain", "symptom", "fever"]

  mutating func steps(for taskID: String) -> [StepSpec] {
    switch taskID {
    case "eligibility": return eligibility()
    case "profile": return profile()
    case "pain": return pain()
    case "symptom": return symptom()
    default: return fever()
    }
  }

  // MARK: - Tasks

  private mutating func eligibility() -> [StepSpec] {
    var steps = [instruction("intro", 3...20)]
    steps.append(
      question(
        "age", .integer,
        .number(DecimalSpec(mantissa: UInt64(participant.age), exponent: 0), unit: "years"), 4...15)
    )
    steps.append(question("supplements", .boolean, .boolean(participant.takesSupplements), 2...9))
    if participant.takesSupplements {
      // Branch: "Which supplements?" is only presented after a yes.
      let options = ["vitamin_d", "fish_oil", "iron", "multivitamin", "other"]
      var chosen: [ChoiceSpec] = []
      if !participant.has("emptySelection") {
        let count = clock.rng.int(1...3)
        let start = clock.rng.int(0...(options.count - count))
        chosen = options[start..<(start + count)].map { ChoiceSpec.text($0) }
      }
      steps.append(question("supplement_types", .multipleChoice, .choices(chosen), 5...25))
    }
    steps.append(instruction("eligible", 1...6))
    return steps
  }

  private mutating func profile() -> [StepSpec] {
    var steps = [instruction("intro", 2...12)]
    let (start, _) = clock.span(0...0)
    var items: [QuestionSpec] = []
    let gender = clock.rng.pick(["female", "male", "other"])
    items.append(item("gender", .singleChoice, .choices([.text(gender)]), 2...8))
    let blood = clock.rng.pick(["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"])
    items.append(item("blood_type", .singleChoice, .choices([.text(blood)]), 2...8))
    let birth: AnswerSpec
    if participant.has("dobSkipped") {
      birth = .skipped
    } else if participant.has("dobDontKnow") && layout == .current {
      birth = .dontKnow
    } else {
      birth = .date(birthday(), zoneName: participant.zoneName)
    }
    items.append(item("date_of_birth", .date, birth, 4...20))
    steps.append(
      StepSpec(
        stepID: "about_you", start: start,
        end: clock.now.adding(seconds: 1, micros: clock.rng.subSecondMicros()), questions: items))
    clock.now = steps[steps.count - 1].end
    // Date and time of the last check-up: whole minutes, some weeks before the run.
    let daysBefore = clock.rng.int(10...200)
    let minuteOfDay = clock.rng.int(8 * 60...17 * 60)
    let checkup = Micros(
      value: (clock.now.value / 86_400_000_000 - Int64(daysBefore)) * 86_400_000_000 + Int64(
        minuteOfDay) * 60_000_000)
    steps.append(
      question("last_checkup", .dateAndTime, .date(checkup, zoneName: participant.zoneName), 5...30)
    )
    return steps
  }

  private mutating func pain() -> [StepSpec] {
    var steps = [instruction("intro", 2...10)]
    steps.append(question("pain_level", .scale, .scale(clock.rng.int(1...10)), 2...12))
    let onset = AnswerSpec.timeOfDay(hour: clock.rng.int(0...23), minute: clock.rng.int(0...11) * 5)
    steps.append(question("pain_onset", .timeOfDay, onset, 4...20))
    let duration: AnswerSpec =
      clock.rng.chance(0.25) ? .skipped : .timeInterval(seconds: clock.rng.int(1...48) * 900)
    steps.append(question("pain_duration", .timeInterval, duration, 4...20))
    let notes: AnswerSpec = clock.rng.chance(0.5) ? .skipped : .text(clock.rng.pick(Self.freeTexts))
    steps.append(question("pain_notes", .text, notes, 3...60))
    return steps
  }

  private mutating func symptom() -> [StepSpec] {
    var steps: [StepSpec] = []
    let headache = clock.rng.chance(0.5)
    steps.append(
      question(
        "symptom", .singleChoice, .choices([.text(headache ? "headache" : "other_symptom")]), 2...10
      ))
    if headache {
      // Numeric choice values: 1 mild, 2 moderate, 3 severe.
      steps.append(
        question(
          "headache_severity", .singleChoice, .choices([.integer(clock.rng.int(1...3))]), 2...10))
    } else {
      steps.append(
        question("other_symptom_text", .text, .text(clock.rng.pick(Self.freeTexts)), 8...60))
    }
    steps.append(instruction("done", 1...5))
    return steps
  }

  private mutating func fever() -> [StepSpec] {
    let hasFever = participant.has("fever") || clock.rng.chance(0.4)
    var steps = [question("fever", .boolean, .boolean(hasFever), 2...8)]
    if hasFever {
      let temperature: AnswerSpec
      if participant.has("temperatureDontKnow") && layout == .current {
        temperature = .dontKnow
      } else if participant.has("uncompactedDecimal") {
        // 38.50 kept as 3850 × 10^-2: still exactly 38.5.
        temperature = .number(DecimalSpec(mantissa: 3850, exponent: -2, compact: false), unit: "°C")
      } else {
        temperature = .number(
          DecimalSpec(mantissa: UInt64(clock.rng.int(375...401)), exponent: -1), unit: "°C")
      }
      steps.append(question("temperature", .decimal, temperature, 5...25))
    }
    return steps
  }

  // MARK: - Building blocks

  private mutating func instruction(_ id: String, _ seconds: ClosedRange<Int>) -> StepSpec {
    let (start, end) = clock.span(seconds)
    return StepSpec(stepID: id, start: start, end: end)
  }

  /// A question step: one step result holding one question result of the same identifier.
  private mutating func question(
    _ id: String, _ kind: QuestionKind, _ answer: AnswerSpec, _ seconds: ClosedRange<Int>
  ) -> StepSpec {
    let (start, end) = clock.span(seconds)
    let answerStart =
      layout == .legacy ? end : start.adding(seconds: 0, micros: clock.rng.subSecondMicros())
    let spec = QuestionSpec(itemID: id, kind: kind, answer: answer, start: answerStart, end: end)
    return StepSpec(stepID: id, start: start, end: end, questions: [spec])
  }

  /// A form item: its own answer times inside the form step.
  private mutating func item(
    _ id: String, _ kind: QuestionKind, _ answer: AnswerSpec, _ seconds: ClosedRange<Int>
  ) -> QuestionSpec {
    let (start, end) = clock.span(seconds)
    return QuestionSpec(
      itemID: id, kind: kind, answer: answer, start: layout == .legacy ? end : start, end: end)
  }

  /// A date of birth at local noon in the participant's zone, so its local date is unambiguous.
  private mutating func birthday() -> Micros {
    let year = 2016 - participant.age
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone =
      TimeZone(identifier: participant.zoneName) ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    let parts = DateComponents(
      year: year, month: clock.rng.int(1...12), day: clock.rng.int(1...28), hour: 12)
    let date = calendar.date(from: parts) ?? Date(timeIntervalSinceReferenceDate: 0)
    return Micros(value: Int64(date.timeIntervalSinceReferenceDate) * 1_000_000)
  }

  /// Free text as participants type it: quotes, commas, line breaks, spaces, accents, emoji.
  static let freeTexts = [
    "Dizzy after standing up, lasted about 5 min",
    "Sore throat, \"scratchy\" feeling",
    "Nausea\nworse in the morning",
    "  tired all day ",
    "Rückenschmerzen – stärker abends",
    "=1+1 is what I wrote in the diary",
    "Stomach ache 😣",
    "Knee pain; took ibuprofen 400 mg",
  ]
}
