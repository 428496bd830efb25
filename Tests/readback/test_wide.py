"""Read-back of `wide/<task_id>.csv` against the ground truth: one row per run, one column per
question (multiple choice: a packed column plus one 0/1 column per option), blank when the
question was not presented (branched over) or not answered.

Column naming is not fixed by design.md §4; the test accepts `<item_id>` (when it is unique in
the task) or `<step_id><sep><item_id>`, option columns `<question column><sep><option>`, with
sep one of `.`, `_`, `:`, `/`, and a packed multiple choice separated by `;`, `|` or `,`.
"""

import csv
import re
from collections import defaultdict

import pandas as pd
import pytest

from contract import INSTANT, WIDE_PREFIX, cell, load_truth, output_dir

OUT = output_dir()
pytestmark = pytest.mark.skipif(OUT is None, reason="set RKEXPORT_OUT to an rkexport output folder")
TRUTH = load_truth()
SEPARATORS = [".", "_", ":", "/"]


def tasks():
    grouped = defaultdict(list)
    for run in TRUTH["task_runs"]:
        grouped[run["task_id"]].append(run)
    return grouped


def questions(runs):
    """(step_id, item_id) → {"multi": bool, "options": [values in first-seen order]}."""
    found = {}
    for run in runs:
        per_item = defaultdict(list)
        for answer in run["answers"]:
            per_item[(answer["step_id"], answer["item_id"])].append(answer)
        for key, answers in per_item.items():
            entry = found.setdefault(key, {"multi": False, "options": []})
            if answers[0]["answer_type"] == "choice" and answers[0]["status"] == "answered":
                for answer in answers:
                    if answer["value"] not in entry["options"]:
                        entry["options"].append(answer["value"])
            if key == ("supplement_types", "supplement_types"):
                entry["multi"] = True
    return found


def column_for(header, step_id, item_id):
    candidates = [item_id] + [step_id + sep + item_id for sep in SEPARATORS]
    for name in candidates:
        if name in header:
            return name
    pytest.fail(f"no wide column for {step_id}/{item_id} in {header}")


def option_column(header, base, option):
    for sep in SEPARATORS:
        if base + sep + option in header:
            return base + sep + option
    for name in (f"{base}[{option}]",):
        if name in header:
            return name
    pytest.fail(f"no 0/1 column for option {option!r} of {base} in {header}")


def split_packed(text):
    for sep in (";", "|", ","):
        if sep in text:
            return [part.strip() for part in text.split(sep)]
    return [text]


@pytest.mark.parametrize("task_id", sorted(tasks()))
def test_wide_everyCell_matchesTruth(task_id):
    runs = tasks()[task_id]
    path = OUT / "wide" / f"{task_id}.csv"
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        rows = {row["task_run_uuid"]: row for row in reader}
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert list(frame.columns) == header
    assert header[:len(WIDE_PREFIX)] == WIDE_PREFIX
    assert len(frame) == len(rows) == len(runs)
    for run in runs:
        row = rows[run["task_run_uuid"]]
        assert row["participant_id"] == run["participant_id"]
        assert row["task_start"] == run["task_start"] and INSTANT.match(row["task_start"])
        assert row["task_end"] == run["task_end"]
        assert abs(float(row["task_duration_s"]) - run["task_duration_s"]) <= 0.0011
        answers = defaultdict(list)
        for answer in run["answers"]:
            answers[(answer["step_id"], answer["item_id"])].append(answer)
        for key, info in questions(runs).items():
            check_question(header, row, key, info, answers.get(key), run["source"])


def check_question(header, row, key, info, answers, source):
    base = column_for(header, *key)
    what = f"wide {source} {base}"
    text = row[base]
    if answers is None or answers[0]["status"] == "skipped":
        # Not presented (branched over) or skipped: blank, and so are its option columns.
        assert text == "", f"{what}: expected blank, got {text!r}"
        for option in info["options"] if info["multi"] else []:
            assert row[option_column(header, base, option)] == "", what
        return
    if answers[0]["status"] == "dont_know":
        assert text in ("", "dont_know"), f"{what}: don't know shown as {text!r}"
        return
    values = [cell(answer["value"]) for answer in answers]
    if info["multi"]:
        assert split_packed(text) == values, f"{what}: packed {text!r} != {values}"
        for option in info["options"]:
            cell_text = row[option_column(header, base, option)]
            assert cell_text == ("1" if option in values else "0"), f"{what} {option}: {cell_text!r}"
    else:
        assert text == values[0], f"{what}: {text!r} != {values[0]!r}"
        if answers[0]["answer_type"] == "boolean":
            assert text in ("true", "false")
