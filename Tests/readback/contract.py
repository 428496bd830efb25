"""Column lists of rkexport's output contract (design.md §4) and helpers shared by the tests."""

import json
import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TRUTH_PATH = REPO / "Tests" / "RKExportTests" / "Fixtures" / "samples-truth.json"
SAMPLES = REPO / "samples"

TASK_RUNS = ["participant_id", "task_id", "task_run_uuid", "task_start", "task_end",
             "task_duration_s", "n_steps", "source"]
STEPS = ["participant_id", "task_id", "task_run_uuid", "step_index", "step_id", "step_start",
         "step_end", "step_duration_s", "source"]
ANSWERS = ["participant_id", "task_id", "task_run_uuid", "step_id", "item_id", "answer_type",
           "status", "value_index", "value", "value_number", "value_datetime", "unit",
           "answer_start", "answer_end", "answer_duration_s", "source"]
WIDE_PREFIX = ["participant_id", "task_run_uuid", "task_start", "task_end", "task_duration_s"]
INPUTS = ["path", "format", "status", "task_runs", "answers", "error"]

# Columns the contract does not name but we accept when appended after the contract's own:
# answers.csv: the "other" column of design.md §4's encoding table (location, date time zone,
# file content type) and ResearchKit's displayUnit; task_runs.csv: ORKDevice fields, the app
# version of Bridge uploads and the remaining run metadata as JSON (users.md item 3).
TOLERATED_ANSWER_EXTRAS = {"latitude", "longitude", "time_zone", "content_type", "display_unit"}
TOLERATED_TASK_RUN_EXTRAS = {"device_product", "device_platform", "device_os_version",
                             "device_os_build", "app_version", "metadata"}

INSTANT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
# Durations: seconds with at most millisecond precision.
DURATION = re.compile(r"^-?\d+(\.\d{1,3})?$")


def load_truth():
    with open(TRUTH_PATH, encoding="utf-8") as handle:
        return json.load(handle)


def output_dir():
    value = os.environ.get("RKEXPORT_OUT")
    return Path(value) if value else None


def cell(value):
    """The CSV text the truth's JSON value must appear as (None = empty cell)."""
    if value is None:
        return ""
    return str(value)
