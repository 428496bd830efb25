"""The README's "Reading the outputs in R and pandas" snippets, run as a user runs them against the
export: the ```python block with python3, the ```r block with Rscript. Each must exit 0, print the
answered-row and fever counts the csv module finds, and leave its tables typed for analysis
(probes appended after the snippet print the types).

Until README.md has that section, the snippets come from Tests/readback/readme_snippets.md, the
text the README is to carry verbatim.
"""

import csv
import os
import re
import shutil
import subprocess
import sys

import pytest

from contract import REPO
from exported import NEEDS_EXPORT, OUT, read_dicts, unix_seconds

pytestmark = NEEDS_EXPORT
HEADING = "Reading the outputs in R and pandas"
SOURCES = [REPO / "README.md", REPO / "Tests" / "readback" / "readme_snippets.md"]
PYTHON_PROBE = """
import json as _json
print("types:", _json.dumps({
    "value_number": str(answers["value_number"].dtype),
    "answer_start": str(answers["answer_start"].dtype),
    "value": str(answers["value"].dtype),
    "fever": str(fever["fever"].dtype),
    "task_start": str(fever["task_start"].dtype),
}))
print("first start:", answers["answer_start"].dropna().iloc[0].timestamp())
"""
R_PROBE = """
stopifnot(nrow(problems(answers)) == 0, nrow(problems(fever)) == 0)
cat("types:", class(answers$value_number)[1], class(answers$answer_start)[1],
    attr(answers$answer_start, "tzone"), class(answers$value)[1], class(fever$fever)[1], "\\n")
cat("first start:", format(as.numeric(answers$answer_start[!is.na(answers$answer_start)][1]),
    digits = 15), "\\n")
"""


def section(text):
    """The lines under the heading, up to the next heading of the same or a higher level (a `#`
    line inside a fenced block is code, not a heading)."""
    lines, level, fenced = [], None, False
    for line in text.splitlines(keepends=True):
        heading = None if fenced else re.match(r"^(#+)\s+(.*?)\s*$", line)
        if line.startswith("```"):
            fenced = not fenced
        if level is None:
            if heading and heading.group(2) == HEADING:
                level = len(heading.group(1))
            continue
        if heading and len(heading.group(1)) <= level:
            break
        lines.append(line)
    return "".join(lines) if level is not None else None


def snippet(language):
    for source in SOURCES:
        if not source.exists():
            continue
        body = section(source.read_text(encoding="utf-8"))
        if body is None:
            continue
        blocks = re.findall(rf"^```{language}\s*\n(.*?)^```\s*$", body, re.M | re.S)
        assert len(blocks) == 1, f"{source.name}: one ```{language} block under {HEADING!r}"
        # A snippet may name the default folder literally; point it at this export.
        return blocks[0].replace("rkexport-out", str(OUT))
    pytest.fail(f"no {HEADING!r} section in {[str(s) for s in SOURCES]}")


def run(command, code_path):
    environment = dict(os.environ, RKEXPORT_OUT=str(OUT))
    result = subprocess.run(command + [str(code_path)], capture_output=True, text=True,
                            env=environment, timeout=60)
    assert result.returncode == 0, f"{command[0]} exited {result.returncode}:\n{result.stderr}"
    return result.stdout


def expected_counts():
    answered = sum(row["status"] == "answered" for row in read_dicts("answers.csv"))
    fever = read_dicts("wide/fever.csv")
    with_fever = sum(row["fever"] == "true" for row in fever)
    return answered, len(fever), with_fever


def printed(stdout, label):
    match = re.search(rf"^{re.escape(label)}\s*(.*?)\s*$", stdout, re.M)
    assert match, f"no line {label!r} in:\n{stdout}"
    return match.group(1)


def check_counts(stdout):
    answered, runs, with_fever = expected_counts()
    assert int(printed(stdout, "answered rows:")) == answered
    assert printed(stdout, "fever runs:").split() == [str(runs), "with", "fever:", str(with_fever)]


def first_answer_start():
    return next(unix_seconds(row["answer_start"]) for row in read_dicts("answers.csv")
                if row["answer_start"])


def test_pythonSnippet_againstExport_printsCountsAndTypesForAnalysis(tmp_path):
    script = tmp_path / "snippet.py"
    script.write_text(snippet("python") + PYTHON_PROBE, encoding="utf-8")
    stdout = run([sys.executable], script)
    check_counts(stdout)
    types = eval(printed(stdout, "types:"), {"true": True, "false": False})  # JSON object
    assert types["value_number"] == "float64"
    assert types["answer_start"].startswith("datetime64[") and "UTC" in types["answer_start"]
    assert types["task_start"].startswith("datetime64[") and "UTC" in types["task_start"]
    assert types["fever"] == "bool"
    assert types["value"] in ("object", "str", "string")
    assert abs(float(printed(stdout, "first start:")) - first_answer_start()) < 1e-6


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="Rscript not installed "
                    "(scripts/setup --test installs R and readr)")
def test_rSnippet_againstExport_printsCountsAndTypesForAnalysis(tmp_path):
    script = tmp_path / "snippet.R"
    script.write_text(snippet("r") + R_PROBE, encoding="utf-8")
    stdout = run(["Rscript", "--vanilla"], script)
    check_counts(stdout)
    assert printed(stdout, "types:").split() == ["numeric", "POSIXct", "UTC", "character",
                                                  "logical"]
    assert abs(float(printed(stdout, "first start:")) - first_answer_start()) < 1e-6


def export_with_typed_na(folder):
    """A copy of answers.csv and wide/fever.csv where the first answered text reads "NA"."""
    (folder / "wide").mkdir()
    shutil.copy(OUT / "wide" / "fever.csv", folder / "wide" / "fever.csv")
    rows = read_dicts("answers.csv")
    first = next(row for row in rows if row["answer_type"] == "text" and row["value"])
    first["value"] = "NA"
    with open(folder / "answers.csv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return sum(row["value"] == "" for row in rows)


@pytest.mark.parametrize("language", ["python", "r"])
def test_snippets_typedNA_staysTextOnlyEmptyIsMissing(tmp_path, language):
    if language == "r" and shutil.which("Rscript") is None:
        pytest.skip("Rscript not installed")
    folder = tmp_path / "export"
    folder.mkdir()
    empty = export_with_typed_na(folder)
    code = snippet(language).replace(str(OUT), str(folder))
    if language == "python":
        probe = ('print("value NA:", int((answers["value"] == "NA").sum()),'
                 ' int(answers["value"].isna().sum()))\n')
        command = [sys.executable]
    else:
        probe = ('cat("value NA:", sum(answers$value == "NA", na.rm = TRUE),'
                 ' sum(is.na(answers$value)), "\\n")\n')
        command = ["Rscript", "--vanilla"]
    script = tmp_path / ("snippet.py" if language == "python" else "snippet.R")
    script.write_text(code + "\n" + probe, encoding="utf-8")
    environment = dict(os.environ, RKEXPORT_OUT=str(folder))
    result = subprocess.run(command + [str(script)], capture_output=True, text=True,
                            env=environment, timeout=60)
    assert result.returncode == 0, result.stderr
    assert printed(result.stdout, "value NA:").split() == ["1", str(empty)]
