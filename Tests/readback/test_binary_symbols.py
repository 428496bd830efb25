"""The C shims linked into rkexport (CZipLevel, CXLSXNumbers, CXLSXCells) replace functions
that libxlsxwriter calls through its PLT. They take effect only if the binary exports them to
the dynamic linker; a build that stopped exporting them would still work, only slower (and,
for `__fprintf_chk`, with printf's 16-digit numbers again). Read with binutils' nm, not with
our code.
"""

import os
import shutil
import subprocess

import pytest

BINARY = os.environ.get("RKEXPORT_BIN")
REPLACED = [
    # CZipLevel: the deflate level and block deflate on every core.
    "zipOpenNewFileInZip4_64", "zipWriteInFileInZip", "zipCloseFileInZip", "zipClose",
    # CXLSXNumbers: number cells in shortest round-trip text.
    "__fprintf_chk",
    # CXLSXCells: per-cell and per-row helpers.
    "lxw_rowcol_to_cell", "lxw_has_control_characters", "lxw_escape_data", "lxw_utf8_strlen",
    "lxw_new_attribute_str", "lxw_new_attribute_int", "lxw_xml_start_tag",
    "lxw_xml_empty_tag", "lxw_xml_end_tag",
]


@pytest.mark.skipif(not BINARY or shutil.which("nm") is None,
                    reason="set RKEXPORT_BIN to the rkexport binary; needs binutils' nm")
def test_binary_exports_every_function_it_replaces():
    listing = subprocess.run(["nm", "-D", "--defined-only", BINARY], capture_output=True,
                             text=True, check=True).stdout
    exported = {line.split()[-1] for line in listing.splitlines() if line.strip()}
    missing = [name for name in REPLACED if name not in exported]
    assert not missing, f"{BINARY} does not export {missing}"
