"""`results.xlsx` read back with openpyxl against the CSVs of the same export: the same sheets,
every cell the same value with the type a spreadsheet user expects (numbers as numbers, instants
as real dates, booleans as TRUE/FALSE, identifiers as text, empty as empty), frozen headers,
filters, and one chart per choice question over that question's rows of the choices sheet.

Run after `rkexport ... --xlsx --out $RKEXPORT_OUT` (scripts/test does).
"""

import datetime
import math
import re
import zipfile

import pytest
from openpyxl.utils import get_column_letter

from exported import (IDENTIFIER_COLUMNS, LEADING_SHEETS, NEEDS_ALL_SAMPLES, NEEDS_EXPORT,
                      OUT, TRAILING_SHEETS, field_types, parse_instant, read_csv, sheet_values,
                      to_millis, wide_tables, workbook)

pytestmark = NEEDS_EXPORT
TABLES = {name: f"{name}.csv" for name in ["summary", "choices", "answers", "steps", "task_runs",
                                           "inputs", "codebook"]}
TABLES.update({task: f"wide/{task}.csv" for task in wide_tables()})
# Number cells hold the shortest text that reads back as the same double, as the CSV does
# (not libxlsxwriter's printf %.16G, one digit short: 39.074999999999996 read back as 39.075),
# so a number cell equals the CSV's number exactly.
# Durations (columns ending in `_s`): the CSV rounds them to the millisecond (design.md §4), the
# workbook holds the same millisecond-rounded value (test_durations_workbook_roundedToTheMillisecondLikeCsv).
DURATION_ABS_TOL = 0.0005 + 1e-9


def expected_kind(column, schema_type, row):
    """What a cell of `column` must hold in the workbook: "text", "number", "bool" or "date"."""
    if column in IDENTIFIER_COLUMNS:
        return "text"
    if column == "value" and "answer_type" in row:
        return answer_value_kind(row)
    return {"number": "number", "integer": "number", "boolean": "bool",
            "datetime": "date"}.get(schema_type, "text")


def answer_value_kind(row):
    """answers.csv `value` holds every answer type; design.md §4's encoding says which is which."""
    kind = row["answer_type"]
    if kind == "boolean":
        return "bool"
    if kind in ("numeric", "scale", "time_interval"):
        return "number"
    if kind == "choice":
        return "number" if row["value_number"] else "text"
    if kind == "date":
        # Date-only questions keep the local date as text; date-and-time ones are instants.
        return "date" if parse_instant(row["value"]) else "text"
    return "text"


def check_cell(text, cell, kind, what):
    value = cell.value
    if text == "":
        assert value is None, f"{what}: empty in the CSV, {value!r} in the workbook"
        return
    if kind == "text":
        assert isinstance(value, str) and value == text, f"{what}: {value!r} != text {text!r}"
    elif kind == "bool":
        assert text in ("true", "false"), f"{what}: boolean column holds {text!r}"
        assert value is (text == "true"), f"{what}: {value!r} != {text}"
    elif kind == "date":
        instant = parse_instant(text)
        assert instant is not None, f"{what}: {text!r} is not an ISO 8601 instant"
        assert isinstance(value, datetime.datetime), f"{what}: {value!r} is not an Excel date"
        assert to_millis(value) == to_millis(instant), f"{what}: {value} != {text}"
    else:
        check_number(text, value, what)


def check_number(text, value, what, abs_tol=0.0):
    assert isinstance(value, (int, float)) and not isinstance(value, bool), \
        f"{what}: {value!r} is not a number (CSV {text!r})"
    expected = float(text)
    if abs_tol == 0.0:
        assert value == expected, f"{what}: {value!r} != {text}"
    else:
        assert math.isclose(value, expected, rel_tol=0.0, abs_tol=abs_tol), \
            f"{what}: {value!r} != {text}"


# MARK: - sheets and their layout

def test_workbook_zipEntries_deflatedSuperFastAndIntact():
    """The default `--xlsx-compression fast`: every part deflated at zlib's fastest level,
    which minizip records in the entry's flag bits (APPNOTE 4.4.4: bits 1 and 2 set), and every
    part inflates to bytes matching its CRC-32 (Python's zipfile and zlib, not ours)."""
    with zipfile.ZipFile(OUT / "results.xlsx") as archive:
        entries = archive.infolist()
        assert len(entries) > 5
        for entry in entries:
            assert entry.compress_type == zipfile.ZIP_DEFLATED, entry.filename
            assert entry.flag_bits & 0b110 == 0b110, entry.filename
        assert archive.testzip() is None


def test_workbook_sheetNames_summaryFirstWideTablesThenCodebookAndCharts():
    expected = LEADING_SHEETS + wide_tables() + TRAILING_SHEETS
    assert workbook().sheetnames == expected


@pytest.mark.parametrize("sheet", sorted(TABLES))
def test_sheet_layout_frozenHeaderAndFilterOverTheTable(sheet):
    header, rows = read_csv(TABLES[sheet])
    worksheet = workbook()[sheet]
    assert worksheet.freeze_panes == "A2", f"{sheet}: header row not frozen"
    last = f"{get_column_letter(len(header))}{len(rows) + 1}"
    assert worksheet.auto_filter.ref == f"A1:{last}", f"{sheet}: autofilter"
    assert all(cell.font.b for cell in worksheet[1]), f"{sheet}: header not bold"


# MARK: - every cell

@pytest.mark.parametrize("sheet", sorted(TABLES))
def test_sheet_everyCell_equalsCsvWithSpreadsheetTypes(sheet):
    header, rows = read_csv(TABLES[sheet])
    cells = sheet_values(sheet)
    assert [cell.value for cell in cells[0]] == header, f"{sheet}: header row"
    assert len(cells) == len(rows) + 1, f"{sheet}: {len(cells) - 1} rows, CSV has {len(rows)}"
    types = field_types(TABLES[sheet])
    for number, (row, sheet_row) in enumerate(zip(rows, cells[1:]), start=2):
        assert len(sheet_row) == len(header), f"{sheet} row {number}: width"
        record = dict(zip(header, row))
        for column, text, cell in zip(header, row, sheet_row):
            kind = expected_kind(column, types.get(column), record)
            what = f"{sheet}!{cell.coordinate} ({column})"
            if kind == "number" and column.endswith("_s") and text:
                check_number(text, cell.value, what, abs_tol=DURATION_ABS_TOL)
            else:
                check_cell(text, cell, kind, what)


def test_instantColumns_everyInstant_isExcelDateWithMilliseconds():
    checked = 0
    for sheet, relative in TABLES.items():
        header, rows = read_csv(relative)
        cells = sheet_values(sheet)
        for index, column in enumerate(header):
            texts = [row[index] for row in rows if row[index]]
            if not texts or not all(parse_instant(text) for text in texts):
                continue
            for row, sheet_row in zip(rows, cells[1:]):
                cell = sheet_row[index]
                if row[index] == "":
                    continue
                assert cell.is_date, f"{sheet}!{cell.coordinate}: not a date cell"
                # Shown as a date and time with milliseconds, not a day serial.
                assert "yy" in cell.number_format and ".000" in cell.number_format, \
                    f"{sheet}!{cell.coordinate}: number format {cell.number_format!r}"
                assert to_millis(cell.value) == to_millis(parse_instant(row[index]))
                checked += 1
    # answers, steps, task_runs and the archive-backed wide tables all hold instants.
    assert checked > 1000


def test_durations_workbook_roundedToTheMillisecondLikeCsv():
    for sheet in ["task_runs", "steps", "answers", "summary"]:
        header, rows = read_csv(TABLES[sheet])
        cells = sheet_values(sheet)
        for index, column in enumerate(header):
            if not column.endswith("_s"):
                continue
            for row, sheet_row in zip(rows, cells[1:]):
                if row[index]:
                    assert sheet_row[index].value == float(row[index]), \
                        f"{sheet}!{sheet_row[index].coordinate}"


@NEEDS_ALL_SAMPLES
def test_identifiers_lookingLikeNumbers_stayText():
    answers = sheet_values("answers")
    header = [cell.value for cell in answers[0]]
    participants = {row[header.index("participant_id")].value for row in answers[1:]}
    assert {"P001", "P010", "P011", "P021"} <= participants
    # Typed digits of a text question and numeric-looking SurveyNative choices stay text.
    typed = [(row[header.index("answer_type")].value, row[header.index("value")].value)
             for row in answers[1:]]
    assert ("text", "26") in typed
    assert ("text", "=1+1 is what I wrote in the diary") in typed
    uuid = re.compile(r"^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}$")
    runs = sheet_values("task_runs")
    assert all(isinstance(row[2].value, str) and uuid.match(row[2].value) for row in runs[1:])


# MARK: - charts

def choice_questions():
    """(task_id, step_id, item_id) → sheet rows (2-based) of its options, in choices.csv order."""
    _, rows = read_csv("choices.csv")
    questions = {}
    for number, row in enumerate(rows, start=2):
        questions.setdefault(tuple(row[:3]), []).append(number)
    return questions


def chart_title(chart):
    return "".join(run.t for paragraph in chart.title.tx.rich.p for run in paragraph.r or [])


def test_charts_oneBarChartPerChoiceQuestion_overItsChoicesRows():
    charts = workbook()["charts"]._charts
    questions = choice_questions()
    assert len(charts) == len(questions)
    for chart, ((task_id, _, item_id), numbers) in zip(charts, questions.items()):
        title = chart_title(chart)
        assert task_id in title and item_id in title, f"chart {title!r} for {task_id}/{item_id}"
        assert len(chart.series) == 1, title
        series = chart.series[0]
        # libxlsxwriter writes the category reference without a cache, which openpyxl files
        # under numRef; either kind of reference names the same cells.
        categories = series.cat.strRef or series.cat.numRef
        assert categories.f == choices_range("D", numbers), f"{title}: option names"
        assert series.val.numRef.f == choices_range("E", numbers), f"{title}: counts"


def choices_range(column, numbers):
    first, last = numbers[0], numbers[-1]
    if first == last:
        return f"choices!${column}${first}"
    return f"choices!${column}${first}:${column}${last}"
