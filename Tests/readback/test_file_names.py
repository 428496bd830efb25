"""File and folder names that are not valid UTF-8 (Linux allows any bytes): each input is read
and named in inputs.csv and `source` with its bad bytes as U+EF00 + byte (README, "File names").
The expected names are worked out here from Python's own UTF-8 decoder (surrogateescape marks
each byte it cannot decode), not from rkexport's code.
"""

import csv
import os
import re
import shutil
import subprocess

import pytest

from contract import REPO, SAMPLES

BINARY = os.environ.get("RKEXPORT_BIN")
ARCHIVE = SAMPLES / "study" / "P001" / "fever-20160525-1028.archive"


def expected_name(raw: bytes) -> str:
    """The name rkexport should show for the bytes `raw`."""
    text = raw.decode("utf-8", "surrogateescape")
    shown = []
    for char in text:
        if 0xDC80 <= ord(char) <= 0xDCFF:  # a byte Python could not decode
            shown.append(chr(0xEF00 + ord(char) - 0xDC00))
        elif 0xEF80 <= ord(char) <= 0xEFFF:  # the mapped range itself: its bytes, mapped
            shown.extend(chr(0xEF00 + byte) for byte in char.encode("utf-8"))
        else:
            shown.append(char)
    return "".join(shown)


@pytest.mark.skipif(not BINARY, reason="set RKEXPORT_BIN to the rkexport binary")
def test_export_namesNotUTF8_everyFileReadAndNamedApart(tmp_path):
    root = bytes(tmp_path) + b"/in"
    # Latin-1 names (two that a decoder repairing to U+FFFD would merge), a Latin-1 folder,
    # a name holding a character of the mapped range, and a plain one.
    names = [b"P\xe9/caf\xe9.archive", b"P\xe9/caf\xe8.archive", b"P\xe9/\xee\xbe\x80.archive",
             b"P\xe9/plain.archive"]
    for name in names:
        path = root + b"/" + name
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(ARCHIVE, path)
    out = tmp_path / "out"
    # The root too is given by bytes (Python passes them to exec as they are).
    result = subprocess.run([BINARY.encode(), root + b"/P\xe9", b"--out", bytes(out), b"--quiet"],
                            capture_output=True)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")

    with open(out / "inputs.csv", newline="", encoding="utf-8") as handle:
        inputs = list(csv.DictReader(handle))
    expected = sorted(expected_name(name.split(b"/", 1)[1]) for name in names)
    assert sorted(row["path"] for row in inputs) == expected
    assert len(set(expected)) == len(names)
    assert all(row["status"] == "ok" and row["answers"] == "1" for row in inputs), inputs

    with open(out / "task_runs.csv", newline="", encoding="utf-8") as handle:
        sources = sorted(row["source"] for row in csv.DictReader(handle))
    assert sources == expected

    # The README's recipe turns each path back into the file's name.
    recovered = {recover(row["path"]) for row in inputs}
    assert recovered == {name.split(b"/", 1)[1] for name in names}


@pytest.mark.skipif(not BINARY, reason="set RKEXPORT_BIN to the rkexport binary")
def test_inspectAndKeyFile_namesNotUTF8_read(tmp_path):
    """`rkexport inspect` and `--pseudonymize-key-file` take such names too: the archive is
    shown, and a key file so named pseudonymizes exactly as the same key under a plain name."""
    folder = bytes(tmp_path)
    archive = folder + b"/fi\xe8vre.archive"
    shutil.copyfile(ARCHIVE, archive)
    shown = subprocess.run([BINARY.encode(), b"inspect", archive], capture_output=True)
    assert shown.returncode == 0, shown.stderr.decode("utf-8", "replace")
    assert b"ORKTaskResult" in shown.stdout

    key = b"a key of more than sixteen bytes\n"
    for name in (b"plain.key", b"cl\xe9.key"):
        with open(folder + b"/" + name, "wb") as handle:
            handle.write(key)
    outputs = []
    for number, name in enumerate((b"plain.key", b"cl\xe9.key")):
        out = folder + b"/out-%d" % number
        result = subprocess.run(
            [BINARY.encode(), str(SAMPLES / "study").encode(), b"--out", out, b"--quiet",
             b"--pseudonymize-key-file", folder + b"/" + name], capture_output=True)
        assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
        with open(out + b"/task_runs.csv", encoding="utf-8") as handle:
            outputs.append(handle.read())
    assert outputs[0] == outputs[1]
    assert "P001" not in outputs[0]  # pseudonymized


def recover(path):
    """The README's Python lines that recover a name's bytes (section "Inputs", File names)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"File names:.*?```python\n(.*?)```", readme, re.S)
    assert block, "README.md has no Python recipe under File names"
    scope = {"path": path}
    exec(block.group(1), scope)
    return scope["raw"]
