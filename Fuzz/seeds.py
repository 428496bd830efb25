#!/usr/bin/env python3
"""Builds each harness's seed corpus under .build-fuzz/seeds/<harness>/ from files already in the
repository and in /work/shared/corpus/real (referenced, not copied into git).

Usage: Fuzz/seeds.py REPO OUT [harness...]   (OUT/<harness>/ is recreated; default: all)
Multi-file seeds (bridge, surveydefinition) are files joined by NUL bytes, each `name\\ncontent`,
the format the harnesses split (FuzzSupport.swift, splitFiles).
"""
import hashlib
import os
import shutil
import sys
import zipfile
import zlib
from pathlib import Path

REAL = Path("/work/shared/corpus/real")


def files(root, *patterns):
    """Files below root matching any glob pattern, sorted; nothing if root is missing."""
    root = Path(root)
    if not root.exists():
        return []
    found = set()
    for pattern in patterns:
        found.update(p for p in root.glob(pattern) if p.is_file())
    return sorted(found)


def bundle(named):
    """One multi-file seed from (name, bytes) pairs."""
    return b"\0".join(name.encode() + b"\n" + content for name, content in named)


def folder_upload(path):
    path = Path(path)
    return [(p.relative_to(path).as_posix(), p.read_bytes())
            for p in sorted(path.rglob("*")) if p.is_file() and not p.name.startswith(".")]


def zip_uploads(path):
    """Each Bridge upload inside a zip (the top, or one folder down), as a file list."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        return []
    names = [n for n in archive.namelist() if not n.endswith("/")]
    uploads = []
    for info in (n for n in names if n.rsplit("/", 1)[-1] == "info.json"):
        root = info[: -len("info.json")]
        try:
            uploads.append([(n[len(root):], archive.read(n)) for n in names
                            if n.startswith(root) and "/" not in n[len(root):]])
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError):
            continue  # a damaged fixture (the zip itself is a seed anyway)
    return uploads


def main():
    repo, out = Path(sys.argv[1]), Path(sys.argv[2])
    hostile = repo / "Tests/RKExportTests/Fixtures/hostile"
    inputs = repo / "Tests/RKImportTests/Fixtures/inputs"
    fuzz_fixtures = repo / "Tests/RKImportTests/Fixtures/fuzz"
    binary = (files(repo / "samples/study", "**/*.archive") + files(hostile, "*.archive")
              + files(REAL / "swift-corelibs-foundation-fixtures", "*.archive"))
    xml = (files(repo / "samples/study", "**/*.plist") + files(hostile, "*.plist")
           + files(REAL / "swift-corelibs-foundation-fixtures", "*.plist"))
    json = (files(REAL, "**/*.json") + files(repo / "samples", "**/*.json")
            + files(inputs, "**/*.json"))
    submissions = files(repo / "samples/surveynative", "P*/*.json") + files(
        inputs / "surveynative", "P*/*.json")
    definitions = [repo / "samples/surveynative/lifestyle.json",
                   inputs / "surveynative/lifestyle.json"]
    zips = files(repo / "samples", "**/*.zip") + files(inputs, "*.zip")

    uploads = [folder_upload(p.parent)
               for p in files(repo / "samples/bridge-upload", "**/info.json")]
    uploads += [folder_upload(p.parent) for p in files(inputs, "bridge*/info.json")]
    uploads += [folder_upload(REAL / "bridgepf-2014-upload")]
    for path in zips:
        uploads += zip_uploads(path)

    seeds = {
        "bplist": binary,
        "xmlplist": xml,
        "keyedarchive": binary + xml,
        "json": json,
        "researchkitjson": (files(REAL / "researchkit-samples-bundle", "*.json")
                            + files(repo / "samples/researchkit-json", "**/*.json")),
        "bridge": [bundle(u) for u in uploads if u],
        "surveynative": submissions,
        "surveydefinition": [
            bundle([(d.name, d.read_bytes()), (s.name, s.read_bytes())])
            for d in definitions if d.exists() for s in submissions],
        "zip": zips + binary[:4] + xml[:2] + submissions[:1],
    }
    wanted = sys.argv[3:] or list(seeds)
    for harness, items in seeds.items():
        if harness not in wanted:
            continue
        target = out / harness
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        # Reproducers found earlier are seeds too, so a fixed crash stays covered.
        items = list(items) + files(fuzz_fixtures / harness, "*")
        for item in items:
            content = item if isinstance(item, bytes) else Path(item).read_bytes()
            (target / hashlib.sha1(content).hexdigest()).write_bytes(content)
        print(f"seeds: {harness}: {len(os.listdir(target))} files", file=sys.stderr)


if __name__ == "__main__":
    main()
