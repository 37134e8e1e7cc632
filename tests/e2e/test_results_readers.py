"""Every command that reads a results file (report, compare, merge, baseline, history) answers a
malformed one — a field of the wrong type, not only a missing one — with exit 2 and a message
naming the file and the field, and writes nothing."""
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from spin_catalog import WORK, add_scenario  # noqa: E402


@pytest.fixture(scope="module")
def good(perfgate, burn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("readers")
    # A real run (baseline update and history add refuse scripted ones) gated on the program's own
    # count of its work, the same on both sides, with no wall guard: it passes whatever the timing.
    add_scenario(tmp / "catalog", burn, "reader", policy="no-regress", before=WORK // 8, after=WORK // 8, rounds=3,
                 metric="work", guard={"metric": "none"})
    r = perfgate("run", "--catalog", tmp / "catalog", "--baseline", "none", "--seed", "3", "--json",
                 tmp / "good.json", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    return tmp, json.loads((tmp / "good.json").read_text())


# (what is broken, the field the message must name, how to break it)
BREAKS = [
    ("run.shard a number", "run.shard", lambda d: d["run"].__setitem__("shard", 7)),
    ("outcome a string", "outcome", lambda d: d.__setitem__("outcome", "passed")),
    ("a ratio as text", "scenarios[0].comparisons[0].ratio",
     lambda d: d["scenarios"][0]["comparisons"][0].__setitem__("ratio", "1.0x")),
    ("a sample value null", "scenarios[0].samples[0].metrics.wall_ms.value",
     lambda d: d["scenarios"][0]["samples"][0]["metrics"]["wall_ms"].__setitem__("value", None)),
    ("a median as text", "scenarios[0].summaries.after.wall_ms.median",
     lambda d: d["scenarios"][0]["summaries"]["after"]["wall_ms"].__setitem__("median", "fast")),
    ("git.dirty as text", "run.git.dirty", lambda d: d["run"]["git"].__setitem__("dirty", "no")),
    ("a gate's passed as text", "scenarios[0].gates[0].passed",
     lambda d: d["scenarios"][0]["gates"][0].__setitem__("passed", "yes")),
    # Found by fuzzing: nulls the codec could not decode came out as exit 4 and a JSON library message.
    ("outcome null", "outcome", lambda d: d.__setitem__("outcome", None)),
    ("a comparison's log_scale null", "scenarios[0].comparisons[0].log_scale",
     lambda d: d["scenarios"][0]["comparisons"][0].__setitem__("log_scale", None)),
    ("a sample's exit_code null", "scenarios[0].samples[0].exit_code",
     lambda d: d["scenarios"][0]["samples"][0].__setitem__("exit_code", None)),
]

READERS = {
    "report": lambda bad, tmp: ["report", bad, "-o", tmp / "report-out"],
    "compare": lambda bad, tmp: ["compare", tmp / "good.json", bad],
    "merge": lambda bad, tmp: ["merge", bad, "--allow-partial", "-o", tmp / "merged-out.json"],
    "baseline update": lambda bad, tmp: ["baseline", "update", bad, "--baseline", tmp / "baseline-out.json"],
    "baseline check": lambda bad, tmp: ["baseline", "check", bad, "--baseline", tmp / "baseline-out.json"],
    "history add": lambda bad, tmp: ["history", "add", bad, "--db", tmp / "history-out.sqlite"],
}


def test_the_good_file_is_read_by_every_reader(perfgate, good):
    tmp, _ = good
    for name in ("compare", "baseline update", "history add"):
        r = perfgate(*READERS[name](tmp / "good.json", tmp))
        assert r.returncode == 0, f"{name}: {r.stdout}{r.stderr}"
    for f in ("baseline-out.json", "history-out.sqlite"):
        (tmp / f).unlink(missing_ok=True)


@pytest.mark.parametrize("what,field,breaker", BREAKS, ids=[b[0] for b in BREAKS])
@pytest.mark.parametrize("reader", list(READERS))
def test_a_wrong_typed_field_is_exit_2_naming_file_and_field(perfgate, good, reader, what, field, breaker):
    tmp, doc = good
    broken = json.loads(json.dumps(doc))
    breaker(broken)
    bad = tmp / f"bad-{reader.replace(' ', '_')}.json"
    bad.write_text(json.dumps(broken))
    r = perfgate(*READERS[reader](bad, tmp))
    assert r.returncode == 2, f"{reader} on {what}: exit {r.returncode}\n{r.stdout}{r.stderr}"
    assert f"{bad}: {field}:" in r.stderr, r.stderr
    assert "json.exception" not in r.stderr
    for out in ("report-out", "merged-out.json", "baseline-out.json", "history-out.sqlite"):
        assert not (tmp / out).exists(), f"{reader} wrote {out} from a malformed file"


def gated_index(doc):
    return next(i for i, c in enumerate(doc["scenarios"][0]["comparisons"]) if c["gated"])


@pytest.fixture(scope="module")
def checked(perfgate, good):
    """The good run again, compared with a baseline made from the first: a file with the sections a
    baseline comparison adds (run.baseline, scenarios[].baseline[]), and that baseline."""
    tmp, _ = good
    accepted = tmp / "accepted.json"
    r = perfgate("baseline", "update", tmp / "good.json", "--baseline", accepted)
    assert r.returncode == 0, r.stdout + r.stderr
    r = perfgate("run", "--catalog", tmp / "catalog", "--baseline", accepted, "--seed", "4", "--json",
                 tmp / "checked.json", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    return tmp / "checked.json", accepted


def check(perfgate, doc, accepted, bad):
    bad.write_text(json.dumps(doc))
    return perfgate("baseline", "check", bad, "--baseline", accepted)


def checked_lines(r):
    """baseline check's one line per gated figure: PASS, FAIL, or n/a with the reason."""
    return [line for line in r.stdout.splitlines() if line[:4] in ("PASS", "FAIL", "n/a ")]


@pytest.mark.parametrize("where", ["ratio", "ci0", "ci1"])
def test_a_gated_comparisons_null_ratio_or_interval_end_is_exit_2_naming_it(perfgate, checked, tmp_path, where):
    results, accepted = checked
    doc = json.loads(results.read_text())
    g = gated_index(doc)
    comparison = doc["scenarios"][0]["comparisons"][g]
    if where == "ratio":
        comparison["ratio"] = None
    else:
        comparison["ci"][int(where[-1])] = None
    field = f"scenarios[0].comparisons[{g}]." + ("ratio" if where == "ratio" else f"ci[{where[-1]}]")
    r = check(perfgate, doc, accepted, tmp_path / "bad.json")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{tmp_path / 'bad.json'}: {field}: null in a gated comparison" in r.stderr, r.stderr


def test_a_null_ratio_over_a_before_that_measured_zero_is_shown_not_dropped(perfgate, checked, tmp_path):
    """The one null perfgate writes itself (a ratio of medians over zero) is read, and the check
    says it could not compare that figure instead of leaving it out."""
    results, accepted = checked
    doc = json.loads(results.read_text())
    comparison = doc["scenarios"][0]["comparisons"][gated_index(doc)]
    comparison["ratio"] = None
    doc["scenarios"][0]["summaries"][comparison["baseline"]][comparison["metric"]]["min"] = 0
    r = check(perfgate, doc, accepted, tmp_path / "zero.json")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = checked_lines(r)
    assert len(lines) == 1 and lines[0].startswith("n/a") and "not finite" in lines[0], r.stdout


def field_paths(value, at=()):
    """Every field of a results file, an array's first element standing for the rest (and every
    comparison, since which one is gated matters)."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        keep = len(value) if at[-1:] == ("comparisons",) else 1
        items = list(enumerate(value))[:keep]
    else:
        return
    for key, x in items:
        yield at + (key,)
        yield from field_paths(x, at + (key,))


def shape_path(path):
    """("scenarios", 0, "ci", 1) → scenarios[0].ci[1], as the readers name a field."""
    out = ""
    for k in path:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else k)
    return out


def test_every_field_nulled_in_turn_is_named_or_read_without_dropping_a_gated_figure(perfgate, checked, tmp_path):
    results, accepted = checked
    text = results.read_text()
    good = json.loads(text)
    same = check(perfgate, good, accepted, tmp_path / "same.json")
    assert same.returncode == 0, same.stdout + same.stderr
    expected = len(checked_lines(same))
    assert expected == 1
    bad = tmp_path / "nulled.json"
    problems = []
    for path in field_paths(good):
        doc = json.loads(text)
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        if parent[path[-1]] is None:
            continue
        parent[path[-1]] = None
        r = check(perfgate, doc, accepted, bad)
        # Refused (exit 2, naming the field), or read with the good file's verdict and its figure.
        if "json.exception" in r.stderr:
            problems.append(f"{shape_path(path)}: exit {r.returncode}: {r.stderr.strip()}")
        elif r.returncode == 2:
            if f"{bad}: {shape_path(path)}:" not in r.stderr:
                problems.append(f"{shape_path(path)}: exit 2 naming another field: {r.stderr.strip()}")
        elif r.returncode != same.returncode:
            problems.append(f"{shape_path(path)}: read, but exit {r.returncode}, not the good file's "
                            f"{same.returncode}: {r.stdout.strip()} {r.stderr.strip()}")
        elif len(checked_lines(r)) != expected:
            problems.append(f"{shape_path(path)}: read, but the gated figure is gone: {r.stdout.strip()}")
    assert not problems, "\n".join(problems)
