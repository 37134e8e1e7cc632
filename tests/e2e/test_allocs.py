"""End-to-end tests of allocation counts from outside (issue 16 item 1): the LD_PRELOAD counter
lib/libperfgate_alloc.so, counting samples run apart from the timed ones, `ab --allocs` and a
manifest's "measure". The subject, known_allocs N, makes exactly N mallocs of 100 bytes inside
its counting window, so every figure asserted here is exact, never a timing."""
import json
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import BUILD  # noqa: E402

KNOWN = BUILD / "libexec" / "perfgate" / "tests" / "known_allocs"
COUNTER = BUILD / "lib" / "libperfgate_alloc.so"

SCRIPT = """#!/bin/sh
# Scenario contract: PROGRAM run --variant V ...; BEFORE makes {before} allocations, AFTER {after}.
n={after}
while [ $# -gt 0 ]; do
  case "$1" in --variant) [ "$2" = before ] && n={before}; shift ;; esac
  shift
done
{known} "$n" >/dev/null || exit 1
echo '{{"digest": "same", "metrics": {{}}}}'
"""


def measured(doc):
    return [s for s in doc["scenarios"][0]["samples"] if not s["warmup"]]


def gate(doc, kind):
    return [g for g in doc["scenarios"][0]["gates"] if g["kind"] == kind][0]


def test_ab_allocs_reports_the_known_count_exactly(perfgate, tmp_path, validate):
    assert COUNTER.exists(), f"{COUNTER} is missing: build target perfgate_alloc"
    # Gated on wall time over 4 rounds (no rank test rejects on 4 pairs, and a gated wall time has
    # no guard): the run passes whatever the timing, and the counts are what is asserted.
    r = perfgate("ab", "--allocs", "--metric", "wall_ms", "--before", f"{KNOWN} 1000", "--after", f"{KNOWN} 1000",
                 "--seed", "3", "--min-rounds", "4", "--max-rounds", "4", "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(tmp_path / "r.json")
    samples = measured(doc)
    assert len(samples) == 8
    for s in samples:
        m = s["metrics"]
        assert m["allocs"]["value"] == 1000, s
        assert m["large_allocs"]["value"] == 0  # none of 1 MiB or more
        assert m["alloc_bytes"]["value"] == 100_000
        assert m["frees"]["value"] == 1000
        assert m["live_heap_bytes"]["value"] == 0  # all freed before the window closed
        assert 100_000 <= m["peak_heap_bytes"]["value"] < 200_000  # usable sizes, >= requested
        assert m["allocs"]["source"] == "preload:libperfgate_alloc"
        # The timed figures are there too: they came from the uninstrumented run.
        assert m["cpu_ms"]["value"] > 0
    assert doc["scenarios"][0]["primary_metric"] == "wall_ms"  # --metric names it: counted, not gated
    # Warm-up samples are not counted (no counting run for them).
    assert all("allocs" not in s["metrics"] for s in doc["scenarios"][0]["samples"] if s["warmup"])


def test_large_allocs_counts_the_buffers_of_a_mebibyte_or_more(perfgate, tmp_path):
    # 10 small and 3 of 2 MiB: a count of big work buffers (an Argon2id block) a program cannot relay.
    r = perfgate("ab", "--allocs", "--metric", "wall_ms", "--before", f"{KNOWN} 10 3", "--after", f"{KNOWN} 10 3",
                 "--seed", "3", "--min-rounds", "2", "--max-rounds", "2", "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stdout + r.stderr
    for s in measured(json.loads((tmp_path / "r.json").read_text())):
        assert s["metrics"]["allocs"]["value"] == 13
        assert s["metrics"]["large_allocs"]["value"] == 3


def test_ab_allocs_fails_an_after_that_allocates_more(perfgate, tmp_path):
    r = perfgate("ab", "--allocs", "--before", f"{KNOWN} 1000", "--after", f"{KNOWN} 1100",
                 "--seed", "4", "--json", tmp_path / "r.json")
    assert r.returncode == 1, r.stdout + r.stderr
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["scenarios"][0]["primary_metric"] == "allocs"  # --allocs gates the count it asks for
    assert gate(doc, "policy")["outcome"] == "failed" and gate(doc, "policy")["metric"] == "allocs"
    after = {s["metrics"]["allocs"]["value"] for s in measured(doc) if s["variant"] == "after"}
    assert after == {1100}


def write_scenario(catalog, name, measure, before=500, after=250, metric="allocs"):
    d = pathlib.Path(catalog) / name
    d.mkdir(parents=True)
    script = d / "allocs.sh"
    script.write_text(SCRIPT.format(known=KNOWN, before=before, after=after))
    script.chmod(0o755)
    (d / "scenario.json").write_text(json.dumps({
        "name": name, "title": f"{name}: {before} vs {after} allocations", "kind": "batch",
        "program": "allocs.sh", "policy": "improve", "primary_metric": metric, "measure": measure,
        "guard": {"metric": "none"},  # the counts decide, exactly; no wall time
        "variants": [{"name": "before"}, {"name": "after"}],
        "profiles": {"quick": {"params": {}, "min_rounds": 8, "max_rounds": 8, "warmup": 1}}}))


def test_manifest_opt_in_counts_only_the_windowed_process(perfgate, tmp_path, validate):
    # The scenario's program is a shell script around known_allocs: sh allocates too, but only
    # the process that marked a window counts, so the figure stays exact.
    write_scenario(tmp_path / "cat", "halved", {"allocs": True})
    r = perfgate("run", "halved", "--catalog", tmp_path / "cat", "--baseline", "none", "--seed", "5",
                 "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(tmp_path / "r.json")
    by_variant = {}
    for s in measured(doc):
        by_variant.setdefault(s["variant"], set()).add(s["metrics"]["allocs"]["value"])
    assert by_variant == {"before": {500}, "after": {250}}
    assert gate(doc, "policy")["outcome"] == "passed"


def test_a_bad_measure_field_is_a_usage_error_naming_file_and_field(perfgate, tmp_path):
    write_scenario(tmp_path / "cat", "bad", {"allocs": "yes"})
    r = perfgate("run", "bad", "--catalog", tmp_path / "cat", "--baseline", "none", "--out", tmp_path / "out")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "scenario.json" in r.stderr and "measure.allocs" in r.stderr
    assert not (tmp_path / "out" / "results.json").exists()


def test_counting_runs_are_apart_from_timed_ones(perfgate, tmp_path):
    # Each run appends what it was preloaded with: the timed runs (warm-up included) and the
    # digest runs had nothing, one more run per measured sample had the counter.
    log = tmp_path / "preloads"
    # cat is there to be counted: dash itself ends with _exit and never reports.
    cmd = f'echo "${{LD_PRELOAD:-none}}" >> {log}; cat /dev/null; echo same'
    # The subject is which runs were counted, not time: a wall guard over 3 rounds of a 1 ms shell
    # command failed a fresh-clone CI on a busy machine (1.31x). Wall time gated over 3 rounds has
    # no guard and no rank test can reject on 3 pairs, so this run passes whatever the timing.
    r = perfgate("ab", "--allocs", "--metric", "wall_ms", "--shell", "--before", cmd, "--after", cmd, "--seed", "8",
                 "--warmup", "1", "--min-rounds", "3", "--max-rounds", "3", "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = log.read_text().split()
    # Timed runs (warm-up included) and the untimed digest runs of both sides (--output null); the
    # warm-up (digest round 0) is its own digest run.
    rounds = json.loads((tmp_path / "r.json").read_text())["scenarios"][0]["sampling"]["digest_rounds"]
    assert rounds[0] == 0, rounds
    assert lines.count("none") == 2 * (1 + 3) + 2 * (len(rounds) - 1)
    assert len([x for x in lines if x.endswith("libperfgate_alloc.so")]) == 2 * 3


def test_a_static_binary_cannot_be_counted_and_says_so(perfgate, tmp_path):
    src = tmp_path / "static.c"
    src.write_text('#include <stdio.h>\n#include <stdlib.h>\n'
                   'int main(void) { char* p = malloc(10); puts("x"); free(p); return 0; }\n')
    exe = tmp_path / "static"
    if subprocess.run(["cc", "-static", "-o", str(exe), str(src)], capture_output=True).returncode != 0:
        pytest.skip("no static C library here")
    r = perfgate("ab", "--allocs", "--before", exe, "--after", exe, "--min-rounds", "2", "--max-rounds", "2",
                 "--json", tmp_path / "r.json")
    assert r.returncode == 4, r.stdout + r.stderr
    assert "statically linked" in r.stderr
