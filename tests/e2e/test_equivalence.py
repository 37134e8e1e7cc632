"""Exit 3 through the CLI: a program that reports itself not equivalent, a batch AFTER whose
output differs, and service AFTERs whose answers differ (an empty body on a cache hit, a 500
now and then, the server's own "equivalent": false) — each with a message that names what
differed. The scenarios are tiny real programs (tests/e2e/liar_catalog.py)."""
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import liar_catalog  # noqa: E402


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    d = tmp_path_factory.mktemp("liars")
    liar_catalog.add_batch(d, **liar_catalog.EXACT)
    liar_catalog.add_service(d)
    return d


def run_lie(perfgate, catalog, tmp_path, scenario, lie=None):
    args = ["run", scenario, "--catalog", catalog, "--baseline", "none", "--quiet", "--out", tmp_path]
    if lie:
        args += ["--scenario-arg", "after=--lie", "--scenario-arg", f"after={lie}"]
    r = perfgate(*args, timeout=300)
    doc = json.loads((tmp_path / "results.json").read_text())
    return r, doc["scenarios"][0]


def test_a_program_reporting_not_equivalent_exits_3_with_its_reason(perfgate, catalog, tmp_path):
    r, s = run_lie(perfgate, catalog, tmp_path, "liar_batch", "stop-early")
    assert r.returncode == 3, r.stderr
    assert "after (round 1) reported not equivalent: wrote 100 of 200 rows" in r.stderr
    assert s["error"]["exit_code"] == 3
    assert "wrote 100 of 200 rows" in s["error"]["message"]
    assert s["stop"]["reason"] == "equivalence failed"


def test_a_line_with_only_the_verdict_still_exits_3_not_4(perfgate, catalog, tmp_path):
    r, s = run_lie(perfgate, catalog, tmp_path, "liar_batch", "bare-divergent")
    assert r.returncode == 3, r.stderr
    assert "reported not equivalent: the answer failed its own check" in r.stderr


def test_a_program_saying_not_equivalent_and_exiting_1_exits_3_not_4(perfgate, catalog, tmp_path):
    r, s = run_lie(perfgate, catalog, tmp_path, "liar_batch", "divergent-exit-1")
    assert r.returncode == 3, r.stderr
    assert "reported not equivalent: the answer failed its own check" in r.stderr
    assert s["error"]["exit_code"] == 3


def test_an_honest_after_passes_the_equivalence_gate(perfgate, catalog, tmp_path):
    r, s = run_lie(perfgate, catalog, tmp_path, "liar_batch")
    assert r.returncode == 0, r.stderr  # gated on the fsync count, the same on both sides
    gate = next(g for g in s["gates"] if g["kind"] == "equivalence")
    assert gate["outcome"] == "passed", gate


def test_a_service_whose_hits_answer_empty_bodies_exits_3_naming_path_request_and_byte(perfgate, catalog, tmp_path):
    r, s = run_lie(perfgate, catalog, tmp_path, "liar_service", "empty-hit")
    assert r.returncode == 3, r.stderr
    msg = s["error"]["message"]
    assert "GET /item/" in msg and "after (round 1, " in msg and "request #" in msg, msg
    assert "0-byte body" in msg and "first differing byte at offset 0" in msg, msg
    gate = next(g for g in s["gates"] if g["kind"] == "equivalence")
    assert gate["outcome"] == "failed" and gate["detail"] == msg


def test_a_service_answering_500_now_and_then_exits_3(perfgate, catalog, tmp_path):
    r, s = run_lie(perfgate, catalog, tmp_path, "liar_service", "error-rate")
    assert r.returncode == 3, r.stderr
    assert "got status 500" in s["error"]["message"]


def test_a_server_reporting_not_equivalent_at_exit_exits_3(perfgate, catalog, tmp_path):
    r, s = run_lie(perfgate, catalog, tmp_path, "liar_service", "self-report")
    assert r.returncode == 3, r.stderr
    assert "reported not equivalent: served 3 stale rows" in s["error"]["message"]


def test_an_honest_service_passes_and_the_gate_says_what_it_checked(perfgate, catalog, tmp_path):
    r, s = run_lie(perfgate, catalog, tmp_path, "liar_service")
    # rps over 2 rounds: the signed-rank test cannot reject on 2 pairs (p >= 0.5), and a service
    # has no wall_ms to guard, so no timing decides this run.
    assert r.returncode == 0, r.stderr
    gate = next(g for g in s["gates"] if g["kind"] == "equivalence")
    assert gate["outcome"] == "passed", gate
    assert "answers of 40 paths checked" in gate["detail"], gate["detail"]
    assert "2 variants" in gate["detail"], gate["detail"]
    # A service window is no single process: its steal is read over the window, on the server's
    # and the load generator's CPUs, and summarised per variant.
    for x in s["samples"]:
        assert x["steal_ms"] >= 0 and x["irq_ms"] >= 0 and isinstance(x["steal_flagged"], bool), x
    measured = sum(1 for x in s["samples"] if x["variant"] == "after" and not x["warmup"])
    assert s["steal"]["after"]["samples"] == measured > 0, s["steal"]
