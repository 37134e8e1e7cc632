"""`perfgate report A B` renders what `perfgate compare A B --json` computed: on the same two
files both flag the same rows (scenario, variant, metric) with the same verdicts and print the
same p-values, to the character (the report computes none of its own). A is a run of scripted
A/A samples; B is A with AFTER's CPU and wall figures made 1.5x and BEFORE's wall figures 1.05x,
beyond the noise for one (1% spread: flagged higher) and within it for two (5% spread: ~), so
there are rows of every kind."""
import json
import pathlib
import re
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from spin_catalog import WORK, add_scenario  # noqa: E402


def aa_script(path):
    """Scripted A/A samples of one and two (run/sample_script.hpp): A is then the same file on every
    machine. two's wall time spreads 5% where one's spreads 1%."""
    def variant(wall_spread):
        return {"cpu_ms": {"median": 20, "spread": 0.01}, "user_ms": {"median": 19, "spread": 0.01},
                "wall_ms": {"median": 21, "spread": wall_spread}}
    path.write_text(json.dumps({"scenarios": {name: {"before": variant(spread), "after": variant(spread)}
                                              for name, spread in (("one", 0.01), ("two", 0.05))}}))
    return path


@pytest.fixture(scope="module")
def runs(perfgate, burn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("agree")
    for name in ("one", "two"):
        add_scenario(tmp / "catalog", burn, name, policy="no-regress", before=WORK // 16, after=WORK // 16, rounds=6)
    r = perfgate("run", "--catalog", tmp / "catalog", "--baseline", "none", "--seed", "5", "--json", tmp / "a.json",
                 "-q", "--debug-samples", aa_script(tmp / "aa.json"))
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads((tmp / "a.json").read_text())
    for s in doc["scenarios"]:
        for x in s["samples"]:
            factor = {"after": 1.5, "before": 1.05}.get(x["variant"], 1.0)
            for m in ("cpu_ms", "wall_ms", "user_ms"):
                if m in x["metrics"] and (x["variant"] == "after" or m == "wall_ms"):
                    x["metrics"][m]["value"] *= factor
    (tmp / "b.json").write_text(json.dumps(doc))
    return tmp


def flagged_by_compare(diff):
    """compare's verdicts as people read them: a row its gate judges says better or worse; any
    other row only which way it moved (higher, lower)."""
    judged = {g["row"] for g in diff["gate"]["rows"]}
    return {(r["scenario"], r["variant"], r["metric"]):
            r["verdict"] if i in judged else ("higher" if r["change"] > 1 else "lower")
            for i, r in enumerate(diff["rows"]) if r["verdict"] != "~"}


def flagged_by_report(markdown):
    out, scenario = {}, None
    for line in markdown.splitlines():
        if line.startswith("## "):
            scenario = line[3:].strip()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if scenario and len(cells) == 8 and cells[0] not in ("variant", "---"):
            flag = cells[-1].strip("*")
            if flag != "~":
                out[(scenario, cells[0], cells[1].strip("*"))] = flag
    return out


def p_values_printed_by_compare(stdout):
    """(scenario, variant, metric) -> "P (Holm Q)" of compare's tables, and of its gate's."""
    rows, gate, metric, in_gate = {}, {}, None, False
    for line in stdout.splitlines():
        head = re.match(r"^(\w+) \(.*is better\)$", line)
        if head:
            metric = head.group(1)
        in_gate = in_gate or line.startswith("gate:")
        m = re.match(r"^(\S+)/(\S+)\s+(?:(\w+)\s+)?.*\bp=(\S+) \(Holm (\S+)\)", line)
        if m:
            key = (m.group(1), m.group(2), m.group(3) if in_gate else metric)
            (gate if in_gate else rows)[key] = f"{m.group(4)} (Holm {m.group(5)})"
    return rows, gate


def p_values_printed_by_report(markdown):
    rows, gate, scenario = {}, {}, None
    for line in markdown.splitlines():
        if line.startswith("## "):
            scenario = line[3:].strip()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if scenario == "The regression gate" and len(cells) == 7 and cells[0] not in ("scenario / variant", "---"):
            gate[(*cells[0].split(" / "), cells[1])] = cells[5]
        elif scenario and len(cells) == 8 and cells[0] not in ("variant", "---"):
            rows[(scenario, cells[0], cells[1].strip("*"))] = cells[6]
    return rows, gate


def test_report_flags_exactly_the_rows_compare_flags(perfgate, runs):
    c = perfgate("compare", runs / "a.json", runs / "b.json", "--json", runs / "diff.json")
    assert c.returncode == 0, c.stdout + c.stderr
    r = perfgate("report", runs / "a.json", runs / "b.json", "-o", runs / "out")
    assert r.returncode == 0, r.stdout + r.stderr
    from_compare = flagged_by_compare(json.loads((runs / "diff.json").read_text()))
    from_report = flagged_by_report((runs / "out" / "comparison.md").read_text())
    # The test has rows of every kind to agree on: judged, moved beyond the noise, and not.
    assert from_compare[("one", "after", "cpu_ms")] == "worse"
    assert from_compare[("one", "before", "wall_ms")] == "higher"
    assert ("two", "before", "wall_ms") not in from_compare
    assert from_report == from_compare
    # and every row compare computed is a row of the report, flagged or not
    rows = json.loads((runs / "diff.json").read_text())["rows"]
    md = (runs / "out" / "comparison.md").read_text()
    assert len(re.findall(r"^\| (before|after) \|", md, re.M)) == len(rows)
    # and every p-value compare printed, of its rows and of its gate's, is printed by the report
    printed_rows, printed_gate = p_values_printed_by_compare(c.stdout)
    gate_rows = json.loads((runs / "diff.json").read_text())["gate"]["rows"]
    assert len(printed_rows) == len(rows) and len(printed_gate) == len(gate_rows) > 0, c.stdout
    assert p_values_printed_by_report(md) == (printed_rows, printed_gate)
