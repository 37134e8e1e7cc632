"""A time verdict between two different executables says that layout was not separated (issue 39,
item 4): the programs are tests/layout/'s hot loop built with and without an unused function in
front (real gcc), the verdict scripted (--debug-samples), so only the caveat is under test."""
import json
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DECIDING = pathlib.Path(__file__).parent / "data" / "deciding"
CAVEAT = "BEFORE and AFTER are different executables"

pytestmark = pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("make")), reason="needs gcc and make")


def build(out, pad):
    out.mkdir(parents=True)
    subprocess.run(["make", "-s", "-f", str(ROOT / "tests" / "layout" / "Makefile"), f"OUT={out}", "CC=gcc",
                    f"CFLAGS=-O2 -DPAD={pad}"], check=True, capture_output=True, text=True)
    return out / "hot"


def ab(perfgate, folder, before, after):
    out = folder / f"{before.replace('/', '_')}-{after.replace('/', '_')}.json"
    r = perfgate("ab", before, after, "--debug-samples", DECIDING / "slower_10pct.json", "--seed", "1",
                 "--json", out, cwd=folder)
    return r, json.loads(out.read_text())


def test_a_time_verdict_between_two_builds_carries_the_layout_caveat(perfgate, tmp_path):
    build(tmp_path / "p0", 0)
    build(tmp_path / "p16", 16)
    r, doc = ab(perfgate, tmp_path, "./p0/hot", "./p16/hot")
    assert r.returncode == 1, r.stdout + r.stderr  # 10% slower, scripted: worse
    notes = doc["scenarios"][0]["notes"]
    assert any(CAVEAT in n and "ab --layouts K" in n and "calibrate --layouts" in n for n in notes), notes
    assert CAVEAT in " ".join(r.stdout.split()), r.stdout


def test_one_executable_or_a_byte_identical_copy_has_no_caveat(perfgate, tmp_path):
    build(tmp_path / "p0", 0)
    shutil.copytree(tmp_path / "p0", tmp_path / "copy")
    for after in ("./p0/hot", "./copy/hot"):
        r, doc = ab(perfgate, tmp_path, "./p0/hot", after)
        assert r.returncode == 1, r.stdout + r.stderr
        assert not any(CAVEAT in n for n in doc["scenarios"][0]["notes"]), doc["scenarios"][0]["notes"]
