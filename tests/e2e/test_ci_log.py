"""A CI log that speaks (issue 41): with stderr not a terminal, a long command says each
scenario as it finishes (name, how it ended, its figure, seconds), on GitHub Actions inside a
collapsible group, and the verdict table names every scenario in full when stdout is not a
terminal. Real programs (tests/tools/burn through spin_catalog); the figure asserted is an
exact count, so nothing here rides on timing."""
import os
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import PERFGATE  # noqa: E402
from spin_catalog import add_scenario  # noqa: E402

LONG = ["a_scenario_whose_name_is_long_enough_to_be_cut_on_a_terminal",
        "another_scenario_whose_name_a_terminal_table_would_shorten"]


def catalog(tmp_path, burn):
    c = tmp_path / "catalog"
    for name in LONG:
        add_scenario(c, burn, name=name, metric="work", rounds=10)
    return c


def without_github():
    return {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}


def run_catalog(tmp_path, burn, env, *extra):
    return subprocess.run([str(PERFGATE), "run", "--catalog", str(catalog(tmp_path, burn)), "--profile", "quick",
                           "--out", str(tmp_path / "out"), *extra],
                          capture_output=True, text=True, timeout=600, env=env)


def test_each_finished_scenario_is_one_line_and_the_table_names_it_in_full(tmp_path, burn):
    r = run_catalog(tmp_path, burn, without_github())
    assert r.returncode == 0, r.stdout + r.stderr
    done = [line for line in r.stderr.splitlines() if line.startswith("perfgate: done ")]
    assert len(done) == 2, r.stderr
    for name, line in zip(LONG, done):
        assert re.fullmatch(rf"perfgate: done {name}: 10 rounds \(.*\), work 0\.5x \[0\.5, 0\.5\], \d+\.\d s", line), line
    lines = r.stderr.splitlines()
    assert lines.index(done[-1]) < next(i for i, l in enumerate(lines) if l.startswith("perfgate: results in"))
    assert "::group::" not in r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith(tuple(LONG))]
    assert rows and "…" not in r.stdout, r.stdout
    assert {row.split()[0] for row in rows} == set(LONG)


def test_github_actions_folds_each_scenario_into_a_group(tmp_path, burn):
    r = run_catalog(tmp_path, burn, {**without_github(), "GITHUB_ACTIONS": "true"})
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stderr.splitlines()
    for name in LONG:
        opened = lines.index(f"::group::{name}")
        closed = lines.index("::endgroup::", opened)
        assert lines[closed + 1].startswith(f"perfgate: done {name}: "), r.stderr
        assert all(not l.startswith("::group::") for l in lines[opened + 1:closed])


def test_quiet_says_nothing_per_scenario(tmp_path, burn):
    r = run_catalog(tmp_path, burn, without_github(), "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "perfgate: done" not in r.stderr


def test_ab_says_its_pair_when_it_finishes(perfgate, tmp_path):
    r = perfgate("ab", "cat /etc/hostname", "cat /etc/hostname", "--runs", "3", "--warmup", "0",
                 "--metric", "wall_ms", "--json", tmp_path / "r.json", cwd=tmp_path, env={"GITHUB_ACTIONS": ""})
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^perfgate: done ab: 3 rounds \(max rounds \(3\)\), wall_ms \S+x \[\S+, \S+\]( at [\d.]+%)?, \d+\.\d s$",
                     r.stderr, re.M), r.stderr
