"""hyperfine's options on `perfgate ab`, with hyperfine's names and meanings (issue 26;
docs/hyperfine.md). Real processes for what the options do; verdicts asserted only on scripted
samples (--debug-samples, data/ab_family/)."""
import csv
import json
import os
import pathlib
import subprocess

import pytest

DATA = pathlib.Path(__file__).parent / "data" / "ab_family"
# These tests are about what the options do, not verdicts on a loaded machine: wall time gated
# over 3 rounds, where the signed-rank test cannot reject (p >= 2/2^3) and wall time, being gated,
# has no guard, so a pair that runs passes whatever the timing.
FEW = ("--runs", "3", "--warmup", "0", "--metric", "wall_ms")


def results(path):
    return json.loads(pathlib.Path(path).read_text())


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "w"
    d.mkdir()
    (d / "data.txt").write_text("".join(f"row {i}\n" for i in range(500)))
    return d


def run_ab(perfgate, folder, *args):
    out = folder / "r.json"
    r = perfgate("ab", *args, "--json", out, "--quiet", cwd=folder)
    return r, (results(out) if out.exists() else None)


def test_positional_commands_are_a_pair(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "cat data.txt", "cat data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    [s] = doc["scenarios"]
    assert s["name"] == "ab" and s["commands"]["after"] == ["cat", "data.txt"]


def test_three_commands_make_two_pairs_against_the_first(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "cat data.txt", "head -n 500 data.txt", "tail -n 500 data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    # Each pair is named by its command as typed, never ab:2 (issue 41).
    assert [s["name"] for s in doc["scenarios"]] == ["head -n 500 data.txt", "tail -n 500 data.txt"]
    assert all(s["commands"]["before"] == ["cat", "data.txt"] for s in doc["scenarios"])
    assert doc["run"]["options"]["gated_comparisons"] == 2  # one Holm family


def test_reference_is_compared_with_each_command(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "--reference", "cat data.txt", "--reference-name", "plain cat",
                    "head -n 500 data.txt", "tail -n 500 data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert [s["commands"]["after"][0] for s in doc["scenarios"]] == ["head", "tail"]
    assert all(s["variants"][0]["label"] == "plain cat" for s in doc["scenarios"])


def test_prepare_and_conclude_run_around_each_run_setup_and_cleanup_once(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "--prepare", "echo p >> prepare.log", "--conclude", "echo c >> conclude.log",
                    "--setup", "echo s >> setup.log", "--cleanup", "echo c >> cleanup.log", "--output", "pipe",
                    "cat data.txt", "cat data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = lambda f: len((folder / f).read_text().splitlines())
    # pipe: every timed run is hashed, no digest runs; 3 rounds x 2 commands, no warm-up
    assert lines("prepare.log") == 6 and lines("conclude.log") == 6
    assert lines("setup.log") == 2 and lines("cleanup.log") == 2
    assert doc["scenarios"][0]["sampling"]["before"]["prepare"] == "echo p >> prepare.log"


def test_prepare_given_per_command(perfgate, folder):
    r, _ = run_ab(perfgate, folder, "-p", "echo a >> a.log", "-p", "echo b >> b.log", "--output", "pipe",
                  "cat data.txt", "cat data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len((folder / "a.log").read_text().splitlines()) == 3
    assert len((folder / "b.log").read_text().splitlines()) == 3
    r, _ = run_ab(perfgate, folder, "-p", "true", "-p", "true", "-p", "true", "cat data.txt", "cat data.txt")
    assert r.returncode == 2 and "once per command" in r.stderr


def test_failing_prepare_is_exit_4_with_its_stderr(perfgate, folder):
    r, _ = run_ab(perfgate, folder, "--prepare", "echo nope >&2; exit 3", "cat data.txt", "cat data.txt", *FEW)
    assert r.returncode == 4, r.stdout + r.stderr
    assert "--prepare" in r.stderr and "nope" in r.stderr


def test_parameter_scan_runs_a_pair_per_value(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "-P", "n", "1", "3", "head -n {n} data.txt", "head -n {n} data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert [s["name"] for s in doc["scenarios"]] == ["ab[n=1]", "ab[n=2]", "ab[n=3]"]
    assert [s["params"]["n"] for s in doc["scenarios"]] == [1, 2, 3]
    assert doc["scenarios"][2]["commands"]["before"] == ["head", "-n", "3", "data.txt"]


def test_one_command_with_a_parameter_compares_each_value_with_the_first(perfgate, folder):
    # hyperfine's most common scan: one command, -P; the first value is BEFORE of every pair
    # (the same output for every value, as the equivalence gate asks).
    r, doc = run_ab(perfgate, folder, "-P", "n", "1", "3", "sort --parallel={n} data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert [s["name"] for s in doc["scenarios"]] == ["ab[n=2]", "ab[n=3]"]
    assert [s["params"]["n"] for s in doc["scenarios"]] == [2, 3]
    assert [s["commands"]["before"] for s in doc["scenarios"]] == [["sort", "--parallel=1", "data.txt"]] * 2
    assert doc["scenarios"][1]["commands"]["after"] == ["sort", "--parallel=3", "data.txt"]
    one = perfgate("ab", "-L", "n", "1", "head -n {n} data.txt", cwd=folder)
    assert one.returncode == 2 and "two values at least" in one.stderr, one.stdout + one.stderr


def test_parameter_scan_family_gets_one_verdict_per_value(perfgate, tmp_path):
    out = tmp_path / "r.json"
    r = perfgate("ab", "-P", "n", "1", "3", "/bin/false {n}", "/bin/false {n}", "--metric", "cpu_ms",
                 "--debug-samples", DATA / "scan.json", "--seed", "1", "--json", out, cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    doc = results(out)
    verdicts = {s["params"]["n"]: [c for c in s["comparisons"] if c["gated"]][0]["verdict"] for s in doc["scenarios"]}
    assert verdicts == {1: "the same", 2: "worse", 3: "better"}
    # One Holm family over the three gated comparisons
    assert all(c["alpha_corrected"] < 0.05 / 3 for s in doc["scenarios"] for c in s["comparisons"] if c["gated"])
    assert "Each against the reference" in r.stdout
    assert "[n=2]" in r.stdout
    # The report plots the ratio over the parameter, in the family's first section.
    rep = perfgate("report", out, "-o", tmp_path / "report")
    assert rep.returncode == 0, rep.stdout + rep.stderr
    assert (tmp_path / "report" / "plots" / "01-ab-n-1--parameters.png").stat().st_size > 1000
    assert "plots/01-ab-n-1--parameters.png" in (tmp_path / "report" / "report.md").read_text()


def test_parameter_list_combinations(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "-L", "a", "1,2", "-L", "b", "x,y", "echo {a}{b}", "echo {a}{b}", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert [s["params"] for s in doc["scenarios"]] == [{"a": "1", "b": "x"}, {"a": "1", "b": "y"},
                                                       {"a": "2", "b": "x"}, {"a": "2", "b": "y"}]


def test_input_is_the_commands_stdin(perfgate, folder):
    r, _ = run_ab(perfgate, folder, "--input", "data.txt", "--before", "cat", "--after", "cat data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    r, _ = run_ab(perfgate, folder, "--input", "missing.txt", "cat", "cat")
    assert r.returncode == 2 and "missing.txt" in r.stderr


def test_null_output_compares_outputs_in_digest_runs(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "--runs", "5", "--warmup", "0", "--metric", "wall_ms", "echo a", "echo a")
    assert r.returncode == 0, r.stdout + r.stderr
    s = doc["scenarios"][0]
    rounds = s["sampling"]["digest_rounds"]
    assert rounds[0] == 1 and rounds[-1] == 5
    assert s["sampling"]["after"]["output"] == "null"
    assert any("digest runs" in n for n in s["notes"])
    r, _ = run_ab(perfgate, folder, "echo a", "echo b", *FEW)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "first differing line 1" in r.stderr


def test_pipe_output_hashes_every_timed_run(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "--output", "pipe", "echo a", "echo b", *FEW)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "'a'" in r.stderr and "'b'" in r.stderr
    r, doc = run_ab(perfgate, folder, "--output", "pipe", "cat data.txt", "cat data.txt", *FEW)
    assert r.returncode == 0
    assert "digest_rounds" not in doc["scenarios"][0]["sampling"]


def test_file_output_is_written_and_compared(perfgate, folder):
    r, _ = run_ab(perfgate, folder, "--output", "out.txt", "cat data.txt", "cat data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (folder / "out.txt").read_text() == (folder / "data.txt").read_text()


def test_show_output_prints_the_programs_output(perfgate, folder):
    r = perfgate("ab", "--show-output", "echo hello-from-the-program", "echo hello-from-the-program", *FEW,
                 "--json", folder / "r.json", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "hello-from-the-program" in r.stdout
    r = perfgate("ab", "--output", "inherit", "echo x", "echo x", *FEW, "--json", folder / "r.json", cwd=folder)
    assert r.returncode == 0 and "x\n" in r.stdout


def test_ignore_failure(perfgate, folder):
    r, _ = run_ab(perfgate, folder, "--shell", "exit 1", "exit 1", *FEW)
    assert r.returncode == 4, r.stdout + r.stderr
    r, _ = run_ab(perfgate, folder, "-i", "--shell", "exit 1", "exit 1", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    r, _ = run_ab(perfgate, folder, "--ignore-failure=2", "--shell", "exit 1", "exit 1", *FEW)
    assert r.returncode == 4, r.stdout + r.stderr
    r, _ = run_ab(perfgate, folder, "--ignore-failure=1,2", "--shell", "exit 1", "exit 1", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    r, _ = run_ab(perfgate, folder, "--ignore-failure=x", "true", "true")
    assert r.returncode == 2 and "not an exit code" in r.stderr


def test_command_names_and_time_unit_in_the_summary(perfgate, folder):
    r = perfgate("ab", "-n", "first", "-n", "second", "--time-unit", "microsecond", "cat data.txt", "cat data.txt",
                 *FEW, "--json", folder / "r.json", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "first" in r.stdout and "second" in r.stdout and "µs" in r.stdout
    doc = results(folder / "r.json")
    assert [v["label"] for v in doc["scenarios"][0]["variants"]] == ["first", "second"]


def test_exports(perfgate, folder):
    r = perfgate("ab", "--export-markdown", "t.md", "--export-csv", "t.csv", "--export-json", "t.json",
                 "-P", "n", "1", "2", "head -n {n} data.txt", "head -n {n} data.txt", *FEW, "--quiet", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    md = (folder / "t.md").read_text()
    assert md.startswith("| Command | Mean [") and "head -n 2 data.txt" in md
    rows = list(csv.DictReader((folder / "t.csv").open()))
    assert len(rows) == 4 and rows[0]["parameter_n"] == "1" and float(rows[0]["median"]) > 0
    # As hyperfine exports it: both commands at each value, the two typed alike kept apart.
    assert [r["parameters"] for r in results(folder / "t.json")["results"]] == [{"n": "1"}, {"n": "1"}, {"n": "2"},
                                                                               {"n": "2"}]


def shape(value):
    """The keys, types and nesting of a JSON value; perfgate's own key left out."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items() if k != "perfgate"}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


@pytest.mark.parametrize("args", [["true", "sleep 0.01"],
                                  ["-P", "n", "1", "2", "head -n {n} data.txt", "sed -n 1,{n}p data.txt"],
                                  ["true", "true"], ["true", "true", "true"], ["true", "sleep 0.01", "sleep 0.01"],
                                  ["-P", "n", "1", "3", "sleep 0.00{n}"],
                                  ["-L", "n", "1,1,1", "head -n {n} data.txt"]],
                         ids=["pair", "scan-of-two", "A-A", "A-A-A", "X-Y-Y", "one-command-scan", "equal-values"])
def test_export_json_is_hyperfines(perfgate, folder, args):
    # hyperfine's own file on the same commands is the reference of the format (issue 41): as many
    # results, in its order, commands typed alike each their own (issue 47).
    h = subprocess.run(["/usr/bin/hyperfine", "-N", "--runs", "3", "--export-json", "h.json", *args],
                       cwd=folder, capture_output=True, text=True, timeout=120)
    assert h.returncode == 0, h.stderr
    r = perfgate("ab", *FEW, "--export-json", "p.json", "--json", "r.json", *args, "--quiet", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    theirs, ours = results(folder / "h.json"), results(folder / "p.json")
    assert shape(ours) == shape(theirs)
    assert [x["command"] for x in ours["results"]] == [x["command"] for x in theirs["results"]]
    assert [x.get("parameters") for x in ours["results"]] == [x.get("parameters") for x in theirs["results"]]
    for x in ours["results"]:
        assert len(x["times"]) == 3 and x["exit_codes"] == [0, 0, 0]
        assert x["min"] <= x["median"] <= x["max"] < 5  # seconds, not milliseconds
    assert ours["results"][1]["perfgate"]["role"] == "compared"
    doc = results(folder / "r.json")
    assert doc["scenarios"][0]["kind"] == "ab"  # perfgate's own document, apart
    # Every pair is a scenario of its own in the results, named apart when two read alike.
    assert len(doc["scenarios"]) == len(ours["results"]) - len({(x["command"], str(x.get("parameters")))
                                                                 for x in ours["results"]
                                                                 if x["perfgate"]["role"] == "reference"})
    assert len({x["name"] for x in doc["scenarios"]}) == len(doc["scenarios"])
    # What a hyperfine user's script reads, on both files alike.
    for export in (theirs, ours):
        for i, x in enumerate(export["results"]):
            assert isinstance(x["command"], str) and x["mean"] > 0 and len(x["times"]) == 3, (i, x)


def test_results_go_to_perfgate_out_by_default(perfgate, folder):
    r = perfgate("ab", "cat data.txt", "cat data.txt", *FEW, "--quiet", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    assert results(folder / "perfgate-out" / "results.json")["scenarios"][0]["kind"] == "ab"


def test_runs_min_and_max(perfgate, folder):
    _, doc = run_ab(perfgate, folder, "-m", "3", "-M", "4", "--warmup", "0", "true", "true")
    assert 3 <= doc["scenarios"][0]["stop"]["rounds"] <= 4


@pytest.mark.parametrize("shell", ["--shell=bash", "--shell=bash --norc"])
def test_shell_with_a_name(perfgate, folder, shell):
    r, doc = run_ab(perfgate, folder, shell, "echo $BASH_VERSION", "echo $BASH_VERSION", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    argv = doc["scenarios"][0]["commands"]["before"]
    assert argv[0] == "bash" and argv[-2:] == ["-c", "echo $BASH_VERSION"]


@pytest.mark.parametrize("spelling", [["-S", "bash"], ["-Sbash"], ["--shell", "bash"], ["--shell=bash"],
                                      ["--shell", "/bin/bash --norc"]])
def test_every_shell_spelling_of_hyperfine(perfgate, folder, spelling):
    # `--shell bash` once ran `bash` as the reference command (issue 41); `-S` was unknown.
    r, doc = run_ab(perfgate, folder, *spelling, "echo $BASH_VERSION", "echo $BASH_VERSION", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    s = doc["scenarios"][0]
    assert len(doc["scenarios"]) == 1 and s["commands"]["before"][-2:] == ["-c", "echo $BASH_VERSION"]
    assert s["commands"]["before"][0].endswith("bash")


@pytest.mark.parametrize("spelling", [["-N"], ["--shell=none"], ["--shell", "none"], ["-S", "none"]])
def test_every_spelling_of_no_shell(perfgate, folder, spelling):
    r, doc = run_ab(perfgate, folder, *spelling, "cat data.txt", "head -n 500 data.txt", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert doc["scenarios"][0]["commands"]["before"] == ["cat", "data.txt"]


def test_a_bare_shell_still_runs_sh_with_the_command_after_it(perfgate, folder):
    r, doc = run_ab(perfgate, folder, "--shell", "echo a | tr a b", "echo b", *FEW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert doc["scenarios"][0]["commands"]["before"] == ["/bin/sh", "-c", "echo a | tr a b"]


def test_s_without_a_shell_is_a_usage_error(perfgate, folder):
    r = perfgate("ab", "true", "true", "-S", cwd=folder)
    assert r.returncode == 2
    assert r.stderr.startswith("perfgate: -S needs a shell"), r.stderr


def test_no_shell_flag(perfgate, folder):
    r, _ = run_ab(perfgate, folder, "-N", "cat data.txt", "cat data.txt", *FEW)
    assert r.returncode == 0
    r, _ = run_ab(perfgate, folder, "-N", "--shell", "true", "true")
    assert r.returncode == 2 and "choose one" in r.stderr


def test_a_failing_command_names_the_option_that_helps(perfgate, folder):
    r = perfgate("ab", "--runs", "3", "grep nomatch data.txt", "grep nomatch2 data.txt", cwd=folder)
    assert r.returncode == 4, r.stdout + r.stderr
    assert "grep exited with 1 (if that exit is expected, -i/--ignore-failure keeps going" in r.stderr, r.stderr


def test_style_and_sort_as_hyperfine_takes_them(perfgate, folder):
    r = perfgate("ab", *FEW, "--style", "none", "--sort", "command", "cat data.txt", "cat data.txt", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    r = perfgate("ab", *FEW, "--sort", "mean-time", "cat data.txt", "cat data.txt", cwd=folder)
    assert r.returncode == 2 and "mean-time is hyperfine's; perfgate keeps the commands' order" in r.stderr, r.stderr


def test_readable_usage_messages(perfgate, folder):
    r = perfgate("ab", "--before", "true", "--after", "true", "--after", "false", cwd=folder)
    assert r.returncode == 2
    assert "--after is given 2 times" in r.stderr and "perfgate ab CMD1 CMD2" in r.stderr
    r = perfgate("ab", "--frobnicate", "3", "true", "true", cwd=folder)
    assert r.returncode == 2
    assert "unknown option --frobnicate" in r.stderr
    r = perfgate("ab", "true", cwd=folder)
    assert r.returncode == 2 and "two commands at least" in r.stderr


def test_every_hyperfine_option_is_in_help(perfgate):
    out = perfgate("ab", "--help").stdout
    for flag in ["--prepare", "--conclude", "--setup", "--cleanup", "--parameter-scan", "--parameter-step-size",
                 "--parameter-list", "--input", "--output", "--show-output", "--runs", "--min-runs", "--max-runs",
                 "-N", "--command-name", "--time-unit", "--ignore-failure", "--reference", "--reference-name",
                 "--export-markdown", "--export-csv", "--export-json", "--workdir", "--isolate"]:
        assert flag in out, flag


def test_compare_names_both_runs_commands_and_warns_when_they_differ(perfgate, folder):
    run_ab(perfgate, folder, "cat data.txt", "head -n 500 data.txt", *FEW)
    (folder / "r.json").rename(folder / "old.json")
    run_ab(perfgate, folder, "cat data.txt", "tail -n 500 data.txt", *FEW)
    r = perfgate("compare", folder / "old.json", folder / "r.json")
    assert "Commands:" in r.stdout
    assert "head -n 500 data.txt" in r.stdout and "tail -n 500 data.txt" in r.stdout
    assert "ab/after ran 'head -n 500 data.txt' in the old run and 'tail -n 500 data.txt'" in r.stderr
    r = perfgate("compare", folder / "r.json", folder / "r.json")
    assert "warning" not in r.stderr


def allowed_list(text):
    return {line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Cpus_allowed_list")}


def test_commands_may_use_every_cpu_unless_pinned(perfgate, folder):
    # As under hyperfine: a command with threads of its own (zstd -dc reads and writes on a
    # second one) pinned to one CPU measured ~10% slower than it runs (docs/hyperfine.md).
    cmd = "grep Cpus_allowed_list /proc/self/status"
    r, doc = run_ab(perfgate, folder, cmd, cmd, *FEW, "--show-output")
    assert r.returncode == 0, r.stdout + r.stderr
    mine = pathlib.Path("/proc/self/status").read_text()
    assert allowed_list(r.stdout) == allowed_list(mine)
    assert doc["scenarios"][0]["cpus"] == sorted(os.sched_getaffinity(0))
    r, doc = run_ab(perfgate, folder, cmd, cmd, *FEW, "--show-output", "--cpus", "0")
    assert r.returncode == 0, r.stdout + r.stderr
    assert allowed_list(r.stdout) == {"0"} and doc["scenarios"][0]["cpus"] == [0]


def test_a_pair_that_stopped_keeps_its_level_when_another_runs_on(perfgate, tmp_path):
    # n=1 is clear at the first look; n=2, four times as noisy a round, runs on to stricter looks.
    # Each is decided at the level its own last test ran at, so n=1 stays "the same".
    out = tmp_path / "r.json"
    r = perfgate("ab", "-P", "n", "1", "2", "/bin/false {n}", "/bin/false {n}", "--metric", "cpu_ms",
                 "--debug-samples", DATA / "levels.json", "--seed", "1", "--json", out, cwd=tmp_path)
    doc = results(out)
    gated = {s["params"]["n"]: ([c for c in s["comparisons"] if c["gated"]][0], s["stop"]["rounds"])
             for s in doc["scenarios"]}
    (first, first_rounds), (second, second_rounds) = gated[1], gated[2]
    assert first["verdict"] == "the same", (first, r.stdout)
    assert first_rounds < second_rounds, (first_rounds, second_rounds)
    assert first["decision_alpha"] != second["decision_alpha"], (first, second)
