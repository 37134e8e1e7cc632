r"""Outputs are bytes (issue 47): two commands whose outputs differ in bytes that are not UTF-8
text — gzip streams, a Latin-1 line, a NUL — end "not the same work" (exit 3) with a readable
message (a text line quoted with \xNN escapes, a binary output as hex around the byte where they
part) that says what would accept them (--check, --mask, --output), and the results file is
complete. It used to crash the JSON writer (exit 4, no scenario written).
Real gzip and printf; exit 3 comes in round 1, whatever the timing."""
import json
import pathlib
import random

import pytest

FEW = ("--runs", "3", "--warmup", "0")


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "w"
    d.mkdir()
    rng = random.Random(47)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    (d / "f").write_text("\n".join(" ".join(rng.choice(words) for _ in range(12)) for _ in range(4000)))
    return d


def not_the_same_work(perfgate, folder, validate, *args):
    r = perfgate("ab", *FEW, *args, "--out", "out", cwd=folder)
    assert r.returncode == 3, r.stdout + r.stderr
    doc = validate(folder / "out" / "results.json")
    assert doc["outcome"]["exit_code"] == 3
    [s] = doc["scenarios"]
    [eq] = [g for g in s["gates"] if g["kind"] == "equivalence"]
    assert eq["outcome"] == "failed"
    assert "--check" in r.stderr and "--output" in r.stderr, r.stderr
    return r, eq["detail"]


def test_two_gzip_levels_are_not_the_same_work(perfgate, folder, validate):
    r, detail = not_the_same_work(perfgate, folder, validate, "gzip -c f", "gzip -1 -c f")
    # The header's XFL byte (offset 8) is where -6 and -1 part, shown as hex around it.
    assert "first differing byte at offset 8 (binary output): before 0x00, after 0x04; bytes 0-23: before 1f8b0808" \
        in detail, detail
    assert "first differing byte at offset 8" in r.stderr, r.stderr


def test_a_latin1_line_is_quoted_escaped(perfgate, folder, validate):
    r, detail = not_the_same_work(perfgate, folder, validate, "--shell", "printf 'caf\\351\\n'", "printf 'cafe\\n'")
    assert "first differing line 1 (byte 3): before 'caf\\xe9', after 'cafe'" in detail, detail


def test_output_pipe_hashes_binary_outputs(perfgate, folder, validate):
    _, detail = not_the_same_work(perfgate, folder, validate, "--output", "pipe", "gzip -1 -c f", "gzip -9 -c f")
    assert "first differing byte at offset 8 (binary output): before 0x04, after 0x02" in detail, detail


def test_check_accepts_what_decompresses_alike(perfgate, folder, validate):
    """The suggestion works: a --check that compares what both streams decompress to."""
    (folder / "same.sh").write_text('#!/bin/sh\n[ "$(gzip -dc < "$1" | md5sum)" = "$(gzip -dc < "$2" | md5sum)" ]\n')
    (folder / "same.sh").chmod(0o755)
    r = perfgate("ab", *FEW, "--check", "./same.sh", "gzip -c f", "gzip -1 -c f", "--out", "out", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(folder / "out" / "results.json")
    [eq] = [g for g in doc["scenarios"][0]["gates"] if g["kind"] == "equivalence"]
    assert eq["outcome"] == "passed" and "--check judged 1 distinct pair(s) of digests, 1 the same work" in eq["detail"]
