"""`perfgate calibrate --layouts K --build CMD -- COMMAND` (issue 50 step 5): a program's layout
spread on this machine, from its work tree built in K layouts (tests/layout/'s hot loop, real gcc
through perfgate-layout-cc), kept in the user's cache where ab's caveat on two prebuilt executables
quotes it. The spread's size is this machine's; what is asserted is that it is measured, kept and
quoted."""
import json
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DECIDING = pathlib.Path(__file__).parent / "data" / "deciding"
CAVEAT = "BEFORE and AFTER are different executables"

pytestmark = pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("make")), reason="needs gcc and make")


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def layout_repo(path):
    """tests/layout/ as a project of its own: a git work tree whose make builds ./build/hot."""
    path.mkdir()
    for name in ("hot.c", "digest.c", "main.c", "Makefile"):
        shutil.copy(ROOT / "tests" / "layout" / name, path / name)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "t@example.com")
    git(path, "config", "user.name", "t")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "hot loop")
    return path


def test_calibrate_measures_keeps_and_the_caveat_quotes_the_spread(perfgate, tmp_path):
    repo = layout_repo(tmp_path / "repo")
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    r = perfgate("calibrate", "--repo", repo, "--layouts", "4", "--layout-rounds", "3", "--metric", "cpu_ms",
                 "--build", "mkdir -p build && make OUT=build", "--", "./build/hot", cwd=tmp_path, env=env,
                 timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "layout alone moves hot ±" in r.stdout
    kept = tmp_path / "xdg" / "perfgate" / "layout-spread" / "hot.json"
    spread = json.loads(kept.read_text())
    # Whether layouts moved this program beyond the rounds' noise is this machine's; the line printed follows it.
    if spread["layout_sd"] > 0:
        assert "a single-layout A/B (two prebuilt executables) can trust a change of" in r.stdout
    else:
        assert "the layouts moved nothing beyond the rounds' noise here" in r.stdout
    assert spread["layouts"] == 4 and len(spread["medians"]) == 4 and spread["metric"] == "cpu_ms"
    assert 0 <= spread["spread"] < 0.5 and spread["trusted_change"] >= 0
    assert json.loads((tmp_path / "perfgate-out" / "calibration-layouts.json").read_text())["layout_spread"] == spread
    # Every layout was its own build through the launcher.
    logs = sorted((tmp_path / "xdg" / "perfgate" / "bisect").glob("*/*-layout-*/build.log"))
    assert len(logs) == 4 and all("perfgate-layout-cc" in log.read_text() for log in logs)

    # ab of two prebuilt executables named hot, a 10% verdict scripted: the caveat quotes the spread.
    for pad in (0, 16):
        out = tmp_path / f"p{pad}"
        out.mkdir()
        subprocess.run(["make", "-s", "-f", str(ROOT / "tests" / "layout" / "Makefile"), f"OUT={out}", "CC=gcc",
                        f"CFLAGS=-O2 -DPAD={pad}"], check=True, capture_output=True, text=True)
    r = perfgate("ab", "./p0/hot", "./p16/hot", "--debug-samples", DECIDING / "slower_10pct.json", "--seed", "1",
                 "--json", tmp_path / "ab.json", cwd=tmp_path, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    notes = " ".join(json.loads((tmp_path / "ab.json").read_text())["scenarios"][0]["notes"])
    assert CAVEAT in notes and "layout alone moves hot ±" in notes, notes
    assert "perfgate calibrate --layouts 4" in notes
    expected = "beyond it" if 0.10 >= spread["trusted_change"] else "within it"
    assert "is " + expected in notes, notes


def test_layouts_without_build_or_command_is_exit_2(perfgate, tmp_path):
    r = perfgate("calibrate", "--layouts", "4", "--", "./prog", cwd=tmp_path)
    assert r.returncode == 2 and "--build" in r.stderr, r.stderr
    r = perfgate("calibrate", "--layouts", "4", "--build", "make", cwd=tmp_path)
    assert r.returncode == 2 and "command" in r.stderr, r.stderr
    r = perfgate("calibrate", "--build", "make", "--", "./prog", cwd=tmp_path)
    assert r.returncode == 2 and "--layouts" in r.stderr, r.stderr
