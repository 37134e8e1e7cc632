"""End-to-end tests of the CLI surface: help, list, bad input, and the first scenario."""
import json
import pathlib
import shutil

import pytest


@pytest.mark.parametrize("cmd", [[], ["list"], ["run"], ["ab"], ["report"]])
def test_help_on_every_command(perfgate, cmd):
    r = perfgate(*cmd, "--help")
    assert r.returncode == 0
    assert "Usage" in r.stdout or "usage" in r.stdout


def test_list_shows_bundled_scenarios(perfgate):
    r = perfgate("list")
    assert r.returncode == 0, r.stderr
    assert "upload_spool" in r.stdout
    assert "seed 000 [6][7]" in r.stdout
    assert "quick,full" in r.stdout or "full,quick" in r.stdout


def test_unknown_scenario_exits_2(perfgate, tmp_path):
    r = perfgate("run", "no_such_scenario", "--out", tmp_path)
    assert r.returncode == 2
    assert "unknown scenario 'no_such_scenario'" in r.stderr


def test_bad_flag_exits_2(perfgate):
    assert perfgate("run", "--policy", "sometimes").returncode == 2
    assert perfgate("run", "--cpus", "banana").returncode == 2


def _catalog_with(tmp_path, manifest):
    d = tmp_path / "catalog" / "broken"
    d.mkdir(parents=True)
    (d / "scenario.json").write_text(manifest if isinstance(manifest, str) else json.dumps(manifest))
    return tmp_path / "catalog", d / "scenario.json"


GOOD = {"name": "broken", "program": "/bin/true", "primary_metric": "wall_ms",
        "variants": [{"name": "before"}, {"name": "after"}], "profiles": {"quick": {}}}


@pytest.mark.parametrize("mutate, field", [
    (lambda m: m.pop("primary_metric"), "primary_metric: missing"),
    (lambda m: m.update(kind="sometimes"), "kind: 'sometimes' is not one of"),
    (lambda m: m.update(variants=[{"name": "before"}]), "variants: needs a variant named 'after'"),
    (lambda m: m.update(claims=[{"metric": "wall_ms", "factor": 0.5}]), "claims[0].factor: must be >= 1"),
    (lambda m: m.update(variants=[{"name": "before"}, {"name": "after", "args": "x"}]), "variants[1].args"),
])
def test_malformed_manifest_exits_2_naming_file_and_field(perfgate, tmp_path, mutate, field):
    m = json.loads(json.dumps(GOOD))
    mutate(m)
    catalog, file = _catalog_with(tmp_path, m)
    r = perfgate("run", "--catalog", catalog, "--out", tmp_path / "out")
    assert r.returncode == 2, r.stdout + r.stderr
    assert str(file) in r.stderr
    assert field in r.stderr


def test_manifest_that_is_not_json_exits_2(perfgate, tmp_path):
    catalog, file = _catalog_with(tmp_path, "{ not json")
    r = perfgate("list", "--catalog", catalog)
    assert r.returncode == 2
    assert str(file) in r.stderr and "not valid JSON" in r.stderr


def test_upload_spool_quick_passes_with_the_writeups_syscall_arithmetic(perfgate, tmp_path, validate):
    r = perfgate("run", "upload_spool", "--profile", "quick", "--out", tmp_path, "--seed", "5")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(tmp_path / "results.json")
    s = doc["scenarios"][0]
    p = s["params"]
    med = lambda v, m: s["summaries"][v][m]["median"]
    reads = lambda kib: p["parts"] * (p["part_mib"] * 1024 // kib + 1)  # one read(2) per fill + one at EOF
    # The program's own count is exact (the timed passes); the outside count adds the dynamic
    # loader's reads (~13) and the untimed probes' (probes.cpp: the rewritten part read twice,
    # the missing part and the directory, ~11).
    assert med("before", "read_calls") == reads(64)
    assert med("after", "read_calls") == reads(512)
    assert med("read-256k", "read_calls") == reads(256)
    assert med("read-1m", "read_calls") == reads(1024)
    assert 0 <= med("before", "syscr") - reads(64) <= 40
    frames = p["files"] * p["frames"]
    assert med("before", "write_calls") == frames
    assert med("after", "write_calls") == p["files"] * (p["frames"] * p["frame_kib"] // 512)
    assert 0 <= med("before", "syscw") - frames <= 10
    assert all(g["outcome"] == "passed" for g in s["gates"]), s["gates"]


def test_upload_spool_equivalence_gate_trips_on_one_flipped_byte(perfgate, tmp_path):
    r = perfgate("run", "upload_spool", "--profile", "quick", "--out", tmp_path,
                 "--scenario-arg=after=--test-corrupt-frame", "--min-rounds", "8", "--max-rounds", "8")  # the gate trips in round 1
    assert r.returncode == 3, r.stdout + r.stderr
    assert "first differing line" in r.stderr
    assert "upload-0.spool" in r.stderr


COMMANDS = ["run", "ab", "gbench", "batch", "merge", "bisect", "compare", "baseline", "lies", "calibrate", "parity",
            "report", "history", "list", "new"]


@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_help_lists_its_exit_codes(perfgate, cmd):
    r = perfgate(cmd, "--help")
    assert r.returncode == 0, r.stderr
    codes = r.stdout[r.stdout.index("Exit codes:"):]
    assert "\n  0    " in codes and ("\n  5    a gated comparison cannot tell" in codes) == (
        cmd in ("run", "ab", "gbench", "batch", "merge")), codes


def test_top_help_lists_every_exit_code(perfgate):
    r = perfgate("--help")
    for code in ("0", "1", "2", "3", "4", "5", "130"):
        assert f"\n  {code} " in r.stdout, r.stdout


@pytest.mark.parametrize("value", ["0", "1", "2", "maybe"])
def test_cannot_tell_takes_its_words_only(perfgate, value, tmp_path):
    r = perfgate("ab", "--cannot-tell", value, "true", "true", cwd=tmp_path)
    assert r.returncode == 2 and "not in {fail,warn,pass}" in r.stderr, r.stderr
    env = perfgate("ab", "true", "true", cwd=tmp_path, env={"PERFGATE_CANNOT_TELL": value})
    assert env.returncode == 2, env.stderr


@pytest.mark.parametrize("word", ["PASS", "Warn"])
def test_cannot_tell_takes_its_words_in_any_case(perfgate, word, tmp_path):
    """Two rounds cannot tell; the word decides the exit whatever its case, as a flag and from the
    environment (a check alone would hand the callback the word as typed)."""
    pair = ("ab", "--runs", "2", "true", "true", "-q")
    fail = {"PERFGATE_CANNOT_TELL": "fail"}
    assert perfgate(*pair, cwd=tmp_path, env=fail).returncode == 5
    flag = perfgate(*pair, "--cannot-tell", word, cwd=tmp_path, env=fail)
    assert flag.returncode == 0, flag.stderr
    env = perfgate(*pair, cwd=tmp_path, env={"PERFGATE_CANNOT_TELL": word})
    assert env.returncode == 0, env.stderr
