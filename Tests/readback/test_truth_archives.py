"""The ground truth agrees with the archives it describes: each sample archive is decoded here
with plistlib (no Swift, no rkexport) and compared with samples-truth.json. Runs without an export.
"""

import datetime as dt
import plistlib
import uuid

import pytest

from contract import SAMPLES, load_truth

TRUTH = load_truth()
REFERENCE = dt.datetime(2001, 1, 1, tzinfo=dt.timezone.utc)


def iso(ns_time):
    millis = round((ns_time + 978307200) * 1000)
    moment = dt.datetime.fromtimestamp(millis // 1000, dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{millis % 1000:03d}Z"


def uids(value):
    """XML archives spell a UID as {"CF$UID": n} (formats.md §1.2); make it a plistlib.UID."""
    if isinstance(value, dict):
        if list(value) == ["CF$UID"]:
            return plistlib.UID(value["CF$UID"])
        return {key: uids(item) for key, item in value.items()}
    if isinstance(value, list):
        return [uids(item) for item in value]
    return value


class Archive:
    def __init__(self, path):
        with open(path, "rb") as handle:
            self.plist = uids(plistlib.load(handle))
        self.objects = self.plist["$objects"]

    def get(self, ref):
        if isinstance(ref, plistlib.UID):
            return None if ref.data == 0 else self.objects[ref.data]
        return ref

    def class_name(self, obj):
        return self.objects[obj["$class"].data]["$classname"]

    def roots(self):
        root = self.get(self.plist["$top"]["root"])
        if self.class_name(root) == "NSArray":
            return [self.get(ref) for ref in root["NS.objects"]]
        return [root]

    def time(self, obj, key):
        return iso(self.get(obj[key])["NS.time"])


def decimal_text(record):
    raw = record["NS.mantissa"]
    mantissa = sum(int.from_bytes(raw[2 * i:2 * i + 2], "little") << (16 * i)
                   for i in range(record["NS.length"]))
    exponent = record["NS.exponent"]
    digits = str(mantissa)
    while exponent < 0 and digits.endswith("0") and len(digits) > 1:
        digits, exponent = digits[:-1], exponent + 1
    if exponent >= 0:
        text = digits + "0" * exponent
    else:
        digits = digits.rjust(-exponent + 1, "0")
        text = digits[:exponent] + "." + digits[exponent:]
    return ("-" if record["NS.negative"] else "") + text


def answer_values(archive, result):
    """(status, [value texts]) of a question result, read from either layout."""
    layout_key = "typedAnswerOrNoAnswer" if "typedAnswerOrNoAnswer" in result else next(
        key for key in result if key.endswith("Answer") or key == "choiceAnswers")
    answer = archive.get(result[layout_key])
    if answer is None:
        return "skipped", []
    if isinstance(answer, dict) and "$class" in answer:
        name = archive.class_name(answer)
        if name == "ORKDontKnowAnswer":
            return "dont_know", []
        if name == "NSArray":
            values = [str(archive.get(ref)) for ref in answer["NS.objects"]]
            return ("answered" if values else "skipped"), values
        if name == "NSDecimalNumber":
            return "answered", [decimal_text(answer)]
        if name == "NSDateComponents":
            return "answered", [f"{answer['NS.hour']:02d}:{answer['NS.minute']:02d}"]
        if name == "NSDate":
            return "answered", [iso(answer["NS.time"])]
    if isinstance(answer, bool):
        return "answered", ["true" if answer else "false"]
    if isinstance(answer, float) and answer.is_integer():
        return "answered", [str(int(answer))]
    return "answered", [str(answer)]


@pytest.mark.parametrize("run", TRUTH["task_runs"], ids=lambda run: run["source"])
def test_truth_run_matchesArchive(run):
    archive = Archive(SAMPLES / run["file"])
    index = int(run["source"].split("#")[1]) - 1 if "#" in run["source"] else 0
    task = archive.roots()[index]
    assert archive.class_name(task) == "ORKTaskResult"
    assert archive.get(task["identifier"]) == run["task_id"]
    uuid_bytes = archive.get(task["taskRunUUID"])["NS.uuidbytes"]
    assert str(uuid.UUID(bytes=uuid_bytes)).upper() == run["task_run_uuid"]
    assert archive.time(task, "startDate") == run["task_start"]
    assert archive.time(task, "endDate") == run["task_end"]
    assert ("device" in task) == (run["layout"] == "rk3")
    steps = [archive.get(ref) for ref in archive.get(task["results"])["NS.objects"]]
    assert [archive.get(step["identifier"]) for step in steps] == [
        step["step_id"] for step in run["steps"]]
    truth_answers = iter(run["answers"])
    for step, truth_step in zip(steps, run["steps"]):
        assert archive.time(step, "startDate") == truth_step["step_start"]
        assert archive.time(step, "endDate") == truth_step["step_end"]
        for ref in archive.get(step["results"])["NS.objects"]:
            result = archive.get(ref)
            status, values = answer_values(archive, result)
            rows = [next(truth_answers) for _ in range(max(1, len(values)))]
            assert all(row["item_id"] == archive.get(result["identifier"]) for row in rows)
            assert all(row["status"] == status for row in rows)
            assert all(row["answer_start"] == archive.time(result, "startDate") for row in rows)
            for row, value in zip(rows, values):
                if row["answer_type"] == "date":
                    assert row["value_datetime"] == value
                else:
                    assert row["value"] == value
    assert next(truth_answers, None) is None
