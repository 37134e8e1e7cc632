"""Exact tests of what perfgate decides, on scripted samples (`run` / `ab --debug-samples FILE`,
harness/src/run/sample_script.hpp; the scripts and a catalog are in data/deciding/): the stopping
rule's looks, Holm across scenarios, the policy and guard gates, equivalence, exit codes and their
ranking, the verdict table and JUnit. No program runs (the commands are /bin/false, so one that
ran would fail its scenario with exit 4), so no assertion rests on this machine's timing: every
figure asserted is the one the rules give for the script, restated here where it is not obvious."""
import json
import math
import pathlib
import statistics

import pytest

DATA = pathlib.Path(__file__).parent / "data" / "deciding"
CATALOG = DATA / "catalog"
NOISE = 0.02  # the default band


def ab(perfgate, tmp_path, script, *extra):
    out = tmp_path / "results.json"
    r = perfgate("ab", "--before", "/bin/false", "--after", "/bin/false", "--debug-samples", DATA / script,
                 "--seed", "1", "--json", out, *extra)
    return r, json.loads(out.read_text())


def run(perfgate, tmp_path, script, *scenarios, extra=()):
    out = tmp_path / "results.json"
    r = perfgate("run", "--catalog", CATALOG, *scenarios, "--debug-samples", DATA / script, "--baseline", "none",
                 "--seed", "1", "--json", out, *extra)
    return r, json.loads(out.read_text())


def gated(scenario):
    [c] = [c for c in scenario["comparisons"] if c["gated"]]
    return c


def table_row(stdout, scenario, gate):
    """The verdict-table row of a scenario's gate as its words (the columns are padded to the
    widest cell; a gate may be several words: "same work", "claim 3x")."""
    [row] = [l.split() for l in stdout.splitlines() if l.split()[:1 + len(gate.split())] == [scenario, *gate.split()]]
    return row


# The rules, restated from the docs (docs/architecture.md, "Statistics"), to say where a script
# must stop without reading the results: the look schedule (stats/sequential.cpp), the exact
# signed-rank p and the Walsh interval that inverts it (stats/rank_tests.*, stats/walsh.*).

def look_schedule(min_rounds, max_rounds, looks=4):
    span, steps = max_rounds - min_rounds, looks - 1
    return sorted({min_rounds + (2 * k * span + steps) // (2 * steps) for k in range(looks)})


def signed_rank_counts(n):
    """How many of the 2^n sign patterns of ranks 1..n give each W+."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    for rank in range(1, n + 1):
        for s in range(len(counts) - 1, rank - 1, -1):
            counts[s] += counts[s - rank]
    return counts


def signed_rank_p(r):
    """Two-sided exact p of log-ratios with distinct magnitudes (the scripts have no ties)."""
    ranks = {x: i + 1 for i, x in enumerate(sorted(r, key=abs))}
    w = sum(ranks[x] for x in r if x > 0)
    counts = signed_rank_counts(len(r))
    return min(1.0, 2 * min(sum(counts[:w + 1]), sum(counts[w:])) / 2 ** len(r))


def walsh_interval(r):
    counts, n = signed_rank_counts(len(r)), len(r)
    k = 1
    while k < n * (n + 1) // 4 and sum(counts[:k + 1]) / 2 ** n <= 0.025:
        k += 1
    w = sorted((r[i] + r[j]) / 2 for i in range(n) for j in range(i, n))
    return math.exp(w[k - 1]), math.exp(w[-k])


def decided(r, level):
    lo, hi = walsh_interval(r)
    outside = hi < 1 - NOISE or lo > 1 + NOISE
    inside = lo >= 1 - NOISE and hi <= 1 + NOISE
    return (outside and signed_rank_p(r) < level) or inside


def test_an_aa_pair_passes_at_the_first_look_and_states_its_detectable_effect(perfgate, tmp_path):
    r, doc = ab(perfgate, tmp_path, "aa.json")
    assert r.returncode == 0, r.stdout + r.stderr
    s = doc["scenarios"][0]
    assert doc["outcome"]["status"] == "passed"
    # ab's budgeted design: looks at 8, 9, 10, 12, ... rounds; the interval lies inside the band at the first.
    assert s["stop"] == {"looks": [8], "reason": "clear at look 1 (round 8)", "rounds": 8}
    c = gated(s)
    assert c["metric"] == "cpu_ms" and s["metric_choice"]["metric"] == "cpu_ms"  # both sides CPU-bound
    assert c["verdict"] == "the same"
    assert 1 - NOISE <= c["ci"][0] and c["ci"][1] <= 1 + NOISE
    # ln(1 + d) = ln(1 + noise) + (z(1 - a/2) + z(0.8)) * sd * sqrt(pi/3) / sqrt(n), with a the first
    # look's level: what the budget's spending function has spent at 8 of its 640 rounds
    # (stats/spending.hpp budgeted_spending; scripted rounds take no time, so rounds set the share).
    first_look = 0.05 * (0.16 + 0.56 * math.log1p((math.e - 1) * 8 / 640))
    assert c["alpha_corrected"] == pytest.approx(first_look, rel=1e-9)
    z = statistics.NormalDist().inv_cdf
    before = [x["metrics"]["cpu_ms"]["value"] for x in s["samples"] if x["variant"] == "before" and not x["warmup"]]
    after = [x["metrics"]["cpu_ms"]["value"] for x in s["samples"] if x["variant"] == "after" and not x["warmup"]]
    logs = [math.log(a / b) for a, b in zip(after, before)]
    shift = (z(1 - c["alpha_corrected"] / 2) + z(0.8)) * statistics.stdev(logs) * math.sqrt(math.pi / 3 / len(logs))
    assert c["detectable_effect"] == pytest.approx(math.expm1(math.log1p(NOISE) + shift), rel=1e-9)
    row = table_row(r.stdout, "ab", "no-regress")
    assert row[2] == "cpu_ms" and f"{100 * c['detectable_effect']:.1f}%" in row and row[-3:] == ["the", "same", "PASS"], row


def test_a_run_of_scripted_samples_says_so_everywhere(perfgate, tmp_path):
    r, doc = ab(perfgate, tmp_path, "aa.json", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    assert doc["run"]["options"]["debug_samples"] == str(DATA / "aa.json")
    s = doc["scenarios"][0]
    assert {m["source"] for x in s["samples"] for m in x["metrics"].values()} == {"scripted"}
    assert any("no program ran" in n for n in s["notes"]), s["notes"]
    assert "--debug-samples" in r.stderr and "no program runs" in r.stderr  # even with -q


def test_an_after_10_percent_slower_exits_1_worse_at_the_first_look(perfgate, tmp_path):
    r, doc = ab(perfgate, tmp_path, "slower_10pct.json", "--junit", tmp_path / "junit.xml")
    assert r.returncode == 1, r.stdout + r.stderr
    s = doc["scenarios"][0]
    assert s["stop"] == {"looks": [8], "reason": "clear at look 1 (round 8)", "rounds": 8}
    c = gated(s)
    # Every one of the 8 rounds slower: W+ is the largest of 2^8 sign patterns, p = 2 / 2^8 =
    # 0.0078, below the first look's level (0.0086); one comparison, so Holm leaves it as it is.
    assert c["metric"] == "cpu_ms" and c["verdict"] == "worse"
    assert c["p_wilcoxon"] == 2 / 2 ** 8 and c["p_wilcoxon_adjusted"] == 2 / 2 ** 8
    assert c["wilcoxon_method"] == "exact" and c["ci"][0] > 1 + NOISE
    # The wall guard: AFTER's wall is 1.05x, inside its band of at least 10%, so only the policy fails.
    gates = {g["kind"]: g["outcome"] for g in s["gates"]}
    assert gates == {"equivalence": "passed", "policy": "failed", "guard": "passed"}
    assert (doc["outcome"]["exit_code"], doc["outcome"]["status"]) == (1, "failed")
    assert "ab: policy gate failed: after/before cpu_ms 1.1x" in r.stderr
    assert table_row(r.stdout, "ab", "no-regress")[-2:] == ["worse", "FAIL"]
    assert table_row(r.stdout, "ab", "guard")[-3:] == ["within", "+10.0%", "PASS"]
    junit = (tmp_path / "junit.xml").read_text()
    assert junit.count("<failure ") == 1 and 'name="policy: no-regress on cpu_ms"' in junit


def test_the_sequential_rule_stops_at_the_first_look_that_decides(perfgate, tmp_path):
    script = json.loads((DATA / "seq.json").read_text())["scenarios"]["seq"]
    logs = [math.log(a / script["before"]["cpu_ms"]) for a in script["after"]["cpu_ms"]]
    looks = look_schedule(8, 30)
    assert looks == [8, 15, 23, 30]
    # One gated comparison at alpha / 4 looks. Rounds 1-8 go both ways (p 0.84); with 7 rounds
    # 10% slower, the 4 faster ones still hold p at 0.0215 at 15 rounds; at 23 it is 8.8e-05
    # and the interval lies above the band.
    first = next(i for i, n in enumerate(looks) if decided(logs[:n], 0.05 / 4))
    assert (first, looks[first]) == (2, 23)

    r, doc = run(perfgate, tmp_path, "seq.json", "seq")
    assert r.returncode == 1, r.stdout + r.stderr
    s = doc["scenarios"][0]
    assert s["stop"] == {"looks": [8, 15, 23], "reason": "clear at look 3 (round 23)", "rounds": 23}
    assert len(s["samples"]) == 2 * (1 + 23)  # one warm-up round
    c = gated(s)
    assert c["verdict"] == "worse" and c["n"] == 23
    assert c["p_wilcoxon"] == pytest.approx(signed_rank_p(logs[:23]), rel=1e-12)
    assert c["ci"] == pytest.approx(list(walsh_interval(logs[:23])), rel=1e-12)


def test_holm_steps_down_to_decide_the_borderline_comparison(perfgate, tmp_path):
    # A family of two gated comparisons, one look of 6 fixed rounds each: one look, so the whole
    # alpha 0.05 (issue 47), each state a one-sided test at 0.025. holm_a's AFTER is 1.1x in every
    # round (zero spread, p = 0); holm_b's 6 slower rounds give two-sided p = 2 / 2^6 = 0.031
    # (one-sided 0.0156). Bonferroni would double it past the level (0.0625 > 0.05); Holm's second
    # step multiplies by 1, so holm_b is worse too.
    r, doc = run(perfgate, tmp_path, "holm_one_borderline.json", "holm_a", "holm_b", extra=("--junit", tmp_path / "j.xml"))
    assert r.returncode == 1, r.stdout + r.stderr
    assert doc["run"]["options"]["alpha_per_look"] == 0.05 and doc["run"]["options"]["gated_comparisons"] == 2
    a, b = (gated(s) for s in doc["scenarios"])
    assert (a["p_wilcoxon"], a["p_wilcoxon_adjusted"], a["wilcoxon_method"]) == (0, 0, "zero-spread")
    assert (b["p_wilcoxon"], b["p_wilcoxon_adjusted"]) == (2 / 2 ** 6, 2 / 2 ** 6)
    assert a["verdict"] == b["verdict"] == "worse"
    # The detectable effect at Holm's strictest step, 0.05 / 2: zero spread resolves the band
    # itself; 6 rounds with spread are below that level's floor of 7 (2 / 2^n < 0.025).
    assert (a["alpha_corrected"], a["detectable_effect"], b["detectable_effect"]) == (0.025, NOISE, None)
    assert table_row(r.stdout, "holm_a", "no-regress") == \
        ["holm_a", "no-regress", "cpu_ms", "*", "10.0", "ms", "11.0", "ms", "1.1x", "[1.1,", "1.1]", "2.0%", "worse", "FAIL"]
    assert table_row(r.stdout, "holm_b", "no-regress")[-5:] == ["too", "few", "rounds", "worse", "FAIL"]
    assert "(Holm 0.031)" in r.stderr
    assert (tmp_path / "j.xml").read_text().count("<failure ") == 2


def test_holm_leaves_two_borderline_comparisons_undecided(perfgate, tmp_path):
    # Both at p = 2 / 2^6: Holm's first step doubles the smaller, and the running maximum carries
    # it to the second, so both are 0.0625, above 0.05: neither worse nor the same, so cannot tell
    # (exit 5), never a pass.
    r, doc = run(perfgate, tmp_path, "holm_two_borderline.json", "holm_a", "holm_b",
                 extra=("--cannot-tell", "fail"))
    assert r.returncode == 5, r.stdout + r.stderr
    assert doc["outcome"]["status"] == "cannot tell"
    for s in doc["scenarios"]:
        c = gated(s)
        assert (c["p_wilcoxon"], c["p_wilcoxon_adjusted"]) == (2 / 2 ** 6, 2 * 2 / 2 ** 6)
        assert c["verdict"] == "cannot tell" and c["ci"][0] > 1 + NOISE
        policy = [g for g in s["gates"] if g["kind"] == "policy"][0]
        assert policy["outcome"] == "cannot tell" and "passed" not in policy, policy


def test_an_after_with_another_digest_exits_3(perfgate, tmp_path):
    r, doc = ab(perfgate, tmp_path, "other_digest.json")
    assert r.returncode == 3, r.stdout + r.stderr
    s = doc["scenarios"][0]
    # Measured round 5 (round 6, after one warm-up) is the first whose AFTER reports "other".
    assert s["stop"] == {"looks": [], "reason": "equivalence failed", "rounds": 4}
    assert s["error"]["exit_code"] == 3 and "after (round 6) digest other differs from" in s["error"]["message"]
    assert [(g["kind"], g["outcome"]) for g in s["gates"]] == [("equivalence", "failed")]  # no performance verdict
    assert table_row(r.stdout, "ab", "same work")[-3:] == ["different", "output", "FAIL"]


@pytest.mark.parametrize("scenarios, code", [
    (("rank_equiv", "rank_crash", "rank_slow"), 3),
    (("rank_crash", "rank_slow"), 4),
    (("rank_slow",), 1),
])
def test_exit_codes_rank_3_over_4_over_1(perfgate, tmp_path, scenarios, code):
    r, doc = run(perfgate, tmp_path, "ranks.json", *scenarios)
    assert r.returncode == code, r.stdout + r.stderr
    assert doc["outcome"]["exit_code"] == code
    by_name = {s["name"]: s for s in doc["scenarios"]}
    assert list(by_name) == list(scenarios)
    if "rank_equiv" in by_name:
        assert by_name["rank_equiv"]["error"]["exit_code"] == 3
    if "rank_crash" in by_name:  # measured round 3 of AFTER "exited with 1": round 4 with the warm-up
        assert by_name["rank_crash"]["error"]["exit_code"] == 4
        assert "rank_crash, round 4, variant after: exited with 1" in by_name["rank_crash"]["error"]["message"]
    assert gated(by_name["rank_slow"])["verdict"] == "worse"  # decided whatever else failed
    assert len(doc["outcome"]["failures"]) == len(scenarios)


def test_scripted_results_never_become_a_baseline_or_history(perfgate, tmp_path):
    r, _ = ab(perfgate, tmp_path, "aa.json", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    results = tmp_path / "results.json"
    for args in (("baseline", "update", results, "--baseline", tmp_path / "baseline.json"),
                 ("history", "add", results, "--db", tmp_path / "history.sqlite")):
        refused = perfgate(*args)
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert f"{results}: run.options.debug_samples: the samples were scripted" in refused.stderr, refused.stderr
    assert not (tmp_path / "baseline.json").exists() and not (tmp_path / "history.sqlite").exists()


@pytest.mark.parametrize("script, message", [
    ({"before": {"cpu_ms": "fast"}, "after": {"cpu_ms": 1}}, "before.cpu_ms: must be a number, a list of numbers"),
    ({"before": {"cpu_ms": [1, -2]}, "after": {"cpu_ms": 1}}, "before.cpu_ms[1]: must be a number >= 0"),
    ({"before": {"cpu_ms": {"median": 1, "spread": 1.5}}, "after": {"cpu_ms": 1}}, "before.cpu_ms.spread: must be below 1"),
    ({"before": {"cpu_ms": 1, "digest": 7}, "after": {"cpu_ms": 1}}, "before.digest: must be a string"),
    ({"before": {"cpu_ms": 1}}, "after: not scripted, and scenario ab runs variant after"),
    ({"scenarios": {"other": {"before": {"cpu_ms": 1}}}}, "scenarios.ab: not scripted"),
])
def test_a_malformed_script_is_exit_2_before_anything_runs(perfgate, tmp_path, script, message):
    f = tmp_path / "script.json"
    f.write_text(json.dumps(script))
    r = perfgate("ab", "--before", "/bin/false", "--after", "/bin/false", "--debug-samples", f,
                 "--json", tmp_path / "r.json")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{f}: {message}" in r.stderr, r.stderr
    assert not (tmp_path / "r.json").exists()


def test_the_flag_is_hidden_and_only_on_run_and_ab(perfgate):
    for cmd in ("run", "ab"):
        help_text = perfgate(cmd, "--help")
        assert help_text.returncode == 0 and "--debug-samples" not in help_text.stdout
    r = perfgate("batch", "plan.json", "--lock", "l", "--prebuilt", ".", "--debug-samples", DATA / "aa.json")
    # Not on batch: the perf VM's queue is for measurements.
    assert r.returncode == 2 and "--debug-samples" in r.stderr, r.stdout + r.stderr


def test_a_run_that_has_failed_stops_taking_rounds(perfgate, tmp_path):
    """The `sort --parallel=1` shape (issue 48): the same CPU, 1.69x the wall. The guard fails at
    the first look; more rounds cannot turn the run green, so none are taken, and the CPU gate
    they would have decided says why it cannot tell. --decide-all runs on until it is decided."""
    r, doc = ab(perfgate, tmp_path, "wall_trade.json", "--metric", "cpu_ms")
    assert r.returncode == 1, r.stdout + r.stderr
    s = doc["scenarios"][0]
    assert s["stop"]["rounds"] == 8
    assert s["stop"]["reason"] == "failed at look 1 (round 8): a gate had decided against AFTER"
    gates = {g["kind"]: g for g in s["gates"]}
    assert gates["guard"]["outcome"] == "failed"
    assert gates["policy"]["outcome"] == "cannot tell"
    assert gates["policy"]["detail"].endswith(
        "stopped early at round 8: a gate had decided against AFTER (--decide-all decides every comparison)")
    r, doc = ab(perfgate, tmp_path, "wall_trade.json", "--metric", "cpu_ms", "--decide-all")
    assert r.returncode == 1, r.stdout + r.stderr
    s = doc["scenarios"][0]
    assert s["stop"]["rounds"] > 8 and s["stop"]["reason"].startswith("clear at look"), s["stop"]
    assert {g["kind"]: g for g in s["gates"]}["policy"]["outcome"] == "passed"
    assert doc["run"]["options"]["decide_all"] is True
