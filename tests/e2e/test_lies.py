"""`perfgate lies`: every declared lie runs against BEFORE and must be caught as declared
(exit 3, or its exact-count gate); a lie that is not caught, a wrong declaration or a scenario
without lies fails the command; a malformed `lies` or `threats` entry is exit 2 naming file and
key; the threat coverage table and JSON count threats, threats with a lie and lies caught, and
print each finding (a threat without a lie, a class not answered)."""
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import liar_catalog  # noqa: E402
from liar_catalog import lie  # noqa: E402


def test_every_declared_lie_is_caught_and_the_table_says_how(perfgate, tmp_path):
    liar_catalog.add_batch(tmp_path / "cat")
    liar_catalog.add_service(tmp_path / "cat")
    out = tmp_path / "lies.json"
    r = perfgate("lies", "--catalog", tmp_path / "cat", "--json", out, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {(x["scenario"], x["lie"]): x for x in json.loads(out.read_text())["lies"]}
    assert len(rows) == 6 and all(x["caught"] for x in rows.values()), rows
    assert rows[("liar_batch", "skip-fsync")]["how"] == "exact:fsyncs after=200,200 lie=199,199"
    assert rows[("liar_batch", "drop-row")]["how"].startswith("exit 3: equivalence gate failed")
    assert "GET /item/" in rows[("liar_service", "empty-hit")]["how"]
    assert "6 of 6 lies caught as declared" in r.stdout


def test_a_lie_that_is_not_caught_or_is_declared_wrongly_fails(perfgate, tmp_path):
    cat = tmp_path / "cat"
    liar_catalog.add_batch(cat, lies=[lie("no-op"), lie("drop-row", "exact:fsyncs"), lie("skip-fsync")])
    out = tmp_path / "lies.json"
    r = perfgate("lies", "liar_batch", "--catalog", cat, "--json", out, timeout=600)
    assert r.returncode == 1, r.stdout + r.stderr
    rows = {x["lie"]: x for x in json.loads(out.read_text())["lies"]}
    assert not rows["no-op"]["caught"] and rows["no-op"]["how"].startswith("NOT caught: exit")
    assert "declared exact:fsyncs but caught by equivalence" in rows["drop-row"]["how"]
    assert not rows["skip-fsync"]["caught"]  # changes no output: equivalence cannot see it
    assert "MISSED" in r.stdout


def test_a_scenario_without_lies_fails(perfgate, tmp_path):
    liar_catalog.add_batch(tmp_path / "cat", lies=[])
    r = perfgate("lies", "--catalog", tmp_path / "cat", timeout=60)
    assert r.returncode == 1
    assert "declares no lies" in r.stdout


def test_a_malformed_lie_is_exit_2_naming_file_and_key(perfgate, tmp_path):
    bad = dict(lie("drop-row"), because="typo")
    d = liar_catalog.add_batch(tmp_path / "cat", lies=[bad])
    r = perfgate("lies", "--catalog", tmp_path / "cat", timeout=60)
    assert r.returncode == 2
    assert str(d / "scenario.json") in r.stderr and "lies[0].because: unknown key" in r.stderr
    liar_catalog.add_batch(tmp_path / "cat", lies=[lie("drop-row", "exact:")])
    r = perfgate("lies", "--catalog", tmp_path / "cat", timeout=60)
    assert r.returncode == 2 and "lies[0].caught_by" in r.stderr


def test_lies_never_run_in_a_normal_run(perfgate, tmp_path):
    liar_catalog.add_batch(tmp_path / "cat", **liar_catalog.EXACT)
    r = perfgate("run", "--catalog", tmp_path / "cat", "--baseline", "none", "--quiet", "--out", tmp_path / "o",
                 timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "o" / "results.json").read_text())
    cmds = json.dumps(doc["scenarios"][0]["commands"])
    assert "--lie" not in cmds


def threats_of(answered, lies):
    """Every threat class: the `answered` ones as threats (class -> lie name or None), the rest n/a."""
    out = []
    for c in liar_catalog.THREAT_CLASSES:
        if c in answered:
            t = {"class": c, "threat": f"a {c} shortcut", "request": "every row"}
            if answered[c]:
                t["lie"] = answered[c]
            out.append(t)
        else:
            out.append({"class": c, "n/a": "the liar has no such part"})
    return out


def test_coverage_counts_threats_and_prints_each_finding(perfgate, tmp_path):
    cat = tmp_path / "cat"
    d = liar_catalog.add_batch(cat, lies=[lie("drop-row"), lie("no-op")])
    manifest = json.loads((d / "scenario.json").read_text())
    manifest["threats"] = threats_of({"io.content": "drop-row", "io.order": None, "query.last_page": "no-op"}, None)
    manifest["threats"] = [t for t in manifest["threats"] if t["class"] != "access.refusal"] + [
        {"class": "access.refusal", "threat": "a caller without the right answered",
         "request": "not asked yet: a caller without the right, untimed"}]
    (d / "scenario.json").write_text(json.dumps(manifest))
    out = tmp_path / "lies.json"
    r = perfgate("lies", "liar_batch", "--catalog", cat, "--json", out, timeout=600)
    assert r.returncode == 1, r.stdout + r.stderr  # no-op is not caught
    doc = json.loads(out.read_text())
    cov = doc["coverage"]["scenarios"][0]
    asked = cov.pop("asked")
    assert cov == {"scenario": "liar_batch", "threats": 4, "not_applicable": 15, "with_lie": 2, "threats_caught": 1,
                   "lies": 2, "lies_caught": 1}, cov
    assert asked == {c: "not asked" if c == "access.refusal" else "n/a" for c in liar_catalog.ASKED_CLASSES}, asked
    findings = doc["coverage"]["findings"]
    assert any("(io.order) has no lie: a io.order shortcut" in f for f in findings), findings
    assert any("its lie no-op was not caught as declared" in f for f in findings), findings
    assert any("(access.refusal) is not asked by the workload yet: a caller without" in f for f in findings), findings
    assert "threat coverage" in r.stdout and "3 finding(s):" in r.stdout
    assert "liar_batch        4   15      2 of 4          1 of 4       1 of 2" in r.stdout, r.stdout
    assert "what the workloads ask" in r.stdout
    assert re.search(r"liar_batch\s+n/a\s+not asked\s+n/a", r.stdout), r.stdout


def test_a_scenario_without_a_threat_list_is_a_finding(perfgate, tmp_path):
    liar_catalog.add_batch(tmp_path / "cat", lies=[lie("drop-row")])
    r = perfgate("lies", "--catalog", tmp_path / "cat", timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no threat list (`threats`)" in r.stdout


def test_a_malformed_threat_is_exit_2_naming_file_and_field(perfgate, tmp_path):
    d = liar_catalog.add_batch(tmp_path / "cat", lies=[lie("drop-row")])
    manifest = json.loads((d / "scenario.json").read_text())
    manifest["threats"] = [{"class": "io.content", "threat": "t", "request": "r", "lie": "drop-rows"}]
    (d / "scenario.json").write_text(json.dumps(manifest))
    r = perfgate("lies", "--catalog", tmp_path / "cat", timeout=60)
    assert r.returncode == 2
    assert str(d / "scenario.json") + ": threats[0].lie: no lie named 'drop-rows' (declared: drop-row)" in r.stderr


def test_repeat_runs_each_lie_that_many_times(perfgate, tmp_path):
    liar_catalog.add_batch(tmp_path / "cat", lies=[lie("drop-row")])
    out = tmp_path / "lies.json"
    r = perfgate("lies", "--catalog", tmp_path / "cat", "--repeat", "3", "--json", out, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    row = json.loads(out.read_text())["lies"][0]
    assert row["caught"] and row["how"].startswith("caught in 3 of 3 runs; exit 3"), row
