"""End-to-end tests of `--measure instructions` (issue 16 item 2): counting samples under valgrind
(cachegrind, no cache simulation) give `instructions` (Ir), exact for a deterministic program, so a
1% change is caught where CPU time's noise would hide it. The subject is the calibration program
(calibration_work cpu N: N xorshift steps, same output for any N)."""
import json
import pathlib
import shutil
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import BUILD  # noqa: E402

WORK = BUILD / "libexec" / "perfgate" / "calibration_work"
N = 1_000_000

pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")


def instructions(doc, variant):
    return {s["metrics"]["instructions"]["value"] for s in doc["scenarios"][0]["samples"]
            if not s["warmup"] and s["variant"] == variant}


def test_a_a_pair_has_no_instruction_spread(perfgate, tmp_path, validate):
    # Gated on wall time over 4 rounds (no rank test rejects on 4 pairs, and a gated wall time has
    # no guard): the run passes whatever the timing, and the counts are what is asserted.
    r = perfgate("ab", "--measure", "instructions", "--metric", "wall_ms", "--before", f"{WORK} cpu {N}",
                 "--after", f"{WORK} cpu {N}", "--seed", "6", "--min-rounds", "4", "--max-rounds", "4",
                 "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(tmp_path / "r.json")
    before, after = instructions(doc, "before"), instructions(doc, "after")
    # One value per side: no spread across rounds at all.
    assert len(before) == 1 and len(after) == 1
    b, a = before.pop(), after.pop()
    assert b > 10 * N  # the loop's instructions are there
    # BEFORE and AFTER differ only by their environment (PERFGATE_VARIANT=before/after).
    assert abs(a - b) / b <= 0.001
    # The results (and so the report) say what the count is blind to.
    assert any("proxy for CPU time" in n and "blind to syscalls" in n for n in doc["scenarios"][0]["notes"])


def test_one_percent_more_work_is_caught(perfgate, tmp_path):
    r = perfgate("ab", "--measure", "instructions", "--noise", "0.5", "--before", f"{WORK} cpu {N}",
                 "--after", f"{WORK} cpu {N * 101 // 100}", "--seed", "7", "--json", tmp_path / "r.json")
    assert r.returncode == 1, r.stdout + r.stderr
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["scenarios"][0]["primary_metric"] == "instructions"  # --measure gates the count it asks for
    (b,), (a,) = instructions(doc, "before"), instructions(doc, "after")
    assert 1.005 < a / b < 1.015


def test_help_says_what_instructions_cannot_see(perfgate):
    r = perfgate("ab", "--help")
    assert "proxy for CPU time" in r.stdout and "blind to syscalls, I/O and waiting" in r.stdout
