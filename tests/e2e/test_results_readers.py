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
    add_scenario(tmp / "catalog", burn, "reader", policy="no-regress", before=WORK // 8, after=WORK // 8, rounds=3)
    r = perfgate("run", "--catalog", tmp / "catalog", "--baseline", "none", "--seed", "3", "--json",
                 tmp / "good.json", "-q")
    assert r.returncode in (0, 1), r.stdout + r.stderr
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
        assert r.returncode in (0, 1), f"{name}: {r.stdout}{r.stderr}"
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
