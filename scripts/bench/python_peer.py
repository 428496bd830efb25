#!/usr/bin/env python3
"""The pipeline a researcher would write instead of rkexport: plistlib + a UID resolver + pandas.

Reads every NSKeyedArchiver archive below a folder (and inside zips there, read with zipfile; a
zip counts as a folder for the participant id, as in rkexport), walks ORKTaskResult -> ORKStepResult ->
question results, and writes answers.csv, steps.csv and task_runs.csv (and results.xlsx with
XlsxWriter when --xlsx is given). Kept honest and reasonably efficient: one pass per file, a
memo table for shared objects, pandas only for the final tables. It is the benchmark's peer.
"""
import argparse
import datetime as dt
import os
import plistlib
import sys
import zipfile

import pandas as pd

EPOCH_2001 = dt.datetime(2001, 1, 1, tzinfo=dt.timezone.utc)
LEGACY_KEYS = ["booleanAnswer", "choiceAnswers", "scaleAnswer", "textAnswer", "numericAnswer",
               "dateComponentsAnswer", "intervalAnswer", "dateAnswer", "locationAnswer",
               "componentsAnswer", "rungPicked"]
TYPES = {"ORKBooleanQuestionResult": "boolean", "ORKChoiceQuestionResult": "choice",
         "ORKScaleQuestionResult": "scale", "ORKNumericQuestionResult": "numeric",
         "ORKTextQuestionResult": "text", "ORKDateQuestionResult": "date",
         "ORKTimeOfDayQuestionResult": "time_of_day",
         "ORKTimeIntervalQuestionResult": "time_interval",
         "ORKLocationQuestionResult": "location",
         "ORKMultipleComponentQuestionResult": "multiple_component",
         "ORKSESQuestionResult": "ses"}


class Archive:
    def __init__(self, data):
        plist = plistlib.loads(data)
        self.objects = plist["$objects"]
        self.root = plist["$top"]["root"]
        self.memo = {}

    def get(self, ref):
        if isinstance(ref, plistlib.UID):
            return None if ref.data == 0 else self.objects[ref.data]
        return ref

    def classname(self, obj):
        return self.objects[obj["$class"].data]["$classname"] if isinstance(obj, dict) else None

    def value(self, ref):
        """Plain Python value of a Foundation object."""
        obj = self.get(ref)
        if not isinstance(obj, dict):
            return obj
        name = self.classname(obj)
        if name == "NSDate":
            return EPOCH_2001 + dt.timedelta(seconds=obj["NS.time"])
        if name in ("NSArray", "NSMutableArray", "NSSet", "NSMutableSet"):
            return [self.value(r) for r in obj["NS.objects"]]
        if name == "NSUUID":
            return obj["NS.uuidbytes"].hex().upper()
        if name == "NSDecimalNumber":
            words = obj["NS.mantissa"]
            mantissa = int.from_bytes(words[: 2 * obj["NS.length"]], "little")
            value = mantissa * (10 ** obj["NS.exponent"]) if obj["NS.exponent"] >= 0 \
                else mantissa / (10 ** -obj["NS.exponent"])
            return -value if obj["NS.negative"] else value
        if name in ("NSString", "NSMutableString"):
            return obj.get("NS.string")
        if name == "NSDateComponents":
            return "%02d:%02d" % (obj.get("NS.hour", 0), obj.get("NS.minute", 0))
        if name in ("ORKDontKnowAnswer", "ORKNoAnswer"):
            return "__dont_know__"
        return obj


def iso(value):
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (value.microsecond // 1000) \
        if isinstance(value, dt.datetime) else ""


def export_file(path, rel, answers, steps, runs):
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as entries:
            for info in entries.infolist():
                if info.is_dir() or any(part.startswith(".") for part in info.filename.split("/")):
                    continue
                export_archive(entries.read(info), rel + "!/" + info.filename, answers, steps,
                               runs)
        return
    with open(path, "rb") as handle:
        export_archive(handle.read(), rel, answers, steps, runs)


def export_archive(data, rel, answers, steps, runs):
    archive = Archive(data)
    root = archive.get(archive.root)
    tasks = [archive.get(r) for r in root["NS.objects"]] \
        if archive.classname(root) in ("NSArray", "NSMutableArray") else [root]
    folders = rel.replace("!/", "/").split("/")[:-1]
    participant = folders[0] if folders else ""
    for task in tasks:
        task_id = archive.value(task["identifier"])
        run_uuid = archive.value(task.get("taskRunUUID"))
        start, end = archive.value(task["startDate"]), archive.value(task["endDate"])
        step_list = archive.value(task["results"]) or []
        runs.append((participant, task_id, run_uuid, iso(start), iso(end),
                     (end - start).total_seconds(), len(step_list), rel))
        for index, step in enumerate(step_list, 1):
            s_start, s_end = archive.value(step["startDate"]), archive.value(step["endDate"])
            step_id = archive.value(step["identifier"])
            steps.append((participant, task_id, run_uuid, index, step_id, iso(s_start),
                          iso(s_end), (s_end - s_start).total_seconds(), rel))
            for result in archive.value(step["results"]) or []:
                cls = archive.classname(result)
                answer = archive.value(result["typedAnswerOrNoAnswer"]) \
                    if "typedAnswerOrNoAnswer" in result else None
                if answer is None:
                    for key in LEGACY_KEYS:
                        if key in result:
                            answer = archive.value(result[key])
                            break
                r_start, r_end = archive.value(result["startDate"]), archive.value(result["endDate"])
                base = (participant, task_id, run_uuid, step_id, archive.value(result["identifier"]),
                        TYPES.get(cls, "other"))
                timing = (iso(r_start), iso(r_end), (r_end - r_start).total_seconds(), rel)
                if answer is None or answer == []:
                    answers.append(base + ("skipped", 1, None, None, None) + timing)
                elif answer == "__dont_know__":
                    answers.append(base + ("dont_know", 1, None, None, None) + timing)
                else:
                    values = answer if isinstance(answer, list) else [answer]
                    for i, v in enumerate(values, 1):
                        number = v if isinstance(v, (int, float)) and not isinstance(v, bool) \
                            else (int(v) if isinstance(v, bool) else None)
                        text = iso(v) if isinstance(v, dt.datetime) else \
                            ("true" if v is True else "false" if v is False else v)
                        answers.append(base + ("answered", i, text, number,
                                               iso(v) if isinstance(v, dt.datetime) else None)
                                       + timing)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("input")
    parser.add_argument("--out", required=True)
    parser.add_argument("--xlsx", action="store_true")
    args = parser.parse_args()
    answers, steps, runs, failed = [], [], [], 0
    paths = []
    for folder, dirs, files in os.walk(args.input):
        dirs.sort()
        paths += [os.path.join(folder, f) for f in sorted(files) if not f.startswith(".")]
    for path in paths:
        rel = os.path.relpath(path, args.input)
        try:
            export_file(path, rel, answers, steps, runs)
        except Exception as error:  # a researcher's script logs and goes on
            failed += 1
            print(f"{rel}: {error}", file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    tables = {
        "answers": pd.DataFrame(answers, columns=[
            "participant_id", "task_id", "task_run_uuid", "step_id", "item_id", "answer_type",
            "status", "value_index", "value", "value_number", "value_datetime", "answer_start",
            "answer_end", "answer_duration_s", "source"]),
        "steps": pd.DataFrame(steps, columns=[
            "participant_id", "task_id", "task_run_uuid", "step_index", "step_id", "step_start",
            "step_end", "step_duration_s", "source"]),
        "task_runs": pd.DataFrame(runs, columns=[
            "participant_id", "task_id", "task_run_uuid", "task_start", "task_end",
            "task_duration_s", "n_steps", "source"]),
    }
    for name, frame in tables.items():
        frame.to_csv(os.path.join(args.out, name + ".csv"), index=False)
    if args.xlsx:
        with pd.ExcelWriter(os.path.join(args.out, "results.xlsx"), engine="xlsxwriter") as writer:
            for name, frame in tables.items():
                frame.to_excel(writer, sheet_name=name, index=False)
    print(f"peer: {len(paths)} files, {failed} failed, {len(runs)} runs, {len(answers)} answers",
          file=sys.stderr)


if __name__ == "__main__":
    main()
