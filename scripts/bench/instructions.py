#!/usr/bin/env python3
"""Counts the instructions rkexport spends per archive, by phase, with valgrind's callgrind.

Wall times on a shared 2-core machine move by a third from hour to hour; instruction counts on
a fixed slice of the benchmark corpus repeat to within 0.1 % (what still moves: the run's
random temporary names and its clock readings). They are the measure the performance work
decides by (docs/performance.md): one CSV export of the first FOLDERS participant folders of
the 10,000-archive corpus (1,000 archives by default), one thread (`--jobs 1`), split into the
pipeline's phases. With --compare OTHER it counts a second binary
on the same slice and prints both, so a change can be judged before it is committed.

With --lines PATTERN it instead prints, for each function whose name contains PATTERN (as
mangled: `readPairs`, `CSVFieldEncoder`), its own instructions per call by source line:
where inside one hot function the instructions go (session 16 found register spills and a
byte loop's setup that way).

  scripts/bench/instructions [--folders 25] [--no-build] [--compare path/to/rkexport]
  scripts/bench/instructions --lines readPairs [--top 12] [--binary path/to/rkexport]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from bench import ROOT, generated_corpus

# Phases by the functions that run each of them once per archive or once per export
# (demangled, simplified names; on the slice none calls another); what no phase covers is the
# rest of start-up (the runtime's type metadata and conformance lookups), the walk and the
# commit. Each with whether it grows with the archives (else it is paid once per export).
# The import: a file the walk listed unopened is read by `readUnopened` and decoded by
# `importItem(_:bytes:)` (since session 19); `importItem(_:)` reads and decodes the others.
# A tuple lists the names one function can have, the first found counting: the release build's
# cross-module optimization (session 22) specializes some and inlines `importItem(_:bytes:)`
# into its caller, leaving `importBytes(_:item:)` (which it calls) to count; link-time
# optimization (session 25) inlines `parseAsRoot` into `main`, leaving `CommandParser.parse`.
# `consume` takes its input inout since session 27 (`consume(_:number:)`).
PHASES = [
    ("command line parsed", [("static ParsableCommand.parseAsRoot(_:)",
                              "specialized static ParsableCommand.parseAsRoot(_:)",
                              "CommandParser.parse(arguments:)")], False),
    ("import: read, sniff, decode", ["InputImporter.readUnopened(_:)",
                                     ("InputImporter.importItem(_:bytes:)",
                                      "InputImporter.importBytes(_:item:)"),
                                     "InputImporter.importItem(_:)"], True),
    ("prepare: rows, wide share, statistics share", ["RunPreparer.prepare(_:item:for:)"], True),
    ("consume: write rows, pivot, collect", [("ExportPass.consume(_:number:)",
                                              "ExportPass.consume(_:_:number:)")], True),
    ("prepared runs freed", ["destroy for ExportPass.Found"], True),
    ("finish: wide tables, statistics, codebook", ["ExportOutputs.finish()"], True),
]


def slice_of_corpus(work, folders):
    """The first `folders` participant folders of the 10,000-archive corpus, copied once."""
    corpus = generated_corpus(work, 10000)
    target = os.path.join(work, f"slice-{folders}")
    if not os.path.isdir(target):
        staging = target + ".partial"
        shutil.rmtree(staging, ignore_errors=True)
        os.makedirs(staging)
        for name in sorted(os.listdir(corpus))[:folders]:
            shutil.copytree(os.path.join(corpus, name), os.path.join(staging, name))
        os.rename(staging, target)
    return target


def profiled_export(binary, corpus, work, profile_name, options=()):
    """Runs the slice's CSV export (one thread) under callgrind; returns the profile's path and
    the export's output folder."""
    # valgrind 3.19 gives up on the release binary's debug information: count a stripped copy.
    stripped = os.path.join(work, "rkexport-stripped")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    out = os.path.join(work, "instructions-out")
    shutil.rmtree(out, ignore_errors=True)
    profile = os.path.join(work, profile_name)
    # Swift seeds its hashing per process: fixed here, dictionaries probe alike in every count.
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    subprocess.run(["valgrind", "--tool=callgrind", *options, f"--callgrind-out-file={profile}",
                    stripped, corpus, "--out", out, "--jobs", "1", "--quiet"], check=True,
                   stderr=subprocess.DEVNULL, env=environment)
    return profile, out


def count(binary, corpus, work):
    """Total instructions and the inclusive count of each phase function."""
    profile, out = profiled_export(binary, corpus, work, "callgrind.out")
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                                profile], check=True, capture_output=True, text=True).stdout
    demangled = subprocess.run(["swift", "demangle", "--simplified"], input=annotated,
                               check=True, capture_output=True, text=True).stdout
    total = None
    inclusive = {}
    for line in demangled.splitlines():
        match = re.match(r"^\s*([\d,]+) \([\s\d.]+%\)\s+(\S.*)$", line)
        if not match:
            continue
        value = int(match.group(1).replace(",", ""))
        text = match.group(2)
        if text.startswith("PROGRAM TOTALS"):
            total = value
            continue
        name = re.sub(r"^\?\?\?:", "", text)
        name = re.sub(r" \[[^\]]*\]$", "", name)
        inclusive.setdefault(name, value)
    if total is None:
        sys.exit("instructions: callgrind_annotate printed no total")
    def cost(function):
        names = function if isinstance(function, tuple) else (function,)
        return next((inclusive[name] for name in names if name in inclusive), 0)
    phases = [(label, sum(cost(function) for function in functions), grows)
              for label, functions, grows in PHASES]
    runs = max(0, sum(1 for _ in open(os.path.join(out, "task_runs.csv"), encoding="utf-8")) - 1)
    return total, phases, runs


def instruction_costs(profile):
    """Self instructions per instruction address, per function (mangled name), from a
    callgrind profile written with --dump-instr=yes (its name and position compression)."""
    names, costs = {}, {}
    function, address, after_calls = None, 0, False
    for line in open(profile, encoding="utf-8", errors="replace"):
        named = re.match(r"^(c?)fn=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if named:
            if named.group(3):
                names[named.group(2)] = named.group(3)
            if not named.group(1):
                function = named.group(2)
            continue
        if line.startswith("calls="):
            after_calls = True  # the next cost line is the call's inclusive cost
            continue
        cost = re.match(r"^(0x[0-9a-f]+|[+-]\d+|\*)\s+\S+\s+(\d+)", line)
        if not cost or function is None:
            continue
        position = cost.group(1)
        if position.startswith("0x"):
            address = int(position, 16)
        elif position != "*":
            address += int(position)
        if after_calls:
            after_calls = False
            continue
        own = costs.setdefault(names.get(function, function), {})
        own[address] = own.get(address, 0) + int(cost.group(2))
    return costs


def source_lines(binary, pattern, corpus, work, top):
    """Prints, per function matching `pattern`, its instructions per call by source line."""
    profile, _ = profiled_export(binary, corpus, work, "callgrind-instr.out", ["--dump-instr=yes"])
    matches = [(name, own) for name, own in instruction_costs(profile).items() if pattern in name]
    if not matches:
        sys.exit(f"instructions: no function's name contains {pattern!r}")
    for name, own in sorted(matches, key=lambda match: -sum(match[1].values())):
        first, last = min(own), max(own)
        # The entry runs once per call (a prologue is no loop target).
        calls = max(own[first], 1)
        listing = subprocess.run(["objdump", "-d", "-l", "--no-show-raw-insn",
                                  f"--start-address={first:#x}", f"--stop-address={last + 16:#x}",
                                  binary], check=True, capture_output=True, text=True).stdout
        by_line, place = {}, "?"
        for text in listing.splitlines():
            text = text.strip()
            source = re.match(r"^(/\S+):(\d+)", text)
            if source:
                place = (os.path.relpath(source.group(1), os.path.join(ROOT, "Sources"))
                         + ":" + source.group(2))
                continue
            instruction = re.match(r"^([0-9a-f]+):", text)
            if instruction:
                by_line[place] = by_line.get(place, 0) + own.get(int(instruction.group(1), 16), 0)
        readable = subprocess.run(["swift", "demangle", "--simplified", "--compact", name],
                                  capture_output=True, text=True).stdout.strip() or name
        total = sum(own.values())
        print(f"\n{readable}\n  {total / 1e6:,.1f} M own instructions, {calls:,} calls, "
              f"{total / calls:,.0f} per call")
        for place, value in sorted(by_line.items(), key=lambda item: -item[1])[:top]:
            print(f"  {value / calls:9.1f}  {place}")
        if set(by_line) == {"?"}:
            print("  (no line tables: the release build's link-time optimization drops them; "
                  "pass --binary with a build made without it, see docs/performance.md)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", type=int, default=25,
                        help="participant folders of the 10k corpus (40 archives each)")
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "rkexport-bench"))
    parser.add_argument("--no-build", action="store_true", help="count .build/release as it is")
    parser.add_argument("--compare", help="a second rkexport binary, counted on the same slice")
    parser.add_argument("--lines", metavar="PATTERN",
                        help="per source line, the own instructions per call of the functions "
                             "whose mangled name contains PATTERN")
    parser.add_argument("--top", type=int, default=12, help="source lines shown per function")
    parser.add_argument("--binary", help="the rkexport --lines profiles (default: the release "
                                         "build, whose link-time optimization leaves no line "
                                         "tables; build one without it for --lines)")
    args = parser.parse_args()
    for tool in ["valgrind", "callgrind_annotate", "objcopy", "objdump", "swift"]:
        if shutil.which(tool) is None:
            sys.exit(f"instructions: {tool} is missing (scripts/setup --bench installs it)")
    os.makedirs(args.work, exist_ok=True)
    if not args.no_build:
        subprocess.run([os.path.join(ROOT, "scripts/build-release")], check=True,
                       stdout=subprocess.DEVNULL)
    corpus = slice_of_corpus(args.work, args.folders)
    archives = sum(len(files) for _, _, files in os.walk(corpus))
    megabytes = sum(os.path.getsize(os.path.join(folder, name))
                    for folder, _, files in os.walk(corpus) for name in files) / 1e6
    if args.lines:
        source_lines(os.path.abspath(args.binary or os.path.join(ROOT, ".build/release/rkexport")),
                     args.lines, corpus, args.work, args.top)
        return
    binaries = [("rkexport", os.path.join(ROOT, ".build/release/rkexport"))]
    if args.compare:
        binaries.append(("compared", os.path.abspath(args.compare)))
    results = [(label, count(path, corpus, args.work)) for label, path in binaries]
    print(f"callgrind, CSV export of {archives:,} archives ({megabytes:.1f} MB), --jobs 1")
    for label, (total, phases, runs) in results:
        print(f"\n{label}: {total / 1e6:,.1f} M instructions, {total / archives / 1e3:,.1f} k per "
              f"archive, {total / max(runs, 1) / 1e3:,.1f} k per task run ({runs:,} runs)")
        covered = 0
        for name, value, grows in phases:
            covered += value
            each = f"{value / archives / 1e3:7.1f} k/archive" if grows else "   once"
            print(f"  {name:<46} {value / 1e6:9.1f} M  {100 * value / total:5.1f} %  {each}")
        rest = total - covered
        print(f"  {'the rest: runtime start-up, walk, commit':<46} {rest / 1e6:9.1f} M  "
              f"{100 * rest / total:5.1f} %")
    if len(results) == 2:
        first, second = results[0][1][0], results[1][1][0]
        print(f"\ncompared / rkexport: {second / first:.4f} ({(second - first) / 1e6:+,.1f} M)")


if __name__ == "__main__":
    main()
