"""`perfgate report A B` renders what `perfgate compare A B --json` computed: on the same two
files both flag the same rows (scenario, variant, metric) with the same verdicts and print the
same p-values, to the character (the report computes none of its own). B is A with
AFTER's CPU and wall figures made 1.5x and BEFORE's wall figures 1.03x (inside the noise band
for some rows, outside for others), so there are rows of both kinds."""
import json
import pathlib
import re
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from spin_catalog import WORK, add_scenario  # noqa: E402


@pytest.fixture(scope="module")
def runs(perfgate, burn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("agree")
    for name in ("one", "two"):
        add_scenario(tmp / "catalog", burn, name, policy="no-regress", before=WORK // 16, after=WORK // 16, rounds=6)
    r = perfgate("run", "--catalog", tmp / "catalog", "--baseline", "none", "--seed", "5", "--json", tmp / "a.json",
                 "-q")
    assert r.returncode in (0, 1), r.stdout + r.stderr
    doc = json.loads((tmp / "a.json").read_text())
    for s in doc["scenarios"]:
        for x in s["samples"]:
            factor = {"after": 1.5, "before": 1.03}.get(x["variant"], 1.0)
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
    assert ("one", "after", "cpu_ms") in from_compare  # the test has something to agree on
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
