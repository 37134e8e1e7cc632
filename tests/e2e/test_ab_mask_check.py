"""`perfgate ab --mask REGEX` and `--check CMD` (issue 28): real programs print volatile parts
(timings, pids, paths, dates) or answers in an order that does not matter. A mask hides its
matches from the digest (stdout and the $PERFGATE_OUTPUT file), the results say what it masked
and how often, a mask matching nothing is a warning; a check command judges two outputs whose
digests differ, once per distinct pair. A difference elsewhere is still exit 3 with its first
differing line. No verdict here rides on timing: wall time is gated over 3 rounds, where the
signed-rank test cannot reject (p >= 2/2^3), and a gated wall time has no wall guard (gating
syscalls, the same in every round, still left the guard to judge 3 rounds of millisecond runs)."""
import json

ROUNDS = ["--metric", "wall_ms", "--min-rounds", "3", "--max-rounds", "3", "--warmup", "0"]
MASK = "took [0-9.]+ ms"


def script(path, body):
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def equivalence_gate(out):
    s = json.loads((out / "results.json").read_text())["scenarios"][0]
    return [g for g in s["gates"] if g["kind"] == "equivalence"][0], s


def test_a_mask_passes_programs_that_differ_only_in_the_masked_text(perfgate, tmp_path):
    before = script(tmp_path / "before.sh", 'echo sum 4950\necho "took $(date +%N) ms"\n')
    after = script(tmp_path / "after.sh", 'echo sum 4950\necho "took 0.$(date +%N) ms"\n'
                                          'echo "took 1 ms" > "$PERFGATE_OUTPUT"\n')
    bare = perfgate("ab", "--before", before, "--after", after, *ROUNDS, "--out", tmp_path / "bare")
    assert bare.returncode == 3, bare.stdout + bare.stderr
    assert "first differing line 2" in bare.stderr
    r = perfgate("ab", "--before", before, "--after", after, "--mask", MASK, *ROUNDS, "--out", tmp_path / "o")
    assert r.returncode == 3, r.stdout + r.stderr  # AFTER also wrote $PERFGATE_OUTPUT: compared too
    assert "$PERFGATE_OUTPUT" in r.stderr, r.stderr
    after = script(tmp_path / "after.sh", 'echo sum 4950\necho "took 0.$(date +%N) ms"\n')
    r = perfgate("ab", "--before", before, "--after", after, "--mask", MASK, *ROUNDS, "--out", tmp_path / "o")
    assert r.returncode == 0, r.stdout + r.stderr
    gate, s = equivalence_gate(tmp_path / "o")
    assert gate["outcome"] == "passed"
    # Timed runs write to /dev/null: what is masked is the digest runs' output, one per side and
    # digest round.
    n = len(s["sampling"]["digest_rounds"])
    assert n >= 2, s["sampling"]  # the first and the last round at least
    assert f"masked '{MASK}' {2 * n} times (after {n}, before {n})" in gate["detail"], gate
    assert f"outputs masked before digesting: --mask '{MASK}'" in s["notes"]
    # --output pipe digests every timed run, masked the same way.
    r = perfgate("ab", "--before", before, "--after", after, "--mask", MASK, "--output", "pipe", *ROUNDS,
                 "--out", tmp_path / "p")
    assert r.returncode == 0, r.stdout + r.stderr
    gate, _ = equivalence_gate(tmp_path / "p")
    assert f"masked '{MASK}' 6 times (after 3, before 3)" in gate["detail"], gate


def test_a_mask_does_not_hide_a_difference_elsewhere(perfgate, tmp_path):
    before = script(tmp_path / "before.sh", 'echo sum 4950\necho "took $(date +%N) ms"\n')
    after = script(tmp_path / "after.sh", 'echo sum 4951\necho "took 0.$(date +%N) ms"\n')
    r = perfgate("ab", "--before", before, "--after", after, "--mask", MASK, *ROUNDS, "--out", tmp_path / "o")
    assert r.returncode == 3, r.stdout + r.stderr
    assert "first differing line 1 (byte 7): before 'sum 4950', after 'sum 4951'" in r.stderr, r.stderr


def test_a_mask_that_matches_nothing_is_a_warning_and_a_bad_one_exit_2(perfgate, tmp_path):
    prog = script(tmp_path / "p.sh", "echo same\n")
    r = perfgate("ab", "--before", prog, "--after", prog, "--mask", "pid=[0-9]+", *ROUNDS, "--out", tmp_path / "o")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warning: ab: --mask 'pid=[0-9]+' matched nothing in any output" in r.stderr
    r = perfgate("ab", "--before", prog, "--after", prog, "--mask", "took [0-9", *ROUNDS)
    assert r.returncode == 2 and "--mask 'took [0-9': not a regular expression" in r.stderr, r.stderr


def test_check_judges_outputs_whose_digests_differ_once_per_pair(perfgate, tmp_path):
    log = tmp_path / "check.log"
    # The same answers in another order are the same work; other answers are not.
    check = script(tmp_path / "same_set.sh", f'echo "$1 $2" >> {log}\n'
                                             '[ "$(sort "$1")" = "$(sort "$2")" ] || { echo "not the same set"; exit 1; }\n')
    before = script(tmp_path / "before.sh", "echo b; echo a\n")
    after = script(tmp_path / "after.sh", "echo a; echo b\n")
    r = perfgate("ab", "--before", before, "--after", after, "--check", check, *ROUNDS, "--out", tmp_path / "o")
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(log.read_text().splitlines()) == 1  # one distinct pair of digests, judged once
    gate, s = equivalence_gate(tmp_path / "o")
    assert "--check judged 1 distinct pair(s) of digests, 1 the same work" in gate["detail"], gate
    other = script(tmp_path / "other.sh", "echo a; echo c\n")
    r = perfgate("ab", "--before", before, "--after", other, "--check", check, *ROUNDS, "--out", tmp_path / "o2")
    assert r.returncode == 3, r.stdout + r.stderr
    assert "first differing line 1 (byte 0): before 'b', after 'a'" in r.stderr, r.stderr
    assert "--check said they differ (exit 1: not the same set)" in r.stderr, r.stderr
