"""What people read of a run: the verdict table (one row per gate, each with its own result;
"not gated" rows say only which way a figure moved), the CI outputs (one message per failure:
one ::error, one JUnit failure, a step-summary row naming what differed) and `compare`'s words
for rows nothing gates. Scripted samples (data/deciding/people_read.json, other_digest.json), so
every outcome asserted is the one the rules give; the agreement pass runs media_parity's own
server over a tiny library with AFTER lying."""
import json
import os
import pathlib
import pty
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

DATA = pathlib.Path(__file__).parent / "data" / "deciding"
CATALOG = DATA / "catalog"
ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("PERFGATE_BUILD_DIR", ROOT / "build"))
LONG = "a_scenario_with_a_rather_long_name_for_the_table"


def scripted(perfgate, tmp_path, *scenarios, script="people_read.json", env=None):
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "results.json"
    r = perfgate("run", "--catalog", CATALOG, *scenarios, "--debug-samples", DATA / script, "--baseline", "none",
                 "--seed", "1", "--json", out, "--junit", tmp_path / "junit.xml", env=env)
    return r, json.loads(out.read_text())


def rows(stdout, scenario):
    """The verdict table's rows of a scenario, each as its words."""
    return [line.split() for line in stdout.splitlines() if line.split()[:1] == [scenario]]


def row(stdout, scenario, gate):
    [found] = [r for r in rows(stdout, scenario) if r[1:1 + len(gate.split())] == gate.split()]
    return found


def test_an_output_mismatch_is_one_error_one_junit_failure_and_a_different_output_row(perfgate, tmp_path):
    summary = tmp_path / "summary.md"
    out, junit = tmp_path / "results.json", tmp_path / "junit.xml"
    r = perfgate("ab", "--before", "/bin/false", "--after", "/bin/false", "--debug-samples", DATA / "other_digest.json",
                 "--seed", "1", "--json", out, "--junit", junit,
                 env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert r.returncode == 3, r.stdout + r.stderr
    errors = [line for line in r.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "equivalence gate failed" in errors[0], errors
    assert not [line for line in r.stdout.splitlines() if line.startswith("::warning")]
    cases = list(ET.parse(junit).iter("testcase"))
    failures = [f for c in cases for f in c.iter("failure")]
    assert len(failures) == 1 and not [e for c in cases for e in c.iter("error")], ET.tostring(ET.parse(junit).getroot())
    message = failures[0].get("message")
    assert message.startswith("equivalence gate failed: ") and message.count("gate failed") == 1, message
    md = summary.read_text()
    [line] = [line for line in md.splitlines() if line.startswith("| ab (ab) |")]
    assert "| same work |" in line and "different output: " in line and "❌ FAIL" in line, md
    assert "not run" not in md and "error" not in line
    # The table: the gate's own row, and no "not run" row beside it.
    assert row(r.stdout, "ab", "same work")[-3:] == ["different", "output", "FAIL"]
    assert len(rows(r.stdout, "ab")) == 1, r.stdout


def test_a_failed_claim_on_the_primary_metric_prints_fail_beside_a_passing_policy(perfgate, tmp_path):
    r, doc = scripted(perfgate, tmp_path, "claim_missed")
    assert r.returncode == 1, r.stdout + r.stderr
    # AFTER is 2x better in every round: the policy passes, the 3x claim is missed.
    assert row(r.stdout, "claim_missed", "improve")[-2:] == ["better", "PASS"]
    claim = row(r.stdout, "claim_missed", "claim 3x")
    assert claim[3:5] == ["cpu_ms", "*"] and claim[-2:] == ["missed", "FAIL"], claim
    [gate] = [g for g in doc["scenarios"][0]["gates"] if g["kind"] == "claim"]
    assert (gate["metric"], gate["factor"], gate["outcome"]) == ("cpu_ms", 3, "failed")
    assert ET.parse(tmp_path / "junit.xml").getroot().get("failures") == "1"


def test_a_guard_failure_prints_fail(perfgate, tmp_path):
    r, doc = scripted(perfgate, tmp_path, "guard_slow")
    assert r.returncode == 1, r.stdout + r.stderr
    assert row(r.stdout, "guard_slow", "no-regress")[-3:] == ["the", "same", "PASS"]
    guard = row(r.stdout, "guard_slow", "guard")
    # Wall time 20 ms -> 40 ms in every round: 2x, beyond the guard's band of at least 10%.
    assert guard[2:7] == ["wall_ms", "20.0", "ms", "40.0", "ms"] and guard[-3:] == ["beyond", "+10.0%", "FAIL"], guard


def test_a_failed_agreement_pass_prints_fail_and_is_said_once(perfgate, tmp_path):
    catalog = tmp_path / "catalog"
    shutil.copytree(BUILD / "share" / "perfgate" / "scenarios" / "media_parity", catalog / "media_parity",
                    symlinks=True)
    manifest = catalog / "media_parity" / "scenario.json"
    doc = json.loads(manifest.read_text())
    # AFTER answers Fields=People with an empty cast: the agreement pass must refuse it.
    [after] = [v for v in doc["variants"] if v["name"] == "after"]
    after["args"] = ["--lie", "no-people"]
    doc["profiles"]["quick"]["params"] = {
        "movies": 40, "series": 4, "seasons_per_series": 2, "episodes_per_season": 4, "artists": 6,
        "albums_per_artist": 2, "tracks_per_album": 3, "persons": 80, "studios": 5, "users": 4,
        "user_data_rows": 100, "movie_cast": 5, "episode_cast": 2, "seed": 3}
    manifest.write_text(json.dumps(doc))
    out = tmp_path / "results.json"
    r = perfgate("run", "media_parity", "--catalog", catalog, "--baseline", "none", "--json", out,
                 "--junit", tmp_path / "junit.xml", env={"GITHUB_ACTIONS": "true",
                                                         "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")})
    assert r.returncode == 3, r.stdout + r.stderr
    assert row(r.stdout, "media_parity", "agreement pass")[-3:] == ["different", "answers", "FAIL"]
    assert len(rows(r.stdout, "media_parity")) == 1, r.stdout  # the rounds never ran: nothing else passed
    gates = json.loads(out.read_text())["scenarios"][0]["gates"]
    assert [(g["kind"], g["name"], g["outcome"]) for g in gates] == [("equivalence", "agreement pass", "failed")]
    assert len([line for line in r.stdout.splitlines() if line.startswith("::error")]) == 1
    junit = ET.parse(tmp_path / "junit.xml").getroot()
    assert (junit.get("failures"), junit.get("errors")) == ("1", "0")


def test_an_ungated_metric_that_got_worse_says_higher_never_worse(perfgate, tmp_path):
    r, _ = scripted(perfgate, tmp_path, "ungated_cpu")
    assert r.returncode == 0, r.stdout + r.stderr
    ungated = row(r.stdout, "ungated_cpu", "not gated")
    # CPU time doubled, significantly (zero spread): but nothing gates it.
    assert ungated[3:8] == ["cpu_ms", "10.0", "ms", "20.0", "ms"] and ungated[-1] == "higher", ungated
    table = r.stdout.split("(* the scenario's gated metric")[0]  # the legend below it explains every word
    assert "worse" not in table, table


def test_compare_says_higher_for_a_row_no_gate_judges(perfgate, tmp_path):
    old, _ = scripted(perfgate, tmp_path / "old", "ungated_cpu")
    tmp_path.joinpath("new").mkdir()
    script = json.loads((DATA / "people_read.json").read_text())
    script["scenarios"]["ungated_cpu"]["before"]["wall_ms"] = 30  # BEFORE, a reference variant, 50% slower
    (tmp_path / "new.json").write_text(json.dumps(script))
    r = perfgate("run", "--catalog", CATALOG, "ungated_cpu", "--debug-samples", tmp_path / "new.json",
                 "--baseline", "none", "--seed", "1", "--json", tmp_path / "new" / "results.json")
    assert r.returncode == 0, r.stdout + r.stderr  # gated wall_ms: AFTER's 20 ms against BEFORE's 30 is no regression
    c = perfgate("compare", tmp_path / "old" / "results.json", tmp_path / "new" / "results.json",
                 "--markdown", tmp_path / "cmp.md")
    wall = c.stdout[c.stdout.index("wall_ms ("):].split("\n\n")[0]
    [before] = [line for line in wall.splitlines() if line.startswith("ungated_cpu/before")]
    assert "+50.0% higher" in before and "worse" not in before, c.stdout
    assert "20.0 ms" in before and "30.0 ms" in before, before  # medians with their unit
    md_before = [line for line in (tmp_path / "cmp.md").read_text().splitlines()
                 if line.startswith("| ungated_cpu | before | wall_ms")]
    assert md_before and "**higher**" in md_before[0], md_before


def test_the_table_names_every_scenario_in_full_and_plain_off_a_terminal(perfgate, tmp_path):
    # A log or a file has no width (issue 41): nothing is cut there.
    r, _ = scripted(perfgate, tmp_path, LONG, "guard_slow")
    assert r.returncode == 1, r.stdout + r.stderr
    table = r.stdout
    assert "\033[" not in table  # a pipe: no colour
    long_rows = [line for line in table.splitlines() if line.startswith("a_scen")]
    assert long_rows and all(line.split()[0] == LONG for line in long_rows), table
    assert "…" not in table
    assert "1.50 s" in table and "1.23 s" in table


def run_on_a_terminal(perfgate_bin, tmp_path, env, scenarios=("claim_missed",)):
    """perfgate's stdout on a pseudo-terminal, as a person at a terminal sees it."""
    main, sub = pty.openpty()
    e = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    e.update(TERM="xterm", **env)
    p = subprocess.run([perfgate_bin, "run", "--catalog", str(CATALOG), *scenarios, "--debug-samples",
                        str(DATA / "people_read.json"), "--baseline", "none", "--json", str(tmp_path / "r.json")],
                       stdout=sub, stderr=subprocess.PIPE, env=e, timeout=120)
    os.close(sub)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    return p.returncode, b"".join(chunks).decode()


def test_colour_on_a_terminal_unless_no_color(perfgate_bin, tmp_path):
    code, coloured = run_on_a_terminal(perfgate_bin, tmp_path, {})
    assert code == 1 and "\033[1;31mFAIL\033[0m" in coloured and "\033[32mPASS\033[0m" in coloured, coloured
    code, plain = run_on_a_terminal(perfgate_bin, tmp_path, {"NO_COLOR": "1"})
    assert code == 1 and "\033[" not in plain and "FAIL" in plain, plain


def test_the_table_fits_120_columns_on_a_terminal(perfgate_bin, tmp_path):
    code, table = run_on_a_terminal(perfgate_bin, tmp_path, {"NO_COLOR": "1"}, (LONG, "guard_slow"))
    assert code == 1, table
    lines = table.replace("\r", "").splitlines()
    assert max(len(line) for line in lines) <= 120, table
    # The long names are abbreviated in the middle, not dropped.
    long_rows = [line for line in lines if line.startswith("a_scen")]
    assert long_rows and all("…" in line.split()[0] for line in long_rows), table
