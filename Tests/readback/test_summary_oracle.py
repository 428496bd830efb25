"""`summary.csv` and `choices.csv` recomputed from `answers.csv`, `steps.csv` and `task_runs.csv`
with pandas and numpy (the oracle), then compared: counts exactly, statistics to 1e-12 relative,
durations to the millisecond the CSVs are rounded to. Column meanings are the codebook's.

A run is keyed by its `source` (unique per run, `<file>#<n>` inside an archived array), so runs
without a UUID still count once.
"""

import json
import math

import numpy as np
import pandas as pd
import pytest

from contract import SAMPLES
from exported import NEEDS_ALL_SAMPLES, NEEDS_EXPORT, OUT, unix_seconds

pytestmark = NEEDS_EXPORT
KEY = ["task_id", "step_id", "item_id"]
# Types whose answers have a number to summarise (codebook: summary.mean); dates count as
# seconds since 1970 of their instant.
NUMERIC_TYPES = {"numeric", "scale", "time_interval", "time_of_day", "ses"}
STATISTICS = ["mean", "sd", "min", "p25", "median", "p75", "max"]
REL_TOL = 1e-12
# The oracle works from durations the CSVs rounded to the millisecond; rkexport from exact ones.
DURATION_ABS_TOL = 0.001


def read(name):
    return pd.read_csv(OUT / name, dtype=str, keep_default_na=False)


def close(actual_text, expected, what, abs_tol=0.0):
    if expected is None or (isinstance(expected, float) and math.isnan(expected)):
        assert actual_text == "", f"{what}: {actual_text!r}, expected blank"
        return
    assert actual_text != "", f"{what}: blank, expected {expected}"
    assert math.isclose(float(actual_text), expected, rel_tol=REL_TOL, abs_tol=abs_tol), \
        f"{what}: {actual_text} != {expected!r}"


def numbers_of(rows):
    """The numbers a question's answered rows summarise, one per run."""
    answered = rows[rows["status"] == "answered"]
    if answered.empty:
        return np.array([])
    kind = answered["answer_type"].iloc[0]
    if kind in NUMERIC_TYPES:
        return answered["value_number"].astype(float).to_numpy()
    if kind == "date":
        return np.array([unix_seconds(text) for text in answered["value_datetime"]])
    return np.array([])


def expected_statistics(values):
    if len(values) == 0:
        return dict.fromkeys(STATISTICS)
    quartiles = np.percentile(values, [25, 50, 75])  # linear = R type 7
    return {"mean": float(np.mean(values)),
            "sd": float(np.std(values, ddof=1)) if len(values) > 1 else None,
            "min": float(values.min()), "p25": float(quartiles[0]),
            "median": float(quartiles[1]), "p75": float(quartiles[2]),
            "max": float(values.max())}


def median_of(texts, q=50):
    values = [float(text) for text in texts if text != ""]
    return float(np.percentile(values, q)) if values else None


# MARK: - summary.csv

def test_summary_questions_sameAsAnswers():
    answers, summary = read("answers.csv"), read("summary.csv")
    from_answers = set(map(tuple, answers[KEY + ["answer_type"]].drop_duplicates().to_numpy()))
    assert set(map(tuple, summary[KEY + ["answer_type"]].to_numpy())) == from_answers
    assert len(summary) == len(from_answers)


def test_summary_everyQuestion_matchesPandasOracle():
    answers, summary = read("answers.csv"), read("summary.csv")
    runs, steps = read("task_runs.csv"), read("steps.csv")
    by_question = dict(tuple(group) for group in answers.groupby(KEY, sort=False))
    checked_statistics = 0
    for _, row in summary.iterrows():
        key = tuple(row[KEY])
        what = "summary " + "/".join(key)
        rows = by_question[key]
        task_runs = runs[runs["task_id"] == key[0]]
        counts = {
            "n_runs": task_runs["source"].nunique(),
            "n_presented": rows["source"].nunique(),
            "n_answered": rows.loc[rows["status"] == "answered", "source"].nunique(),
            "n_skipped": rows.loc[rows["status"] == "skipped", "source"].nunique(),
            "n_dont_know": rows.loc[rows["status"] == "dont_know", "source"].nunique(),
            "task_n_participants": task_runs.loc[task_runs["participant_id"] != "",
                                                 "participant_id"].nunique(),
        }
        for column, expected in counts.items():
            assert row[column] == str(expected), f"{what}: {column} {row[column]} != {expected}"
        close(row["complete_rate"], counts["n_answered"] / counts["n_runs"], f"{what}: rate")
        values = numbers_of(rows)
        for column, expected in expected_statistics(values).items():
            close(row[column], expected, f"{what}: {column}")
        checked_statistics += len(values) > 0
        # One answer duration per run: a multiple choice repeats its result's times per value.
        per_run = rows.drop_duplicates("source")
        close(row["answer_duration_median_s"], median_of(per_run["answer_duration_s"]),
              f"{what}: answer_duration_median_s", DURATION_ABS_TOL)
        step_rows = steps[(steps["task_id"] == key[0]) & (steps["step_id"] == key[1])]
        close(row["step_duration_median_s"], median_of(step_rows["step_duration_s"]),
              f"{what}: step_duration_median_s", DURATION_ABS_TOL)
        close(row["step_duration_p90_s"], median_of(step_rows["step_duration_s"], 90),
              f"{what}: step_duration_p90_s", DURATION_ABS_TOL)
        close(row["task_duration_median_s"], median_of(task_runs["task_duration_s"]),
              f"{what}: task_duration_median_s", DURATION_ABS_TOL)
    # age, temperature, pain_level/onset/duration, dates of the study; Bridge numbers, birthyear
    # and best_day of the other samples.
    assert checked_statistics >= 7


def test_summary_handComputed_eligibilityAge():
    # The ten eligibility ages in answers.csv, sorted: 25 27 31 31 54 57 58 73 80 89 (sum 525).
    # By hand: mean 52.5; median (54 + 57) / 2 = 55.5; type-7 quartiles at positions 2.25 and
    # 6.75: 31 + 0.25 * 0 = 31 and 58 + 0.75 * 15 = 69.25. The sd from the statistics module.
    import statistics
    ages = [25, 27, 31, 31, 54, 57, 58, 73, 80, 89]
    answers = read("answers.csv")
    read_ages = answers.loc[(answers["task_id"] == "eligibility") & (answers["item_id"] == "age")
                            & (answers["status"] == "answered"), "value_number"]
    assert sorted(float(v) for v in read_ages) == ages
    row = read("summary.csv").set_index(KEY).loc[("eligibility", "age", "age")]
    assert (row["n_runs"], row["n_answered"], row["min"], row["max"]) == ("10", "10", "25", "89")
    assert (float(row["mean"]), float(row["median"])) == (52.5, 55.5)
    assert (float(row["p25"]), float(row["p75"])) == (31.0, 69.25)
    assert math.isclose(float(row["sd"]), statistics.stdev(ages), rel_tol=REL_TOL)


# MARK: - choices.csv

def defined_options():
    """(item_id) → options of the SurveyNative definition's select questions, in order."""
    with open(SAMPLES / "surveynative" / "lifestyle.json", encoding="utf-8") as handle:
        definition = json.load(handle)
    options = {}
    for question in definition["questions"]:
        kind = question.get("question_type")
        texts = [o for o in question.get("options", []) if isinstance(o, str)]
        if kind in ("single_select", "multi_select"):
            options[question["id"]] = texts
        elif kind == "segment_select":
            options[question["id"]] = [str(value) for value in question["values"]]
        elif kind == "table_select":
            for sub in question["table_questions"]:
                options[f"{question['id']}.{sub['id']}"] = texts
    return options


def test_choices_everyOption_countsAnsweredRuns():
    answers, choices, summary = read("answers.csv"), read("choices.csv"), read("summary.csv")
    answered = answers[(answers["status"] == "answered")
                       & answers["answer_type"].isin(["choice", "boolean"])]
    kinds = summary.set_index(KEY)["answer_type"]
    choice_questions = {key for key, kind in kinds.items() if kind in ("choice", "boolean")}
    listed = {tuple(key) for key in choices[KEY].drop_duplicates().to_numpy()}
    assert listed == choice_questions
    n_answered = summary.set_index(KEY)["n_answered"].astype(int)
    for key, group in choices.groupby(KEY, sort=False):
        what = "choices " + "/".join(key)
        rows = answered[(answered[KEY] == list(key)).all(axis=1)]
        counts = rows.drop_duplicates(["source", "value"])["value"].value_counts()
        options = list(group["option"])
        assert len(options) == len(set(options)), f"{what}: repeated option"
        assert set(counts.index) <= set(options), f"{what}: chosen values missing"
        for _, row in group.iterrows():
            expected = int(counts.get(row["option"], 0))
            assert row["count"] == str(expected), f"{what} {row['option']}: {row['count']}"
            close(row["percent"], 100 * expected / n_answered[key], f"{what} {row['option']} %")
        if kinds[key] == "boolean":
            assert options == ["true", "false"], f"{what}: both answers listed, even at 0"


@NEEDS_ALL_SAMPLES
def test_choices_surveyDefinition_listsEveryOptionInOrder():
    choices = read("choices.csv")
    lifestyle = choices[choices["task_id"] == "lifestyle"]
    for item_id, options in defined_options().items():
        listed = list(lifestyle.loc[lifestyle["item_id"] == item_id, "option"])
        # Defined options first, in the definition's order, zero counts included; then any
        # "Other" text typed in.
        assert listed[:len(options)] == options, f"lifestyle/{item_id}: {listed}"
    zero = lifestyle[lifestyle["count"] == "0"]
    assert ("ice_cream", "Strawberry") in set(zip(zero["item_id"], zero["option"]))
    assert ("happiness", "1") in set(zip(zero["item_id"], zero["option"]))


@pytest.mark.parametrize("item_id, expected", [
    # Hand count of symptom/headache_severity in answers.csv: severities 1 1 1 1 2 3 3 3 3.
    ("headache_severity", {"1": 4, "2": 1, "3": 4}),
])
def test_choices_handCounted_symptomTask(item_id, expected):
    choices = read("choices.csv")
    rows = choices[(choices["task_id"] == "symptom") & (choices["item_id"] == item_id)]
    assert dict(zip(rows["option"], rows["count"].astype(int))) == expected
