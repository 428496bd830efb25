// Oracle: random task runs → our statistics vs numpy and plain Python computed from the raw data.
import Foundation
import RKModel
import RKTestSupport
import RKTidy
import XCTest

final class SummaryOracleTests: XCTestCase {
  /// Quantiles, min and max must equal numpy.percentile bit for bit; mean and sd must equal the
  /// documented math.fsum formulas bit for bit and numpy's mean/std(ddof=1) within 1e-12.
  func testSummaryOracle_RandomRuns_MatchNumpy() throws {
    var random = SplitMix(seed: 20_240_516)
    var raw = "question,run,status,value\n"
    var runs: [TaskRun] = []
    for runIndex in 0..<300 {
      var results: [ResultRecord] = []
      for question in 0..<6 where random.next() % 5 != 0 {  // about 1 in 5 not presented
        let answer: Answer
        var status = "answered"
        var value = ""
        switch random.next() % 10 {
        case 0: (answer, status) = (.skipped, "skipped")
        case 1: (answer, status) = (.dontKnow, "dont_know")
        default:
          let number = Self.value(question: question, random: &random)
          answer = .numeric(NumberValue(number), unit: nil, displayUnit: nil)
          value = "\(number)"
        }
        results.append(
          ResultRecord(
            identifier: "q\(question)", className: "ORKNumericQuestionResult",
            answerType: .numeric, answer: answer))
        raw += "q\(question),\(runIndex),\(status),\(value)\n"
      }
      runs.append(
        TaskRun(
          taskIdentifier: "oracle", runUUID: String(runIndex),
          steps: [StepRecord(identifier: "form", results: results)], source: "r\(runIndex)"))
    }
    var collector = StatisticsCollector()
    for run in runs.shuffled(using: &random) { collector.add(run) }
    let task = try XCTUnwrap(collector.statistics().first)
    XCTAssertEqual(task.questions.count, 6)

    var ours = "question,n_runs,n_presented,n_answered,n_skipped,n_dont_know,stat,value\n"
    for question in task.questions {
      let counts = [
        question.runCount, question.presentedCount, question.answeredCount,
        question.skippedCount, question.dontKnowCount,
      ].map(String.init).joined(separator: ",")
      let numbers = try XCTUnwrap(question.numbers)
      let stats: [(String, Double?)] = [
        ("mean", numbers.mean), ("sd", numbers.standardDeviation), ("min", numbers.minimum),
        ("p25", numbers.p25), ("median", numbers.median), ("p75", numbers.p75),
        ("max", numbers.maximum),
      ]
      for (name, value) in stats {
        ours += "\(question.itemIdentifier),\(counts),\(name),\(value.map { "\($0)" } ?? "")\n"
      }
    }
    try runOracle(raw: raw, ours: ours, runCount: runs.count)
  }

  /// Type-7 quantiles of random samples (sizes 1…25, arbitrary doubles) at the percentiles we
  /// use, bit for bit against numpy.percentile, which divides the percent by 100 as we do here.
  func testQuantileOracle_RandomSamples_MatchNumpyPercentile() throws {
    var random = SplitMix(seed: 7)
    var lines = "sample,percent,value,ours\n"
    for sample in 0..<400 {
      let size = Int(random.next() % 25) + 1
      let values = (0..<size).map { _ in
        Double(Int64(bitPattern: random.next()) >> 11) / Double(1 << 40)
      }
      let sorted = values.sorted()
      for percent in [0, 10, 25, 50, 75, 90, 100] {
        let ours = try XCTUnwrap(Quantile.type7(sorted: sorted, probability: Double(percent) / 100))
        lines += "\(sample),\(percent),\(values.map { "\($0)" }.joined(separator: " ")),\(ours)\n"
      }
    }
    try runPython(Self.quantileScript, data: ["quantiles.csv": lines], expect: "checked 2800")
  }

  /// Values with ties, negatives, decimals and a wide range, different per question.
  private static func value(question: Int, random: inout SplitMix) -> Double {
    let draw = Double(random.next() % 1_000_000) / 1_000_000
    switch question {
    case 0: return Double(random.next() % 5) + 1  // Likert 1…5: many ties
    case 1: return (draw * 200 - 100).rounded() / 10  // one decimal, negative too
    case 2: return draw * 1e6 - 3e5
    case 3: return Double(random.next() % 3) * 0.1  // 0, 0.1, 0.2: binary fractions
    case 4: return (draw - 0.5) * 1e-3
    default: return 1e15 + draw * 1000  // large magnitude: cancellation in sd
    }
  }

  private func runOracle(raw: String, ours: String, runCount: Int) throws {
    try runPython(
      Self.oracleScript, data: ["raw.csv": raw, "ours.csv": ours], arguments: [String(runCount)],
      expect: "checked 42 statistics")
  }

  /// Runs a Python script with data files in a scratch folder (its first argument); exit 77
  /// means numpy is missing and skips the test.
  private func runPython(
    _ script: String, data: [String: String], arguments: [String] = [], expect: String
  ) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("rkexport-oracle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, text) in data {
      try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    let scriptFile = folder.appendingPathComponent("oracle.py")
    try script.write(to: scriptFile, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", scriptFile.path, folder.path] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    if process.terminationStatus == 77 { throw XCTSkip("python3 with numpy not available") }
    XCTAssertEqual(process.terminationStatus, 0, text)
    XCTAssertTrue(text.contains(expect), text)
  }

  private static let quantileScript = """
    import csv, sys
    try:
        import numpy as np
    except ImportError:
        sys.exit(77)
    problems, checked = [], 0
    for row in csv.DictReader(open(sys.argv[1] + "/quantiles.csv")):
        xs = np.array([float(v) for v in row["value"].split(" ")])
        expected = float(np.percentile(xs, int(row["percent"])))
        if float(row["ours"]) != expected:
            problems.append(f"sample {row['sample']} p{row['percent']}: {row['ours']} != {expected!r}")
        checked += 1
    print("\\n".join(problems[:20]))
    print(f"checked {checked}")
    sys.exit(1 if problems else 0)
    """

  private static let oracleScript = """
    import csv, math, sys
    try:
        import numpy as np
    except ImportError:
        sys.exit(77)
    folder = sys.argv[1]
    raw = list(csv.DictReader(open(folder + "/raw.csv")))
    ours = list(csv.DictReader(open(folder + "/ours.csv")))
    n_runs = sys.argv[2]
    problems, checked = [], 0
    for q in sorted({r["question"] for r in raw}):
        rows = [r for r in raw if r["question"] == q]
        xs = np.array([float(r["value"]) for r in rows if r["status"] == "answered"])
        n = len(xs)
        m = math.fsum(xs.tolist()) / n
        expected_counts = [n_runs, str(len(rows)),
            str(n), str(sum(r["status"] == "skipped" for r in rows)),
            str(sum(r["status"] == "dont_know" for r in rows))]
        exact = {
            "mean": m,
            "sd": math.sqrt(math.fsum(((x - m) * (x - m) for x in xs.tolist())) / (n - 1)),
            "min": float(np.min(xs)), "max": float(np.max(xs)),
            "p25": float(np.percentile(xs, 25)), "median": float(np.percentile(xs, 50)),
            "p75": float(np.percentile(xs, 75)),
        }
        close = {"mean": float(np.mean(xs)), "sd": float(np.std(xs, ddof=1))}
        for row in (o for o in ours if o["question"] == q):
            got_counts = [row[k] for k in
                ("n_runs", "n_presented", "n_answered", "n_skipped", "n_dont_know")]
            if got_counts != expected_counts:
                problems.append(f"{q} counts {got_counts} != {expected_counts}")
            stat, got = row["stat"], float(row["value"])
            if got != exact[stat]:
                problems.append(f"{q} {stat}: ours {got!r} != expected {exact[stat]!r}")
            if stat in close and not math.isclose(got, close[stat], rel_tol=1e-12, abs_tol=1e-12):
                problems.append(f"{q} {stat}: ours {got!r} far from numpy {close[stat]!r}")
            checked += 1
    print("\\n".join(problems))
    print(f"checked {checked} statistics")
    sys.exit(1 if problems else 0)
    """
}
