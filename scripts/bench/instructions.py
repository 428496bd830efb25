#!/usr/bin/env python3
"""Counts the instructions rkexport spends per archive, by phase, with valgrind's callgrind.

Wall times on a shared 2-core machine move by a third from hour to hour; instruction counts on
a fixed slice of the benchmark corpus repeat to within 0.1 % (what still moves: the run's
random temporary names and its clock readings). They are the measure the performance work
decides by (docs/performance.md): one CSV export of the first FOLDERS participant folders of
the 10,000-archive corpus (1,000 archives by default), one thread (`--jobs 1`), split into the
pipeline's phases. With --compare OTHER it counts a second binary
on the same slice and prints both, so a change can be judged before it is committed.

  scripts/bench/instructions [--folders 25] [--no-build] [--compare path/to/rkexport]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from bench import ROOT, generated_corpus

# Phases by the function that runs each of them once per archive or once per export
# (demangled, simplified names); what no phase covers is the rest of start-up (the runtime's
# type metadata and conformance lookups), the walk and the commit.
# Each with whether it grows with the archives (else it is paid once per export).
PHASES = [
    ("command line parsed", "static ParsableCommand.parseAsRoot(_:)", False),
    ("import: read, sniff, decode", "InputImporter.importItem(_:)", True),
    ("prepare: rows, wide share, statistics share", "RunPreparer.prepare(_:item:for:)", True),
    ("consume: write rows, pivot, collect", "ExportPass.consume(_:_:number:)", True),
    ("prepared runs freed", "destroy for ExportPass.Found", True),
    ("finish: wide tables, statistics, codebook", "ExportOutputs.finish()", True),
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


def count(binary, corpus, work):
    """Total instructions and the inclusive count of each phase function."""
    # valgrind 3.19 gives up on the release binary's debug information: count a stripped copy.
    stripped = os.path.join(work, "rkexport-stripped")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    out = os.path.join(work, "instructions-out")
    shutil.rmtree(out, ignore_errors=True)
    profile = os.path.join(work, "callgrind.out")
    # Swift seeds its hashing per process: fixed here, dictionaries probe alike in every count.
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", stripped,
                    corpus, "--out", out, "--jobs", "1", "--quiet"], check=True,
                   stderr=subprocess.DEVNULL, env=environment)
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
    phases = [(label, inclusive.get(function, 0), grows) for label, function, grows in PHASES]
    runs = max(0, sum(1 for _ in open(os.path.join(out, "task_runs.csv"), encoding="utf-8")) - 1)
    return total, phases, runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", type=int, default=25,
                        help="participant folders of the 10k corpus (40 archives each)")
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "rkexport-bench"))
    parser.add_argument("--no-build", action="store_true", help="count .build/release as it is")
    parser.add_argument("--compare", help="a second rkexport binary, counted on the same slice")
    args = parser.parse_args()
    for tool in ["valgrind", "callgrind_annotate", "objcopy", "swift"]:
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
