"""`perfgate lies`: every declared lie runs against BEFORE and must be caught as declared
(exit 3, or its exact-count gate); a lie that is not caught, a wrong declaration or a scenario
without lies fails the command; a malformed `lies` entry is exit 2 naming file and key."""
import json
import pathlib
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
    rows = {(x["scenario"], x["lie"]): x for x in json.loads(out.read_text())}
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
    rows = {x["lie"]: x for x in json.loads(out.read_text())}
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
    liar_catalog.add_batch(tmp_path / "cat")
    r = perfgate("run", "--catalog", tmp_path / "cat", "--baseline", "none", "--quiet", "--out", tmp_path / "o",
                 timeout=300)
    assert r.returncode in (0, 1), r.stderr
    doc = json.loads((tmp_path / "o" / "results.json").read_text())
    cmds = json.dumps(doc["scenarios"][0]["commands"])
    assert "--lie" not in cmds
