"""`results.xlsx` looked at as a person does: LibreOffice prints it to PDF, pdftotext reads the
pages and pdftoppm draws the first three. The text must show the headers, instants as dates with
milliseconds (never day serials such as 42507.78), TRUE/FALSE for booleans and the chart titles;
the pictures must not be blank.

Set RKEXPORT_RENDER_DIR to keep the PDF and the PNGs for looking at them.
Skipped when soffice or the poppler tools are not installed (scripts/setup --test installs them).
"""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest

from exported import NEEDS_ALL_SAMPLES, NEEDS_EXPORT, OUT, read_csv

TOOLS = ["soffice", "pdftotext", "pdftoppm"]
pytestmark = [NEEDS_EXPORT, pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in TOOLS),
    reason=f"needs {', '.join(TOOLS)} (LibreOffice and poppler-utils: scripts/setup --test)")]
# Excel day serials of 2015-2024 instants, as a sheet shows them without a date format.
DAY_SERIAL = re.compile(r"\b4[2-5]\d{3}\.\d{2,}\b")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """(PDF path, its text with layout, folder) of the workbook printed by LibreOffice."""
    folder = tmp_path_factory.mktemp("render")
    kept = os.environ.get("RKEXPORT_RENDER_DIR")
    if kept:
        folder = os.path.abspath(kept)
        os.makedirs(folder, exist_ok=True)
    # A profile of its own, so parallel LibreOffice runs on the machine do not share a lock.
    profile = f"-env:UserInstallation=file://{tmp_path_factory.mktemp('lo-profile')}"
    subprocess.run(["soffice", profile, "--headless", "--norestore", "--convert-to", "pdf",
                    "--outdir", str(folder), str(OUT / "results.xlsx")],
                   check=True, capture_output=True, timeout=90)
    pdf = os.path.join(folder, "results.pdf")
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], check=True, capture_output=True,
                          text=True, timeout=30).stdout
    return pdf, text, folder


def csv_numbers():
    """Every number cell of the exported CSVs: a statistic may lie in the day-serial range."""
    numbers = []
    for name in ["summary.csv", "choices.csv", "answers.csv"]:
        _, rows = read_csv(name)
        for row in rows:
            for cell in row:
                try:
                    numbers.append(float(cell))
                except ValueError:
                    pass
    return numbers


def is_csv_number(value):
    return any(abs(number - value) <= 1e-9 * abs(number) for number in csv_numbers())


def test_pdfText_headersDatesAndBooleans_asACoordinatorReadsThem(rendered):
    _, text, _ = rendered
    for header in ["participant_id", "task_id", "task_run_uuid", "answer_start", "complete_rate"]:
        assert header in text, f"header {header} not shown"
    # task_runs.csv's first instant, shown as a date with milliseconds.
    _, runs = read_csv("task_runs.csv")
    instant = next(row[3] for row in runs if row[3])
    shown = instant.replace("T", " ").rstrip("Z")
    assert shown in text, f"{instant} is not shown as {shown}"
    serials = [token for token in DAY_SERIAL.findall(text) if not is_csv_number(float(token))]
    assert not serials, f"dates shown as serials: {serials[:3]}"
    assert re.search(r"\bTRUE\b", text) and re.search(r"\bFALSE\b", text)


@NEEDS_ALL_SAMPLES
def test_pdfText_sampleValues_shownAsWritten(rendered):
    _, text, _ = rendered
    assert "2016-05-17 18:40:47.268" in text  # P001's eligibility run starts then (samples truth)
    assert "P001" in text and "C6003017-EA8D-477D-9192-32626FBC767B" in text
    assert "=1+1 is what I wrote in the diary" in text  # text, not a formula
    # One chart title per choice question; titles read "<task>: <item>".
    _, choices = read_csv("choices.csv")
    for task_id, _, item_id in {tuple(row[:3]) for row in choices}:
        assert f"{task_id}: {item_id}" in text, f"no chart titled {task_id}: {item_id}"


def fever_cells(text):
    """The cells under `fever` on the printed fever sheet, one per run, in sheet order."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if re.search(r"task_duration_s\s+fever\s+temperature\s*$", line))
    cells = []
    for line in lines[start + 1:]:
        tokens = line.split()
        if len(tokens) < 8 or not re.match(r"^P\d+$", tokens[0]):
            break
        cells.append(tokens[7])  # id, uuid, start date+time, end date+time, duration, fever
    return cells


@NEEDS_ALL_SAMPLES
def test_pdfText_everyFeverBoolean_printedTrueOrFalse(rendered):
    _, text, _ = rendered
    _, rows = read_csv("wide/fever.csv")
    expected = [row[5].upper() for row in rows]
    assert fever_cells(text) == expected


def read_pgm(path):
    with open(path, "rb") as handle:
        data = handle.read()
    magic, width, height, depth = re.match(rb"(P5)\s+(\d+)\s+(\d+)\s+(\d+)\s", data).groups()
    header = len(re.match(rb"P5\s+\d+\s+\d+\s+\d+\s", data).group(0))
    pixels = np.frombuffer(data[header:], dtype=np.uint8)
    return pixels.reshape(int(height), int(width))


def test_firstThreePages_drawnAsPngs_notBlank(rendered):
    pdf, _, folder = rendered
    prefix = os.path.join(folder, "page")
    subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "3", pdf, prefix],
                   check=True, timeout=60)
    pngs = sorted(name for name in os.listdir(folder) if re.match(r"page-\d+\.png$", name))
    assert len(pngs) == 3, pngs
    for name in pngs:
        with open(os.path.join(folder, name), "rb") as handle:
            assert handle.read(8) == b"\x89PNG\r\n\x1a\n", name
    # The same pages in grey, to count ink: a sheet printed blank would be all white.
    subprocess.run(["pdftoppm", "-gray", "-r", "50", "-f", "1", "-l", "3", pdf, prefix],
                   check=True, timeout=60)
    for name in sorted(n for n in os.listdir(folder) if re.match(r"page-\d+\.pgm$", n)):
        pixels = read_pgm(os.path.join(folder, name))
        inked = float((pixels < 200).mean())
        assert inked > 0.005, f"{name}: only {inked:.2%} of the page is drawn"
