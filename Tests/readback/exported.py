"""Readers shared by the read-back tests of a whole export (XLSX, statistics, data package,
README snippets, LibreOffice rendering): the output folder, CSV text as written, instants, the
workbook and the data package, each read once.

None of this reuses product code: CSV through Python's csv module, instants through datetime,
the workbook through openpyxl, the data package as plain JSON.
"""

import csv
import datetime
import functools
import json
import re

import pytest

from contract import output_dir

OUT = output_dir()
NEEDS_EXPORT = pytest.mark.skipif(OUT is None,
                                  reason="set RKEXPORT_OUT to an rkexport output folder")
# Tests pinned to particular sample values need the export scripts/test makes: samples/study,
# samples/bridge-upload and samples/surveynative with lifestyle.json as the survey definition.
NEEDS_ALL_SAMPLES = pytest.mark.skipif(
    OUT is None or not (OUT / "wide" / "lifestyle.csv").exists()
    or not (OUT / "wide" / "SleepCheck.csv").exists(),
    reason="needs the export of all three sample roots, as scripts/test makes it")

INSTANT = re.compile(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})Z$")
# Sheets the export writes besides one per wide table (design.md §4), in workbook order.
LEADING_SHEETS = ["summary", "choices", "answers", "steps", "task_runs", "inputs"]
TRAILING_SHEETS = ["codebook", "charts"]
# Columns that name things: they must stay text in the workbook whatever they look like.
IDENTIFIER_COLUMNS = {"participant_id", "task_id", "task_run_uuid", "step_id", "item_id",
                      "source", "path", "option"}


@functools.lru_cache(maxsize=None)
def read_csv(relative):
    """(header, rows as lists of text) of an output CSV, exactly as written."""
    with open(OUT / relative, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


def read_dicts(relative):
    header, rows = read_csv(relative)
    return [dict(zip(header, row)) for row in rows]


def wide_tables():
    """Task ids with a wide table, in code-point order of the file names."""
    if OUT is None:
        return []
    return sorted(path.stem for path in (OUT / "wide").glob("*.csv"))


def parse_instant(text):
    """A `2016-05-17T18:40:47.268Z` instant as a naive UTC datetime, None when not one."""
    match = INSTANT.match(text)
    if match is None:
        return None
    year, month, day, hour, minute, second, millis = (int(part) for part in match.groups())
    return datetime.datetime(year, month, day, hour, minute, second, millis * 1000)


def to_millis(moment):
    """Milliseconds since 1970 of a naive datetime, rounded (openpyxl rebuilds datetimes from
    Excel's day fractions, which land a few microseconds off)."""
    delta = moment - datetime.datetime(1970, 1, 1)
    return round(delta / datetime.timedelta(milliseconds=1))


def unix_seconds(text):
    """Seconds since 1970-01-01T00:00:00Z of an ISO 8601 instant."""
    return to_millis(parse_instant(text)) / 1000


@functools.lru_cache(maxsize=None)
def workbook():
    import openpyxl  # Imported here so tests skipped for a missing export do not need it.
    return openpyxl.load_workbook(OUT / "results.xlsx")


def sheet_values(name):
    """The workbook sheet as rows of openpyxl cells."""
    return [list(row) for row in workbook()[name].iter_rows()]


@functools.lru_cache(maxsize=None)
def data_package():
    with open(OUT / "datapackage.json", encoding="utf-8") as handle:
        return json.load(handle)


def field_types(relative):
    """Column name → Table Schema type of the data package resource at `relative`."""
    for resource in data_package()["resources"]:
        if resource["path"] == relative:
            return {field["name"]: field["type"] for field in resource["schema"]["fields"]}
    pytest.fail(f"datapackage.json has no resource for {relative}")
