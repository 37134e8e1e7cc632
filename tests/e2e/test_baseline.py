"""End-to-end tests of baseline.json: `perfgate baseline update`, and every run compared with it —
a ratio that moved fails (exit 1) and says which; no entry is "no comparable baseline", never a
pass; a malformed baseline is exit 2 and nothing is overwritten. The same failing run checks the
CI outputs: JUnit XML (validated against the JUnit schema), GitHub annotations and step summary,
and the Google Benchmark export read the way compare.py reads it."""
import hashlib
import json
import pathlib
import re
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from spin_catalog import add_scenario  # noqa: E402
import synthetic  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = pathlib.Path(__file__).parent / "data"


def baseline_schema_check(path):
    import jsonschema
    jsonschema.validate(json.loads(pathlib.Path(path).read_text()),
                        json.loads((ROOT / "docs" / "baseline.schema.json").read_text()))


@pytest.fixture(scope="module")
def runs(perfgate, burn, tmp_path_factory):
    """Runs of a two-scenario catalog: three accepted ones (a ratio is gated only against at
    least three accepted runs on this host class), and one whose AFTER is made slower (0.5x of
    BEFORE's work → 0.8x) with the CI outputs on. Real runs (baseline update refuses scripted
    ones), gated on the program's own count of its work, with no wall guard: every ratio is exact
    (0.5 in every round of every accepted run, 0.8 in the slower one), so every verdict here is
    the rules', whatever the timing. 16 rounds give the Google Benchmark export's CPU times enough
    samples for compare.py's test."""
    tmp = tmp_path_factory.mktemp("baseline")
    catalog = tmp / "catalog"
    add_scenario(catalog, burn, "spin", rounds=16, metric="work", guard={"metric": "none"})
    add_scenario(catalog, burn, "spin_two", rounds=16, metric="work", guard={"metric": "none"})
    base = tmp / "baseline.json"
    # The catalog's own baseline.json is not there yet: no comparable baseline (a --baseline
    # FILE that does not exist is a typo, exit 2).
    first = perfgate("run", "--catalog", catalog, "--seed", "3", "--json", tmp / "r1.json",
                     "--junit", tmp / "r1.xml")
    for seed in (5, 6):
        perfgate("run", "--catalog", catalog, "--baseline", "none", "--seed", str(seed), "--json", tmp / f"a{seed}.json")
    update = perfgate("baseline", "update", tmp / "r1.json", tmp / "a5.json", tmp / "a6.json", "--baseline", base)
    summary = tmp / "summary.md"
    slower = perfgate("run", "--catalog", catalog, "--baseline", base, "--seed", "4", "--json", tmp / "r2.json",
                      "--scenario-arg", "after=--slower", "--junit", tmp / "r2.xml", "--export-gbench", tmp / "r2.gbench.json",
                      env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    return dict(tmp=tmp, catalog=catalog, base=base, first=first, update=update, slower=slower, summary=summary)


def test_first_run_has_no_comparable_baseline_and_that_is_not_a_pass(runs, validate):
    r = runs["first"]
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(runs["tmp"] / "r1.json")
    for s in doc["scenarios"]:
        g = [g for g in s["gates"] if g["kind"] == "baseline"]
        assert len(g) == 1 and g[0]["outcome"] == "undecided", s["gates"]
        assert "no comparable baseline" in g[0]["detail"]
        assert s["baseline"][0]["status"] == "no comparable baseline"
    assert "no comparable baseline" in r.stdout
    import lxml.etree as et
    xml = et.parse(str(runs["tmp"] / "r1.xml"))
    assert len(xml.findall(".//skipped")) == 2


def test_update_writes_entries_and_says_which(runs):
    r = runs["update"]
    assert r.returncode == 0, r.stdout + r.stderr
    assert "added     spin/quick/work" in r.stdout and "added     spin_two/quick/work" in r.stdout
    baseline_schema_check(runs["base"])
    b = json.loads(runs["base"].read_text())
    e = b["entries"][0]
    assert e["ratio"] == 0.5 and e["ci"] == [0.5, 0.5]  # half the work, counted
    assert e["host"]["fingerprint"] and e["commit"] and e["medians"]["after"] > 0


def test_after_made_slower_fails_against_the_baseline_naming_the_ratio(runs, validate):
    r = runs["slower"]
    assert r.returncode == 1, r.stdout + r.stderr
    doc = validate(runs["tmp"] / "r2.json")
    for s in doc["scenarios"]:
        policy = [g for g in s["gates"] if g["kind"] == "policy"][0]
        assert policy["outcome"] == "passed", policy  # still better than BEFORE: only the baseline catches it
        g = [g for g in s["gates"] if g["kind"] == "baseline"][0]
        assert g["outcome"] == "failed", g
        assert "ratio moved" in g["detail"] and "work" in g["detail"]
        change = s["baseline"][0]["ratio_change"]
        # 0.8x of BEFORE's work against 0.5x.
        assert change["verdict"] == "worse" and change["change"] == pytest.approx(1.6)
        # Same machine, so the absolute figures were compared too, and the report says so.
        assert s["baseline"][0]["absolute"]["compared"] is True
        assert "same host" in g["detail"]
    assert "baseline gate failed: ratio moved: after/before work" in r.stderr
    # The baseline gate's own row in the verdict table, with its own result.
    rows = [l.split() for l in r.stdout.splitlines() if l.split()[1:2] == ["baseline"]]
    assert len(rows) == 2 and all(row[-1] == "FAIL" and row[-2] == "worse" for row in rows), r.stdout


def test_same_figures_pass_the_baseline_check(runs, perfgate):
    r = perfgate("baseline", "check", runs["tmp"] / "r1.json", "--baseline", runs["base"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("PASS") == 2
    r = perfgate("baseline", "check", runs["tmp"] / "r2.json", "--baseline", runs["base"])
    assert r.returncode == 1 and r.stdout.count("FAIL") == 2


def test_junit_validates_and_carries_the_figure_and_reason(runs):
    import lxml.etree as et
    schema = et.XMLSchema(et.parse(str(DATA / "junit.xsd")))
    doc = et.parse(str(runs["tmp"] / "r2.xml"))
    schema.assertValid(doc)
    failures = doc.findall(".//failure")
    assert len(failures) == 2
    assert all(f.get("type") == "baseline" and "ratio moved" in f.get("message") and "x [" in f.text for f in failures)
    cases = doc.findall(".//testcase")
    kinds = {c.get("name").split(":")[0] for c in cases}
    assert {"equivalence", "policy", "baseline"} <= kinds <= {"equivalence", "policy", "baseline", "guard"}


def test_github_annotations_and_step_summary(runs):
    r = runs["slower"]
    errors = [l for l in r.stdout.splitlines() if l.startswith("::error title=")]
    assert len(errors) == 2 and "baseline gate failed" in errors[0]
    md = runs["summary"].read_text()
    assert md.startswith("## perfgate: ❌ failed (exit 1)")
    assert "| spin (quick) | baseline | `work` * |" in md and "❌ FAIL" in md
    assert "ratio moved" in md  # the failed row says why


def test_gbench_export_has_what_compare_py_reads(runs):
    """The fields tools/compare.py of Google Benchmark uses, checked the way it uses them:
    benchmarks grouped by name, time_unit/real_time/cpu_time on each, repetitions as
    iteration entries, `filters` mode pairing .../before with .../after."""
    doc = json.loads((runs["tmp"] / "r2.gbench.json").read_text())
    assert {"date", "host_name", "num_cpus", "library_build_type"} <= set(doc["context"])
    iters = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
    for b in doc["benchmarks"]:
        assert {"name", "run_name", "run_type", "time_unit", "real_time", "cpu_time", "iterations",
                "family_index", "per_family_instance_index", "repetitions"} <= set(b)
        assert b["time_unit"] in ("ns", "us", "ms", "s")
    assert {b["aggregate_name"] for b in doc["benchmarks"] if b["run_type"] == "aggregate"} == {"mean", "median", "stddev"}
    import re
    strip = lambda pat: {re.sub(pat, "", b["name"]): [] for b in iters if re.search(pat, b["name"])}
    before, after = strip("before$"), strip("after$")
    assert set(before) == set(after) == {"spin/quick/", "spin_two/quick/"}
    cpu = lambda v: [b["cpu_time"] for b in iters if b["name"] == f"spin/quick/{v}"]
    assert len(cpu("before")) == len(cpu("after")) >= 8
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        return
    assert mannwhitneyu(cpu("before"), cpu("after"), alternative="two-sided").pvalue < 0.05


MALFORMED = [
    ("{ not json", "not valid JSON"),
    ('{"entries": []}', "schema_version: missing"),
    ('{"schema_version": 3, "entries": []}', "schema_version: is 3"),
    ('{"schema_version": 1, "entries": {}}', "entries: must be an array"),
    ('{"schema_version": 1, "entries": [{"scenario": "spin", "profile": "quick", "metric": "cpu_ms", "better": "lower", '
     '"ratio": 0.5, "ci": [0.6, 0.4], "n": 8}]}', "entries[0].ci: must be [lo, hi] with 0 <= lo <= hi"),
]


@pytest.mark.parametrize("text, message", MALFORMED)
def test_malformed_baseline_is_exit_2_and_nothing_is_overwritten(perfgate, burn, tmp_path, text, message):
    catalog = tmp_path / "catalog"
    add_scenario(catalog, burn)
    base = tmp_path / "baseline.json"
    base.write_text(text)
    before = hashlib.sha256(base.read_bytes()).hexdigest()
    results = tmp_path / "results.json"
    results.write_text('{"previous": true}')
    r = perfgate("run", "--catalog", catalog, "--baseline", base, "--json", results)
    assert r.returncode == 2, r.stdout + r.stderr
    assert str(base) in r.stderr and message in r.stderr
    assert results.read_text() == '{"previous": true}'
    # update with any results file: refused before anything is written
    good = synthetic.write(tmp_path / "good.json", synthetic.results("r1", "c1", "2026-01-01T00:00:00Z", 0.5))
    r = perfgate("baseline", "update", good, "--baseline", base)
    assert r.returncode == 2 and message in r.stderr
    assert hashlib.sha256(base.read_bytes()).hexdigest() == before


def test_update_from_a_malformed_results_file_is_exit_2(perfgate, tmp_path):
    base = tmp_path / "baseline.json"
    bad = tmp_path / "bad.json"
    doc = synthetic.results("x", "c", "2026-01-01T00:00:00Z", 0.5)
    del doc["host"]["fingerprint"]
    synthetic.write(bad, doc)
    r = perfgate("baseline", "update", bad, "--baseline", base)
    assert r.returncode == 2 and f"{bad}: host.fingerprint: missing" in r.stderr, r.stderr
    assert not base.exists()


def test_committed_baseline_is_valid_and_names_bundled_scenarios(perfgate):
    baseline_schema_check(ROOT / "baseline.json")
    r = perfgate("baseline", "show")
    assert r.returncode == 0, r.stderr
    bundled = perfgate("list").stdout
    doc = json.loads((ROOT / "baseline.json").read_text())
    assert list(doc)[0] == "schema_version"
    keys = {(e["scenario"], e["profile"], e["metric"]) for e in doc["entries"]}
    assert ("upload_spool", "quick", "syscalls") in keys, "the bundled baseline.json lacks upload_spool's figures"
    assert "upload_spool" in bundled
    assert f"{len(doc['entries'])} entries in" in r.stdout


def test_update_takes_several_results_files_and_appends_runs(runs, perfgate):
    """Each results file is one accepted run per entry, with its host class; --append adds runs
    to those already accepted and never the same run twice (schema 2, docs/baseline.md)."""
    base = runs["tmp"] / "multi.json"
    r = perfgate("baseline", "update", runs["tmp"] / "r1.json", runs["tmp"] / "r2.json", "--baseline", base)
    assert r.returncode == 0, r.stdout + r.stderr
    baseline_schema_check(base)
    doc = json.loads(base.read_text())
    assert doc["schema_version"] == 2
    for e in doc["entries"]:
        assert len(e["runs"]) == 2 and e["runs"][0]["host"]["cores"] >= 1 and e["runs"][0]["host"]["cpu_model"]
        assert e["runs"][1]["ratio"] == e["ratio"]  # the newest run's figures
    again = perfgate("baseline", "update", "--append", runs["tmp"] / "r1.json", "--baseline", base)
    assert again.returncode == 0 and "unchanged" in again.stdout, again.stdout + again.stderr
    assert all(len(e["runs"]) == 2 for e in json.loads(base.read_text())["entries"])
    # Two accepted runs on this host class are too few for a between-run spread: not comparable.
    check = perfgate("baseline", "check", runs["tmp"] / "r1.json", "--baseline", base)
    assert check.returncode == 0 and "2 accepted run(s) on host class" in check.stdout, check.stdout
    assert "3 needed" in check.stdout and "PASS" not in check.stdout and "FAIL" not in check.stdout, check.stdout


def test_schema_1_baseline_is_still_read(runs, perfgate, tmp_path):
    doc = json.loads(runs["base"].read_text())
    doc["schema_version"] = 1
    for e in doc["entries"]:
        e.pop("runs", None)
    old = tmp_path / "v1.json"
    old.write_text(json.dumps(doc))
    r = perfgate("baseline", "check", runs["tmp"] / "r1.json", "--baseline", old)
    # A schema-1 entry is one accepted run: read, and too few on this class to gate a time ratio.
    assert r.returncode == 0 and r.stdout.count("n/a") == 2, r.stdout + r.stderr
    assert "1 accepted run(s) on host class" in r.stdout, r.stdout


def test_improve_scenario_with_too_few_rounds_to_ever_decide_is_refused(perfgate, burn, tmp_path):
    """An `improve` gate passes only when its rank test rejects: 4 fixed rounds never can (2/2^4 is
    above 0.05 at their one look), so the run is refused before anything starts, naming the minimum."""
    catalog = tmp_path / "catalog"
    add_scenario(catalog, burn, "spin", rounds=4)
    r = perfgate("run", "--catalog", catalog, "--baseline", "none", "--json", tmp_path / "r.json")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "needs at least 6 rounds" in r.stderr and "scenario.json" in r.stderr, r.stderr
    assert not (tmp_path / "r.json").exists()


KEYSET = pathlib.Path(__file__).resolve().parents[2] / "build" / "share" / "perfgate" / "scenarios" / "keyset_listing"
# keyset_listing with its AFTER's cursor put back outside the UNION: the copy's AFTER runs BEFORE's
# SQL (the bundled `before-with-indexes`) on AFTER's schema, so it keeps none of the improvement
# the committed baseline accepted. The scenario program itself is unchanged.
DEGRADED = """#!/bin/sh
for a in "$@"; do
  if [ "$prev" = "--variant" ] && [ "$a" = "after" ]; then a=before-with-indexes; fi
  set -- "$@" "$a"; shift; prev="$a"
done
exec {program} "$@"
"""


def test_keyset_listing_after_that_lost_its_improvement_fails_the_committed_baseline(perfgate, tmp_path):
    """A real degraded copy of a bundled scenario (real PostgreSQL, real queries) against the
    committed baseline.json: under --policy no-regress its own gates pass (same rows, not slower
    than BEFORE), and only the baseline gate can see that the improvement is gone — by the
    between-run rule on this host class. Against a copy whose runs name another host class the
    time ratio is not comparable (no rule may guess how far a machine moves it): n/a, exit 0.
    The copy keeps the scenario's sources digest, since its sources are the bundled ones and
    only its AFTER is swapped at run time: a baseline run of other sources would be stale."""
    program = KEYSET / "keyset_listing"
    if not program.exists():
        pytest.fail(f"{program} is missing: build first")
    if not any(pathlib.Path("/usr/lib/postgresql").glob("*/bin/postgres")):
        pytest.skip("no PostgreSQL server binaries (apt-get install postgresql)")
    d = tmp_path / "catalog" / "keyset_listing"
    d.mkdir(parents=True)
    (d / "degraded.sh").write_text(DEGRADED.format(program=program))
    (d / "degraded.sh").chmod(0o755)
    manifest = json.loads((ROOT / "scenarios" / "keyset_listing" / "scenario.json").read_text())
    manifest["program"] = "degraded.sh"
    manifest["variants"] = [v for v in manifest["variants"] if v["name"] in ("before", "after")]
    (d / "scenario.json").write_text(json.dumps(manifest))
    (d / "sources.sha256").write_text((KEYSET / "sources.sha256").read_text())

    # The committed runs were recorded on other machines: how far this machine moves the ratio
    # is unknown to the gate (gate/spread_rule.hpp), so they are presented as this machine's.
    probe = perfgate("ab", "--before", "true", "--after", "true", "--debug-samples", DATA / "deciding" / "aa.json",
                     "--json", tmp_path / "host.json")
    assert probe.returncode == 0, probe.stdout + probe.stderr
    here = json.loads((tmp_path / "host.json").read_text())["host"]
    mine = json.loads((ROOT / "baseline.json").read_text())
    for e in mine["entries"]:
        for h in [e["host"]] + [run["host"] for run in e.get("runs", [])]:
            h["cpu_model"], h["fingerprint"], h["cores"] = here["cpu_model"], here["fingerprint"], here["cores"]
    (tmp_path / "mine.json").write_text(json.dumps(mine))

    out = tmp_path / "r.json"
    # before-with-indexes is not BEFORE: a fresh-clone CI run measured it 1.13x of BEFORE, significant,
    # and on AMD EPYC family 26 once 1.13x [1.03, 1.2], its interval touching a 20% band (cannot tell);
    # a 35% noise band keeps the policy gate out of it, so the baseline gate is the one that decides.
    r = perfgate("run", "keyset_listing", "--catalog", tmp_path / "catalog", "--policy", "no-regress",
                 "--noise", "35", "--baseline", tmp_path / "mine.json", "--seed", "7", "--json", out)
    assert r.returncode == 1, r.stdout + r.stderr
    s = json.loads(out.read_text())["scenarios"][0]
    by_kind = {g["kind"]: g for g in s["gates"]}
    assert by_kind["equivalence"]["outcome"] == "passed"
    assert by_kind["policy"]["outcome"] == "passed", by_kind["policy"]  # ratio ~1, inside the band
    assert by_kind["baseline"]["outcome"] == "failed", by_kind["baseline"]
    assert "baseline gate failed" in r.stderr and "ms_per_page_p50" in r.stderr

    foreign = json.loads((ROOT / "baseline.json").read_text())
    for e in foreign["entries"]:
        for h in [e["host"]] + [run["host"] for run in e.get("runs", [])]:
            h["cpu_model"], h["fingerprint"] = "Another CPU", "0000000000000000"
    (tmp_path / "foreign.json").write_text(json.dumps(foreign))
    check = perfgate("baseline", "check", out, "--baseline", tmp_path / "foreign.json")
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.startswith("n/a") and "no comparable baseline" in check.stdout, check.stdout
    assert "0 accepted run(s) on host class" in check.stdout and "on Another CPU x2" in check.stdout, check.stdout

    # Runs of a class nobody here can measure again, recorded before the workload last changed
    # (the committed Intel Xeon runs), presented as this machine's: stale, said so, not compared.
    stale = json.loads((tmp_path / "mine.json").read_text())
    committed = json.loads((ROOT / "baseline.json").read_text())
    for e, c in zip(stale["entries"], committed["entries"]):
        e["runs"] = [r for r, rc in zip(e["runs"], c["runs"]) if "Xeon" in rc["host"]["cpu_model"]]
    (tmp_path / "stale.json").write_text(json.dumps(stale))
    check = perfgate("baseline", "check", out, "--baseline", tmp_path / "stale.json")
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.startswith("n/a") and "no comparable baseline" in check.stdout, check.stdout
    assert "stale accepted run(s) left out" in check.stdout, check.stdout
