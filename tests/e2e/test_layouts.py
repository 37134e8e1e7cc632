"""`perfgate ab --layouts K` (issue 50 step 1, docs/layout.md "Verdicts over layouts"): BEFORE and
AFTER each built in K layouts, the commands naming layout k's build with {layout}; one paired run
per layout, the verdict over the layouts (stats/layouts.hpp). Scripted samples with a layout
dimension give exact inputs ("layouts": per-layout speed offsets); one test runs real commands."""
import json
import os

import pytest

OFFSETS_A = [0.05, -0.03, 0.01, -0.05, 0.04, 0.0, -0.02, 0.03]
OFFSETS_B = [-0.04, 0.02, 0.05, -0.01, 0.0, -0.05, 0.03, 0.01]
STRICT = {"PERFGATE_CANNOT_TELL": "fail"}


def script(tmp_path, after_median, a=OFFSETS_A, b=OFFSETS_B, spread=0.035):
    f = tmp_path / "layouts.json"
    f.write_text(json.dumps({
        "before": {"cpu_ms": {"median": 100, "spread": spread, "layouts": a}},
        "after": {"cpu_ms": {"median": after_median, "spread": spread, "layouts": b}}}))
    return f


def ab(perfgate, tmp_path, *args, env=STRICT):
    return perfgate("ab", "--before", "true a{layout}", "--after", "true b{layout}", "--metric", "cpu_ms",
                    *args, cwd=tmp_path, env=env)


def effect(tmp_path):
    return json.loads((tmp_path / "perfgate-out" / "layouts.json").read_text())["layouts"]


def test_a_ten_percent_slowdown_over_eight_layouts_of_five_percent_is_worse(perfgate, tmp_path):
    r = ab(perfgate, tmp_path, "--layouts", 8, "--debug-samples", script(tmp_path, 110))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "ab over 8 layouts (3 paired rounds each): cpu_ms" in r.stdout
    assert ": worse (noise band ±2.0%; detectable over these layouts: +" in r.stdout
    assert "layout alone moves BEFORE ±" in r.stdout
    doc = effect(tmp_path)
    assert doc["effect"]["verdict"] == "worse" and doc["effect"]["ci"][0] > 1.02
    assert [run["layout"] for run in doc["runs"]] == list(range(1, 9))
    # Each layout's own results file, written where the summary says.
    for run in doc["runs"]:
        assert os.path.exists(tmp_path / run["results"]), run
    # The layouts' offsets reach the samples: half the range of BEFORE's ±5% offsets is about 5%.
    assert 0.035 < doc["effect"]["spread_before"] < 0.075


def test_layouts_that_dominate_say_more_layouts_not_more_rounds(perfgate, tmp_path):
    r = ab(perfgate, tmp_path, "--layouts", 4, "--debug-samples", script(tmp_path, 100))
    assert r.returncode == 5, r.stdout + r.stderr
    assert "cannot tell: more layouts, not more rounds, would decide it" in r.stdout
    assert effect(tmp_path)["effect"]["more_layouts"] is True


def test_no_change_over_quiet_layouts_is_not_worse(perfgate, tmp_path):
    quiet = [0.001, -0.001, 0.0, 0.002, -0.002, 0.001]
    r = ab(perfgate, tmp_path, "--layouts", 6, "--layout-rounds", 4,
           "--debug-samples", script(tmp_path, 100, quiet, quiet[::-1], spread=0.003))
    assert r.returncode == 0, r.stdout + r.stderr
    assert effect(tmp_path)["effect"]["verdict"] in ("the same", "not worse")
    assert "not worse" in r.stdout or "the same" in r.stdout


def test_cannot_tell_follows_the_cannot_tell_setting(perfgate, tmp_path):
    r = ab(perfgate, tmp_path, "--layouts", 4, "--debug-samples", script(tmp_path, 100),
           env={"PERFGATE_CANNOT_TELL": "pass"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert effect(tmp_path)["effect"]["verdict"] == "cannot tell"


@pytest.mark.parametrize("args, needle", [
    (["--layouts", 4, "--before", "true a", "--after", "true b"], "neither command names {layout}"),
    (["--layouts", 1, "--before", "true a{layout}", "--after", "true b{layout}"], "--layouts"),
    (["--layouts", 3, "--layout-rounds", 1, "--before", "true {layout}", "--after", "true {layout}"],
     "--layout-rounds"),
])
def test_bad_layout_requests_are_exit_2(perfgate, tmp_path, args, needle):
    r = perfgate("ab", *args, cwd=tmp_path)
    assert r.returncode == 2 and needle in r.stderr, r.stderr


def test_a_script_with_too_few_offsets_names_file_and_field(perfgate, tmp_path):
    r = ab(perfgate, tmp_path, "--layouts", 9, "--debug-samples", script(tmp_path, 100))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "layouts.json: after.cpu_ms.layouts: must be a list of 9 speed offsets or more" in r.stderr


def test_real_builds_per_layout_run_from_their_own_paths(perfgate, tmp_path):
    # Four "builds" of each side; AFTER's sleeps 0.1 s more: worse over layouts, by wall time.
    for k in range(1, 5):
        for side, body in (("a", "echo same"), ("b", "sleep 0.1; echo same")):
            d = tmp_path / f"{side}{k}"
            d.mkdir()
            (d / "prog").write_text(f"#!/bin/sh\n{body}\n")
            (d / "prog").chmod(0o755)
    r = perfgate("ab", "--layouts", 4, "--before", "./a{layout}/prog", "--after", "./b{layout}/prog",
                 "--metric", "wall_ms", cwd=tmp_path, env=STRICT)
    assert r.returncode == 1, r.stdout + r.stderr
    runs = effect(tmp_path)["runs"]
    assert len(runs) == 4 and all(run["ratio"] > 2 for run in runs)


def test_outputs_that_differ_in_one_layout_are_exit_3(perfgate, tmp_path):
    for k in range(1, 3):
        for side in "ab":
            d = tmp_path / f"{side}{k}"
            d.mkdir()
            (d / "prog").write_text(f"#!/bin/sh\necho {'other' if (side, k) == ('b', 2) else 'same'}\n")
            (d / "prog").chmod(0o755)
    r = perfgate("ab", "--layouts", 2, "--before", "./a{layout}/prog", "--after", "./b{layout}/prog",
                 cwd=tmp_path, env=STRICT)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "layout 2:" in r.stdout + r.stderr
