#!/usr/bin/env python3
"""Side-by-side benchmark of rkexport against the Python peer, the I/O and parse floors and bare
libxlsxwriter.

Usage: scripts/bench/run [--count N ...] [--runs K] [--peer-runs P] [--jobs J] [--skip-peer]
                        [--zips] [--state]
Prints one table per corpus size: wall time (median of K runs), archives/s, input MB/s,
answers/s, peak RSS, and the ratios rkexport/peer, rkexport/I-O floor, rkexport/parse floor and
rkexport CSV+XLSX / bare libxlsxwriter. The parse floor (parse_floor.c) is issue 6's "careful C
reference": on every core, each archive read, its plist parsed with every reference
bounds-checked, UIDs followed to every answer, one CSV line per answer value, nothing else. The XLSX floor (xlsx_floor.c) writes the very cells rkexport wrote (read
back from its CSV tables, loading excluded from its time), so the ratio isolates our overhead.
rkexport's workbook runs twice: as users get it (`--xlsx-compression fast`, zlib level 1) and
at libxlsxwriter's own level (`standard`, level 6), the one the floor and the peer use: the
ratio to the floor is taken at the same level, and the file sizes are printed.
With --zips, rkexport CSV also runs on the same archives packed 100 to a zip, and on as many
Bridge uploads (one zip each, built from samples/bridge-upload with distinct run UUIDs): the
shapes uploads arrive in. The peer reads the archives in zips (as often as --peer-runs says)
but no Bridge uploads.
With --state, the nightly incremental run is timed too: the first (no state file yet: every
input is read, hashed and written to the state) and the next (nothing new).
"""
import argparse
import csv
import glob
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile
from typing import NamedTuple, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Run(NamedTuple):
    """One run of a tool: wall seconds, peak RSS in MB, CPU seconds (user + system, every
    thread; None where not measured) and its standard output."""
    wall: float
    peak: float
    cpu: Optional[float]
    stdout: str


def timed(command):
    """Runs a command once. Medians are taken over the rounds (see `main`)."""
    with tempfile.NamedTemporaryFile("r") as stats:
        # /usr/bin/time gives peak RSS and CPU time; its wall clock has only 10 ms steps.
        started = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", stats.name] + command,
                              check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
        wall = time.perf_counter() - started
        peak_kb, user, system = stats.read().split()[-3:]
    return Run(wall, int(peak_kb) / 1024, float(user) + float(system), done.stdout)


def column_types(out):
    """Per CSV path in `out`, one letter per column telling xlsx_floor which cell rkexport
    writes (see xlsx_floor.c), from datapackage.json."""
    with open(os.path.join(out, "datapackage.json")) as handle:
        package = json.load(handle)
    letters = {"string": "s", "integer": "i", "boolean": "b", "datetime": "d", "number": "n"}
    types = {}
    for resource in package["resources"]:
        fields = resource["schema"]["fields"]
        types[resource["path"]] = "".join(
            "u" if field["type"] == "number" and field.get("unit") == "s"
            # answers.value holds each answer in its own type (xlsx_floor infers it).
            else "a" if resource["path"] == "answers.csv" and field["name"] == "value"
            else letters.get(field["type"], "s") for field in fields)
    return types


def xlsx_floor_seconds(floor_xlsx, out, work):
    """Bare libxlsxwriter writing rkexport's long and wide tables; (write seconds, peak MB)."""
    names = ["task_runs.csv", "steps.csv", "answers.csv", "inputs.csv"]
    names += sorted("wide/" + name for name in os.listdir(os.path.join(out, "wide")))
    types = column_types(out)
    tables = [os.path.join(out, name) + ("=" + types[name] if name in types else "")
              for name in names]
    run = timed([floor_xlsx, os.path.join(work, "floor.xlsx")] + tables)
    # It prints "seconds=<write time> cells=<n> close=<s>": only the writing is timed (its CPU
    # time, loading included, would not compare).
    return Run(float(run.stdout.split()[0].split("=")[1]), run.peak, None, run.stdout)


def corpus_size(folder):
    files = total = 0
    for dirpath, _, names in os.walk(folder):
        for name in names:
            files += 1
            total += os.path.getsize(os.path.join(dirpath, name))
    return files, total


def generator_fingerprint():
    """A hash of scripts/samplegen's sources (its package file and `Sources/`): a corpus made
    by other sources may hold other archives, or lay them out otherwise."""
    package = os.path.join(ROOT, "scripts/samplegen")
    paths = [os.path.join(package, "Package.swift")] + sorted(
        os.path.join(folder, name)
        for folder, _, names in os.walk(os.path.join(package, "Sources")) for name in names)
    digest = hashlib.sha256()
    for path in paths:
        digest.update(os.path.relpath(path, package).encode() + b"\0")
        with open(path, "rb") as file:
            digest.update(file.read())
    return digest.hexdigest() + "\n"


def generated_corpus(work, count):
    """The benchmark corpus of `count` archives in `work`, generated the first time (and again,
    with what was derived from it, when scripts/samplegen has changed since)."""
    corpus = os.path.join(work, f"corpus-{count}")
    stamp = corpus + ".generator"
    fingerprint = generator_fingerprint()
    if os.path.isdir(corpus) and os.path.isfile(stamp):
        with open(stamp) as file:
            if file.read() == fingerprint:
                return corpus
    derived = glob.glob(glob.escape(corpus) + "-zips*")
    if count == 10000:
        derived += glob.glob(os.path.join(glob.escape(work), "slice-*"))
    for stale in [corpus] + derived:
        shutil.rmtree(stale, ignore_errors=True)
    subprocess.run([os.path.join(ROOT, "scripts/generate-samples"), "--corpus", corpus,
                    "--count", str(count)], check=True)
    with open(stamp, "w") as file:
        file.write(fingerprint)
    return corpus


def zipped_corpus(corpus, work, count, per_zip=100):
    """The corpus's archives packed `per_zip` to a deflated zip, in path order (made once)."""
    target = os.path.join(work, f"corpus-{count}-zips{per_zip}")
    if os.path.isdir(target):
        return target
    partial = target + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(partial)
    paths = sorted(os.path.join(folder, name)
                   for folder, _, names in os.walk(corpus) for name in names)
    for start in range(0, len(paths), per_zip):
        name = os.path.join(partial, f"batch-{start // per_zip:06d}.zip")
        with zipfile.ZipFile(name, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in paths[start:start + per_zip]:
                archive.write(path, os.path.relpath(path, corpus))
    os.rename(partial, target)
    return target


def bridge_corpus(work, count, per_participant=100):
    """`count` Bridge uploads, one zip each, 100 per participant folder: the sample upload
    with its run UUID replaced by a distinct one per copy (made once)."""
    target = os.path.join(work, f"bridge-{count}")
    if os.path.isdir(target):
        return target
    sample = os.path.join(ROOT, "samples/bridge-upload/P011/upload1.zip")
    with zipfile.ZipFile(sample) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    run_uuid = json.loads(dict((i.filename, d) for i, d in entries)["info.json"])["taskRun"]
    partial = target + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    for number in range(count):
        folder = os.path.join(partial, f"P{number // per_participant:05d}")
        os.makedirs(folder, exist_ok=True)
        fresh = str(uuid.UUID(int=number + 1)).encode()
        with zipfile.ZipFile(os.path.join(folder, f"upload{number:06d}.zip"), "w",
                             zipfile.ZIP_DEFLATED) as upload:
            for info, data in entries:
                upload.writestr(info, data.replace(run_uuid.encode(), fresh))
    os.rename(partial, target)
    return target


def count_answers(out):
    with open(os.path.join(out, "answers.csv"), newline="") as handle:
        return sum(1 for _ in csv.reader(handle)) - 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, action="append", help="archives per corpus")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "rkexport-bench"))
    parser.add_argument("--jobs", type=int, default=None,
                        help="rkexport --jobs (default: rkexport's own default)")
    parser.add_argument("--skip-peer", action="store_true", help="skip the slow Python peer")
    parser.add_argument("--peer-runs", type=int, default=1,
                        help="rounds the peer runs in, the middle ones (default 1: it is slow); "
                             "its figures are their median, like every tool's")
    parser.add_argument("--zips", action="store_true",
                        help="also time CSV on the archives in zips and on Bridge upload zips")
    parser.add_argument("--state", action="store_true",
                        help="also time a --state run: the first, and one with nothing new")
    args = parser.parse_args()
    counts = args.count or [10_000]
    os.makedirs(args.work, exist_ok=True)

    # As users build it (scripts/export-samples): the Swift runtime linked in.
    subprocess.run([os.path.join(ROOT, "scripts/build-release")], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    rkexport = os.path.join(ROOT, ".build/release/rkexport")
    # The Swift toolchain brings clang; a bare Debian has no `cc` without build-essential.
    compiler = shutil.which("cc") or shutil.which("clang") or "cc"
    floor = os.path.join(args.work, "io_floor")
    subprocess.run([compiler, "-O2", "-o", floor, os.path.join(ROOT, "scripts/bench/io_floor.c")],
                   check=True)
    parse_floor = os.path.join(args.work, "parse_floor")
    subprocess.run([compiler, "-O2", "-pthread", "-o", parse_floor,
                    os.path.join(ROOT, "scripts/bench/parse_floor.c")], check=True)
    floor_xlsx = os.path.join(args.work, "xlsx_floor")
    cflags = subprocess.run(["pkg-config", "--cflags", "--libs", "xlsxwriter"], check=True,
                            capture_output=True, text=True).stdout.split()
    subprocess.run([compiler, "-O2", "-o", floor_xlsx, os.path.join(ROOT, "scripts/bench/xlsx_floor.c")]
                   + cflags, check=True)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")

    # Per corpus size: (archives, CSV seconds, CSV peak MB, CSV+XLSX seconds, CSV+XLSX peak MB,
    # I/O floor seconds, bare libxlsxwriter seconds).
    scaling = []
    # Per corpus size, with --zips: (name, files, bytes, answers, CSV seconds, peak MB) per shape.
    zip_scaling = []
    # Per corpus size, with --state: (name, seconds, peak MB) for the first and the next run.
    state_scaling = []
    for count in counts:
        corpus = os.path.realpath(generated_corpus(args.work, count))  # io_floor does not follow a symlinked root
        files, size = corpus_size(corpus)
        timed([floor, corpus])  # warm the page cache
        out = os.path.join(args.work, "out")
        shutil.rmtree(out, ignore_errors=True)
        jobs = ["--jobs", str(args.jobs)] if args.jobs else []
        csv_command = [rkexport, corpus, "--out", out, "--quiet"] + jobs
        xlsx_command = csv_command + ["--xlsx"]
        xlsx_standard_command = xlsx_command + ["--xlsx-compression", "standard"]
        workbook = os.path.join(out, "results.xlsx")
        sizes = {}

        def xlsx_run(name, command):
            figures = timed(command)
            sizes[name] = os.path.getsize(workbook)
            return figures
        timed(csv_command)  # the outputs the XLSX floor writes again, and a warm-up
        answers = count_answers(out)
        def peer_command(folder):
            return [sys.executable, os.path.join(ROOT, "scripts/bench/python_peer.py"), folder,
                    "--out", os.path.join(args.work, "peer-out")]
        peer = peer_command(corpus)
        # Round robin: one run of every tool per round, so that a host that gets slower or
        # faster during the bench (shared machines do) moves all figures alike and the ratios
        # stay honest. The peer runs in the middle `--peer-runs` rounds (once by default: a
        # run of it takes minutes at 100k), and its single runs have moved by a third.
        measured = {name: [] for name in ("floor", "parse_floor", "csv", "xlsx",
                                          "xlsx_standard", "xlsx_floor")}
        parse_floor_command = [parse_floor, corpus, os.path.join(args.work, "parse-floor.csv")]
        # The floor must find the answers rkexport writes, or the comparison says nothing.
        floor_lines = int(timed(parse_floor_command).stdout.split()[-3])
        if floor_lines != answers:
            print(f"note: the parse floor wrote {floor_lines:,} answer lines, rkexport "
                  f"{answers:,} answers rows")
        peer_runs = max(1, min(args.peer_runs, args.runs))
        peer_rounds = range((args.runs - peer_runs) // 2, (args.runs - peer_runs) // 2 + peer_runs)
        peer_csv_runs, peer_xlsx_runs = [], []
        for round_number in range(args.runs):
            for name, measure in (("floor", lambda: timed([floor, corpus])),
                                  ("parse_floor", lambda: timed(parse_floor_command)),
                                  ("csv", lambda: timed(csv_command)),
                                  ("xlsx", lambda: xlsx_run("fast", xlsx_command)),
                                  ("xlsx_standard",
                                   lambda: xlsx_run("standard", xlsx_standard_command)),
                                  ("xlsx_floor",
                                   lambda: xlsx_floor_seconds(floor_xlsx, out, args.work))):
                measured[name].append(measure())
            if not args.skip_peer and round_number in peer_rounds:
                peer_csv_runs.append(timed(peer))
                peer_xlsx_runs.append(timed(peer + ["--xlsx"]))
        def summary(runs):
            """Median wall seconds, largest peak MB, median CPU seconds (None if unmeasured)."""
            cpus = [run.cpu for run in runs if run.cpu is not None]
            return (statistics.median(run.wall for run in runs), max(run.peak for run in runs),
                    statistics.median(cpus) if cpus else None)
        peer_rows = [(name, *summary(runs))
                     for name, runs in (("Python peer CSV", peer_csv_runs),
                                        ("Python peer CSV+XLSX", peer_xlsx_runs)) if runs]
        figures = {name: summary(runs) for name, runs in measured.items()}
        (t_csv, rss_csv, _), (t_xlsx, rss_xlsx, _) = figures["csv"], figures["xlsx"]
        t_xlsx_standard = figures["xlsx_standard"][0]
        t_floor_xlsx = figures["xlsx_floor"][0]
        rows = [("I/O floor (open+read+close)", *figures["floor"]),
                ("parse floor (C, answers only)", *figures["parse_floor"]),
                ("rkexport CSV", *figures["csv"]),
                ("bare libxlsxwriter, same cells", *figures["xlsx_floor"]),
                ("rkexport CSV+XLSX (fast)", *figures["xlsx"]),
                ("rkexport CSV+XLSX (standard)", *figures["xlsx_standard"])] + peer_rows
        scaling.append((files, t_csv, rss_csv, t_xlsx, rss_xlsx, figures["floor"][0],
                        figures["xlsx_floor"][0]))
        zip_rows = []
        if args.zips:
            # The peer reads archives inside zips, not Bridge uploads.
            for name, folder, peer_reads in (
                    ("rkexport CSV, archives 100 a zip", zipped_corpus(corpus, args.work, count),
                     True),
                    ("rkexport CSV, Bridge upload zips", bridge_corpus(args.work, count), False)):
                zip_command = [rkexport, folder, "--out", out, "--quiet"] + jobs
                timed(zip_command)  # warm the page cache
                runs = [timed(zip_command) for _ in range(args.runs)]
                walls, peaks = [run.wall for run in runs], [run.peak for run in runs]
                zip_files, zip_size = corpus_size(folder)
                zip_answers = count_answers(out)
                peer_wall = None
                if peer_reads and not args.skip_peer:
                    peer_wall = statistics.median(
                        timed(peer_command(folder)).wall for _ in range(peer_runs))
                zip_rows.append((name, zip_files, zip_size, zip_answers,
                                 statistics.median(walls), max(peaks), peer_wall))
        zip_scaling.append(zip_rows)
        state_rows = []
        if args.state:
            state_file = os.path.join(args.work, "bench-state.json")
            state_out = os.path.join(args.work, "state-out")
            state_command = [rkexport, corpus, "--out", state_out, "--state", state_file,
                             "--quiet"] + jobs
            first, again = [], []
            # The zip corpora read since evicted some of this one (the host drops pages not
            # touched for a few minutes): warm it, as every other row is.
            timed([floor, corpus])
            for _ in range(args.runs):
                if os.path.exists(state_file):
                    os.remove(state_file)
                shutil.rmtree(state_out, ignore_errors=True)
                first.append(timed(state_command))
                again.append(timed(state_command))
            for name, runs in (("rkexport --state, first run", first),
                               ("rkexport --state, nothing new", again)):
                state_rows.append((name, statistics.median(run.wall for run in runs),
                                   max(run.peak for run in runs)))
        state_scaling.append(state_rows)

        print(f"\ncorpus: {files:,} archives, {size / 1e6:.1f} MB, {answers:,} answers "
              f"(median of {args.runs} rounds, every tool once a round; the peer "
              f"{'runs once' if len(peer_csv_runs) == 1 else f'in {len(peer_csv_runs)} of them'})")
        print(f"{'tool':32} {'wall s':>8} {'archives/s':>11} {'MB/s':>8} {'answers/s':>11} "
              f"{'peak MB':>8} {'CPU s':>7}")
        for name, wall, peak, cpu in rows:
            cpu_text = f"{cpu:7.2f}" if cpu is not None else f"{'':>7}"
            print(f"{name:32} {wall:8.2f} {files / wall:11,.0f} {size / 1e6 / wall:8.1f} "
                  f"{answers / wall:11,.0f} {peak:8.1f} {cpu_text}")
        floor_time = rows[0][1]
        print(f"rkexport CSV / I/O floor: {t_csv / max(floor_time, 1e-9):.1f}x the time")
        print(f"rkexport CSV / parse floor: {t_csv / max(figures['parse_floor'][0], 1e-9):.1f}x "
              f"the time (issue 6 aims at 2.5x; its C reference read ~500 MB/s of its corpus)")
        # CPU time moves less than wall time when other work shares the cores.
        cpu_csv, cpu_parse_floor = figures["csv"][2], figures["parse_floor"][2]
        if cpu_csv and cpu_parse_floor:
            print(f"rkexport CSV / parse floor, CPU time (user + system): "
                  f"{cpu_csv / cpu_parse_floor:.1f}x ({cpu_csv:.2f} s against "
                  f"{cpu_parse_floor:.2f} s)")
        print(f"rkexport CSV+XLSX (standard) / bare libxlsxwriter, both at deflate level 6: "
              f"{t_xlsx_standard / t_floor_xlsx:.2f}x the time "
              f"(XLSX part alone: {(t_xlsx_standard - t_csv) / t_floor_xlsx:.2f}x); "
              f"fast: {t_xlsx / t_floor_xlsx:.2f}x")
        floor_size = os.path.getsize(os.path.join(args.work, "floor.xlsx"))
        print(f"results.xlsx: fast {sizes['fast'] / 1e6:.1f} MB, standard "
              f"{sizes['standard'] / 1e6:.1f} MB, bare libxlsxwriter {floor_size / 1e6:.1f} MB")
        if zip_rows:
            print(f"zip inputs (median of {args.runs} runs each; files are zips, MB their size)")
            for name, zip_files, zip_size, zip_answers, wall, peak, peer_wall in zip_rows:
                versus = f", the peer {peer_wall:.2f} s ({peer_wall / wall:.1f}x)" \
                    if peer_wall else ""
                print(f"{name:32} {wall:8.2f} {zip_files:>8,} zips {zip_size / 1e6:8.1f} MB "
                      f"{zip_answers / wall:11,.0f} answers/s {peak:8.1f} MB peak{versus}")
        if state_rows:
            print(f"nightly --state runs (median of {args.runs} pairs; the first reads, hashes "
                  f"and records every input, the next finds nothing new)")
            for name, wall, peak in state_rows:
                print(f"{name:32} {wall:8.2f} {files / wall:11,.0f} archives/s {peak:8.1f} MB peak")
        if not args.skip_peer:
            (_, peer_csv, _, peer_csv_cpu), (_, peer_xlsx, _, _) = peer_rows
            peer_size = os.path.getsize(os.path.join(args.work, "peer-out", "results.xlsx"))
            print(f"speed-up over the Python peer: CSV {peer_csv / t_csv:.1f}x, "
                  f"CSV+XLSX {peer_xlsx / t_xlsx:.1f}x (fast), "
                  f"{peer_xlsx / t_xlsx_standard:.1f}x (standard; the peer's workbook "
                  f"{peer_size / 1e6:.1f} MB)")
            if peer_csv_cpu and cpu_csv:
                print(f"CPU time, the Python peer / rkexport CSV: {peer_csv_cpu / cpu_csv:.1f}x "
                      f"(the peer uses one core, rkexport all)")

    # Issue 6: time linear in the number of archives (10x ± 15 % from 10k to 100k) and peak
    # memory flat (within 10 %); printed so that a regression in either shows in every run.
    # The I/O floor and bare libxlsxwriter do the same work per file at both sizes: when their
    # times scale by much more than the count, the host's speed changed between the corpora
    # (a shared machine), and the rkexport figures beside them say little about linearity.
    for (small, small_csv, small_csv_mb, small_xlsx, small_xlsx_mb, small_floor, small_bare), \
            (large, large_csv, large_csv_mb, large_xlsx, large_xlsx_mb, large_floor, large_bare) \
            in zip(scaling, scaling[1:]):
        print(f"\nscaling {small:,} -> {large:,} archives ({large / small:.1f}x): "
              f"time CSV {large_csv / small_csv:.1f}x, CSV+XLSX {large_xlsx / small_xlsx:.1f}x "
              f"(the I/O floor {large_floor / small_floor:.1f}x, bare libxlsxwriter "
              f"{large_bare / small_bare:.1f}x on the same host); "
              f"peak memory CSV {100 * (large_csv_mb / small_csv_mb - 1):+.0f} %, "
              f"CSV+XLSX {100 * (large_xlsx_mb / small_xlsx_mb - 1):+.0f} %")
    for small_rows, large_rows in zip(zip_scaling, zip_scaling[1:]):
        for small, large in zip(small_rows, large_rows):
            print(f"scaling {large[0][len('rkexport CSV, '):]}: time {large[4] / small[4]:.1f}x, "
                  f"peak memory {100 * (large[5] / small[5] - 1):+.0f} %")
    for small_rows, large_rows in zip(state_scaling, state_scaling[1:]):
        for small, large in zip(small_rows, large_rows):
            print(f"scaling {large[0][len('rkexport '):]}: time {large[1] / small[1]:.1f}x, "
                  f"peak memory {100 * (large[2] / small[2] - 1):+.0f} %")


if __name__ == "__main__":
    main()
