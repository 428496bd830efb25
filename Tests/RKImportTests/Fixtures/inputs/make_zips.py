"""Regenerates the zip fixtures from the folders beside this script (deterministic: fixed
timestamps). Run from this folder: python3 make_zips.py"""
import io
import os
import struct
import zipfile
import zlib

STAMP = (2017, 3, 1, 12, 0, 0)


def add(zf, name, data, compress=zipfile.ZIP_DEFLATED):
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = compress
    info.external_attr = 0o644 << 16
    info.create_system = 3  # unix, so entry types come from the mode bits
    zf.writestr(info, data)


def folder_entries(zf, folder, prefix=""):
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            add(zf, prefix + name, f.read())


def build(path, fill):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        fill(zf)
    data = buf.getvalue()
    if path:
        with open(path, "wb") as f:
            f.write(data)
    return data


submission = open("surveynative/P002/submission-2017-03-02.json", "rb").read()

build("zip-bridge-upload.zip", lambda zf: folder_entries(zf, "bridge-appcore-v1"))


def onedown(zf):
    folder_entries(zf, "bridge-ruxf-v1", "upload7/")
    add(zf, "readme.txt", b"Exported uploads\n")


build("zip-bridge-onedown.zip", onedown)


def mixed(zf):
    add(zf, "P001/", b"")
    add(zf, "P001/submission.json", submission)
    add(zf, "P001/photo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 16, zipfile.ZIP_STORED)
    add(zf, "notes.txt", b"Participant P001 used a loaner phone.\n")
    add(zf, "__MACOSX/P001/._submission.json", b"\x00\x05\x16\x07")
    add(zf, "../evil.json", submission)
    add(zf, "/abs.json", submission)


build("zip-mixed.zip", mixed)

upload = build(None, lambda zf: folder_entries(zf, "bridge-appcore-v1"))
answers = build(None, lambda zf: add(zf, "P005/s.json", submission))
deepest = build(None, lambda zf: add(zf, "x.json", submission))
middle = build(None, lambda zf: add(zf, "deepest.zip", deepest))


def nested(zf):
    add(zf, "batch/upload1.zip", upload)
    add(zf, "batch/answers.zip", answers)
    add(zf, "deeper.zip", middle)


build("zip-nested.zip", nested)
build("zip-bomb.zip", lambda zf: add(zf, "bomb.json", b"\x00" * (20 << 20)))

# One entry whose headers claim 100 bytes but whose deflate stream holds 2 MiB of spaces.
big = b" " * (2 << 20)
lying = bytearray(build(None, lambda zf: add(zf, "lying.json", big)))
for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
    at = lying.find(signature)
    lying[at + offset : at + offset + 4] = struct.pack("<I", 100)
open("zip-lying-size.zip", "wb").write(bytes(lying))

# Mark the only entry as encrypted (general purpose flag bit 0) in both headers.
enc = bytearray(build(None, lambda zf: add(zf, "secret.json", submission, zipfile.ZIP_STORED)))
for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
    at = enc.find(signature)
    enc[at + offset] |= 1
open("zip-encrypted.zip", "wb").write(bytes(enc))

whole = build(None, lambda zf: add(zf, "a.json", submission))
open("zip-truncated.zip", "wb").write(whole[: len(whole) // 2])

crc = bytearray(build(None, lambda zf: add(zf, "a.json", submission, zipfile.ZIP_STORED)))
at = crc.find(b"Chocolate")
crc[at] = ord("c")
open("zip-bad-crc.zip", "wb").write(bytes(crc))

# Entry types as each system records them, for the reader's own reading of names and types:
# Unix modes (file, folder, link, none), MS-DOS attributes, other systems by a trailing slash,
# and names that are not printable ASCII (a control character, DEL, UTF-8 with its flag).
def typed(zf, name, system, attributes, data=b"x", utf8=False):
    info = zipfile.ZipInfo(name, STAMP)
    info.create_system = system
    info.external_attr = attributes
    if utf8:
        info.flag_bits |= 0x800
    zf.writestr(info, data)


def entry_types(zf):
    typed(zf, "unix/file.json", 3, 0o100644 << 16)
    typed(zf, "unix/folder/", 3, 0o040755 << 16, b"")
    typed(zf, "unix/link", 3, 0o120777 << 16, b"file.json")
    typed(zf, "unix/no-mode", 3, 0)
    typed(zf, "unix/no-mode-folder/", 3, 0, b"")
    typed(zf, "dos/FILE.TXT", 0, 0x20)
    typed(zf, "dos/FOLDER", 0, 0x10, b"")
    typed(zf, "dos/SLASH/", 0, 0, b"")
    typed(zf, "ntfs/file.json", 11, 0)
    typed(zf, "ntfs/folder/", 11, 0, b"")
    typed(zf, "macos/file.json", 19, 0o100644 << 16)
    typed(zf, "odd/control\x01.json", 3, 0o100644 << 16)
    typed(zf, "odd/del\x7f.json", 3, 0o100644 << 16)
    typed(zf, "odd/caf\xc3\xa9.json".encode("latin-1").decode("utf-8"), 3, 0o100644 << 16, utf8=True)


build("zip-entry-types.zip", entry_types)

# zip-reads-past-end.zip (committed as the fuzzer found it): an entry's data descriptor lies far
# past the end, which made ZIPFoundation trap when the zip was read from memory. Nested too,
# as a zip inside a zip is always held in memory.
past_end = open("zip-reads-past-end.zip", "rb").read()
build("zip-nested-past-end.zip", lambda zf: add(zf, "inner.zip", past_end, zipfile.ZIP_STORED))

# A deflated entry whose data is intact but whose checksum (both headers) is wrong.
crc = bytearray(build(None, lambda zf: add(zf, "a.json", submission)))
for signature, offset in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
    at = crc.find(signature)
    crc[at + offset] ^= 0xFF
open("zip-bad-crc-deflated.zip", "wb").write(bytes(crc))

# Entry paths that are ASCII (read byte by byte) and not (read by Characters): separators,
# drive letters, dots, a decomposed accent, a combining mark after '/', and a nested zip
# without a .zip name.
inner = build(None, lambda zf: add(zf, "in/b.txt", b"inner\n", zipfile.ZIP_STORED))


def odd_paths(zf):
    for name in [
        "P1/a.txt", "P1//double.txt", "../up.txt", "/abs.txt", "\\back.txt", "C:/drive.txt",
        "c:name.txt", "P1\\win\\path.txt", "P1/.hidden/x.txt", "P1/a..b.txt", "P1/..",
        "\u00e9:/accent.txt", "e\u0301:/decomposed.txt", "Z\u00fcrich/\u00fc.txt",
        "P1/\u0301/combining.txt", "P1/.\u0301x.txt",
    ]:
        add(zf, name, b"notes\n")
    add(zf, "P1/tiny.bin", b"PK")
    add(zf, "P1/inner.bin", inner, zipfile.ZIP_STORED)


build("zip-odd-paths.zip", odd_paths)


class Unseekable(io.RawIOBase):
    """A stream zipfile cannot seek back in: it then writes each entry's sizes and CRC in a data
    descriptor after its data (general purpose flag bit 3), as zips streamed by apps are."""

    def __init__(self):
        self.data = bytearray()

    def writable(self):
        return True

    def seekable(self):
        return False

    def write(self, chunk):
        self.data += chunk
        return len(chunk)


streamed = Unseekable()
with zipfile.ZipFile(streamed, "w") as zf:
    folder_entries(zf, "bridge-appcore-v1")
open("zip-bridge-descriptors.zip", "wb").write(bytes(streamed.data))
