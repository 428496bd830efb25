"""Independent read-back of `rkexport samples/study --out $RKEXPORT_OUT` against the generator's
ground truth (Tests/RKExportTests/Fixtures/samples-truth.json), with Python's csv module and pandas.

Run: rkexport samples/study --out /tmp/out && RKEXPORT_OUT=/tmp/out pytest Tests/readback
"""

import csv
from collections import defaultdict

import pandas as pd
import pytest

from contract import (ANSWERS, DURATION, INPUTS, INSTANT, STEPS, TASK_RUNS, TOLERATED_ANSWER_EXTRAS,
                      TOLERATED_TASK_RUN_EXTRAS, WIDE_PREFIX, cell, load_truth, output_dir)

OUT = output_dir()
pytestmark = pytest.mark.skipif(OUT is None, reason="set RKEXPORT_OUT to an rkexport output folder")
TRUTH = load_truth()
RUNS = TRUTH["task_runs"]
# scripts/test exports all of samples/ (study, Bridge, SurveyNative); the truth describes the
# study's files only, so rows of other inputs are set aside by their source path (a run of an
# archived array is `<path>#<n>`).
STUDY_PATHS = {entry["path"] for entry in TRUTH["inputs"]}


# With several input roots rkexport names the root in every path (`samples/study/P001/…`); the
# truth lists paths below the study's root.
STUDY_ROOT = "samples/study/"


def below_study_root(path):
    return path[len(STUDY_ROOT):] if path.startswith(STUDY_ROOT) else path


def of_study(row):
    for key in ("source", "path"):
        if key in row:
            row[key] = below_study_root(row[key])
    return row.get("source", row.get("path")).split("#")[0] in STUDY_PATHS


def read(name):
    """Rows as dicts via csv, after checking pandas reads the very same text."""
    path = OUT / name
    with open(path, encoding="utf-8", newline="") as handle:
        text = handle.read()
    assert "\r" not in text.replace('\r"', ""), f"{name}: line ends must be \\n"
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        rows = list(reader)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert list(frame.columns) == header, f"{name}: pandas and csv disagree on the header"
    assert frame.to_dict("records") == rows, f"{name}: pandas and csv disagree on the cells"
    return header, [row for row in rows if of_study(row)]


def check_duration(text, expected, what):
    assert DURATION.match(text), f"{what}: duration {text!r} is not seconds with ≤ 3 decimals"
    assert abs(float(text) - expected) <= 0.0011, f"{what}: duration {text} != {expected}"


def check_instant(text, expected, what):
    assert INSTANT.match(text), f"{what}: {text!r} is not ISO 8601 UTC with milliseconds"
    assert text == expected, f"{what}: {text} != {expected}"


# MARK: - task_runs.csv, steps.csv, inputs.csv

def test_task_runs_everyRun_matchesTruth():
    header, rows = read("task_runs.csv")
    assert header[:len(TASK_RUNS)] == TASK_RUNS
    assert set(header[len(TASK_RUNS):]) <= TOLERATED_TASK_RUN_EXTRAS
    by_uuid = {row["task_run_uuid"]: row for row in rows}
    assert len(rows) == len(RUNS) == len(by_uuid)
    for run in RUNS:
        row = by_uuid[run["task_run_uuid"]]
        what = f"task_runs {run['source']}"
        for key in ("participant_id", "task_id", "source"):
            assert row[key] == run[key], f"{what}: {key}"
        assert row["n_steps"] == str(run["n_steps"]), what
        check_instant(row["task_start"], run["task_start"], what)
        check_instant(row["task_end"], run["task_end"], what)
        check_duration(row["task_duration_s"], run["task_duration_s"], what)


def test_steps_everyStep_matchesTruth():
    header, rows = read("steps.csv")
    assert header == STEPS
    by_key = {(row["task_run_uuid"], row["step_index"]): row for row in rows}
    expected = [(run, step) for run in RUNS for step in run["steps"]]
    assert len(rows) == len(expected) == len(by_key)
    for run, step in expected:
        row = by_key[(run["task_run_uuid"], str(step["step_index"]))]
        what = f"steps {run['source']} #{step['step_index']}"
        assert row["step_id"] == step["step_id"], what
        for key in ("participant_id", "task_id", "source"):
            assert row[key] == run[key], f"{what}: {key}"
        check_instant(row["step_start"], step["step_start"], what)
        check_instant(row["step_end"], step["step_end"], what)
        check_duration(row["step_duration_s"], step["step_duration_s"], what)


def test_inputs_everyFile_listedOk():
    header, rows = read("inputs.csv")
    assert header == INPUTS
    by_path = {row["path"]: row for row in rows}
    assert len(rows) == len(TRUTH["inputs"]) == len(by_path)
    for expected in TRUTH["inputs"]:
        row = by_path[expected["path"]]
        assert row["format"] == expected["format"], expected["path"]
        assert row["status"] == "ok", expected["path"]
        assert row["task_runs"] == str(expected["task_runs"]), expected["path"]
        assert row["answers"] == str(expected["answers"]), expected["path"]
        assert row["error"] == "", expected["path"]


# MARK: - answers.csv

def expected_answers():
    """(uuid, step_id, item_id) → (run, [truth rows in value_index order])."""
    grouped = {}
    for run in RUNS:
        for answer in run["answers"]:
            key = (run["task_run_uuid"], answer["step_id"], answer["item_id"])
            grouped.setdefault(key, (run, []))[1].append(answer)
    return grouped


def units_by_item():
    units = defaultdict(set)
    for run in RUNS:
        for answer in run["answers"]:
            if answer["unit"]:
                units[(run["task_id"], answer["item_id"])].add(answer["unit"])
    return units


def test_answers_header_contractColumnsFirst():
    header, _ = read("answers.csv")
    assert header[:len(ANSWERS)] == ANSWERS
    extras = header[len(ANSWERS):]
    assert set(extras) <= TOLERATED_ANSWER_EXTRAS, f"unexpected answers.csv columns {extras}"


def test_answers_everyValue_matchesTruth():
    header, rows = read("answers.csv")
    actual = defaultdict(list)
    for row in rows:
        actual[(row["task_run_uuid"], row["step_id"], row["item_id"])].append(row)
    expected = expected_answers()
    assert set(actual) == set(expected), "answer rows for questions not in the truth, or missing"
    units = units_by_item()
    for key, (run, truth_rows) in expected.items():
        got = sorted(actual[key], key=lambda r: int(r["value_index"] or 0))
        what = f"answers {run['source']} {key[1]}/{key[2]}"
        assert len(got) == len(truth_rows), f"{what}: {len(got)} rows, expected {len(truth_rows)}"
        for row, truth in zip(got, truth_rows):
            check_answer_row(row, truth, run, what, header, units)


def check_answer_row(row, truth, run, what, header, units):
    for key in ("participant_id", "task_id", "source"):
        assert row[key] == run[key], f"{what}: {key}"
    for key in ("answer_type", "status", "value", "value_number", "value_datetime"):
        assert row[key] == cell(truth[key]), f"{what}: {key} {row[key]!r} != {truth[key]!r}"
    if truth["value_index"] is not None:
        assert row["value_index"] == str(truth["value_index"]), f"{what}: value_index"
    else:
        # The contract numbers choice values only; a single-valued answer may say 1 or nothing.
        assert row["value_index"] in ("", "1"), f"{what}: value_index {row['value_index']!r}"
    if truth["status"] == "answered":
        assert row["unit"] == cell(truth["unit"]), f"{what}: unit"
    else:
        allowed = {""} | units[(run["task_id"], truth["item_id"])]
        assert row["unit"] in allowed, f"{what}: unit {row['unit']!r} on a {truth['status']} row"
    if "time_zone" in header and truth["time_zone"] and truth["status"] == "answered":
        assert row["time_zone"] == truth["time_zone"], f"{what}: time_zone"
    check_instant(row["answer_start"], truth["answer_start"], what)
    check_instant(row["answer_end"], truth["answer_end"], what)
    check_duration(row["answer_duration_s"], truth["answer_duration_s"], what)
    if truth["answer_type"] == "boolean" and truth["status"] == "answered":
        assert row["value"] in ("true", "false"), f"{what}: boolean text"
    if row["value_datetime"]:
        assert INSTANT.match(row["value_datetime"]), f"{what}: value_datetime"


def test_answers_pandas_typesFitAnalysis():
    frame = pd.read_csv(OUT / "answers.csv")
    frame["source"] = frame["source"].map(below_study_root)
    frame = frame[frame["source"].str.split("#").str[0].isin(STUDY_PATHS)]
    assert pd.api.types.is_numeric_dtype(frame["value_number"]), "value_number must read as numbers"
    assert pd.api.types.is_numeric_dtype(frame["answer_duration_s"])
    starts = pd.to_datetime(frame["answer_start"], utc=True, format="ISO8601")
    assert starts.notna().all()
    total = sum(len(run["answers"]) for run in RUNS)
    assert len(frame) == total
    runs = pd.read_csv(OUT / "task_runs.csv")
    assert pd.api.types.is_integer_dtype(runs["n_steps"])
    assert pd.api.types.is_float_dtype(runs["task_duration_s"])
