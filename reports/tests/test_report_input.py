"""Bad input: a clear message naming the file and the field, exit 2, nothing written."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from perfgate_report import schema
from perfgate_report.errors import BadInput
from perfgate_report.load import load_results, validate

ROOT = Path(__file__).resolve().parents[2]


def test_the_schema_read_is_the_documented_one():
    """One description of the results shape: the report reads docs/results.schema.json itself."""
    assert schema.SCHEMA_PATH == ROOT / "docs" / "results.schema.json"
    assert schema.results_schema() == json.loads((ROOT / "docs" / "results.schema.json").read_text())
    assert not (ROOT / "reports" / "perfgate_report" / "results.schema.json").exists()


def _mutations(doc):
    """(name, mutate) pairs, each making the document invalid in one way."""

    def drop(path):
        def f(d):
            node = d
            for k in path[:-1]:
                node = node[k]
            del node[path[-1]]
        return f

    def put(path, value):
        def f(d):
            node = d
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        return f

    return [
        ("samples missing", drop(["scenarios", 0, "samples"]), "scenarios[0].samples", "missing"),
        ("run.reproduce missing", drop(["run", "reproduce"]), "run.reproduce", "missing"),
        ("host missing", drop(["host"]), "host", "missing"),
        ("cores a string", put(["host", "cores"], "four"), "host.cores", "is not of type 'integer'"),
        ("cores a float", put(["host", "cores"], 4.0), "host.cores", "is not of type 'integer'"),
        ("load of two", put(["host", "load_before"], [0.1, 0.2]), "host.load_before", "is too short"),
        ("metric value a string", put(["scenarios", 0, "samples", 3, "metrics", "wall_ms", "value"], "12 ms"),
         "scenarios[0].samples[3].metrics.wall_ms.value", "is not of type 'number'"),
        ("better sideways", put(["scenarios", 1, "samples", 0, "metrics", "wall_ms", "better"], "sideways"),
         "scenarios[1].samples[0].metrics.wall_ms.better", "is not one of"),
        ("kind unknown", put(["scenarios", 0, "kind"], "daemon"), "scenarios[0].kind", "is not one of"),
        ("summary median missing", drop(["scenarios", 0, "summaries", "after", "wall_ms", "median"]),
         "scenarios[0].summaries.after.wall_ms.median", "missing"),
        ("comparison ci of one", put(["scenarios", 0, "comparisons", 0, "ci"], [0.5]), "scenarios[0].comparisons[0].ci",
         "is too short"),
        ("dirty a string", put(["run", "git", "dirty"], "yes"), "run.git.dirty", "is not of type 'boolean'"),
        ("load_after a string", put(["host", "load_after"], "high"), "host.load_after", "is not of type 'array', 'null'"),
        ("load_after holding null", put(["host", "load_after", 1], None), "host.load_after[1]", "is not of type 'number'"),
        ("anchor without before", drop(["scenarios", 0, "anchors", 0, "before"]), "scenarios[0].anchors[0].before",
         "missing"),
    ]


def test_each_problem_is_named_by_its_field(standard_doc):
    assert schema.first_error(standard_doc) is None
    for name, mutate, field, problem in _mutations(standard_doc):
        d = copy.deepcopy(standard_doc)
        mutate(d)
        err = schema.first_error(d)
        assert err is not None, name
        assert err[0] == field, name
        assert problem in err[1], (name, err)


def test_of_several_problems_the_first_in_the_schema_s_order_is_named(standard_doc):
    """run before host before scenarios (the schema lists them so), a scenario's fields in the
    schema's order, elements by index: the C++ readers name the same one (store/results_schema)."""
    d = copy.deepcopy(standard_doc)
    d["scenarios"][1]["samples"][0]["round"] = "one"
    d["scenarios"][0]["stop"]["rounds"] = "eight"
    d["host"]["cores"] = "four"
    assert schema.first_error(d)[0] == "host.cores"
    del d["host"]["cores"]
    assert schema.first_error(d) == ("host.cores", "missing")
    d["host"]["cores"] = 4
    assert schema.first_error(d)[0] == "scenarios[0].stop.rounds"
    d["scenarios"][0]["samples"][2]["warmup"] = "no"
    assert schema.first_error(d)[0] == "scenarios[0].samples[2].warmup"  # samples come before stop


def test_bad_input_names_file_and_field(standard_doc, tmp_path):
    for name, mutate, field, _problem in _mutations(standard_doc):
        d = copy.deepcopy(standard_doc)
        mutate(d)
        p = tmp_path / "results.json"
        p.write_text(json.dumps(d))
        with pytest.raises(BadInput) as e:
            load_results(p)
        assert str(e.value).startswith(f"{p}: {field}: "), name


def test_references_between_fields(standard_doc):
    d = copy.deepcopy(standard_doc)
    d["scenarios"][0]["samples"][0]["variant"] = "sideways"
    with pytest.raises(BadInput, match=r"r\.json: scenarios\[0\]\.samples\[0\]\.variant: \"sideways\" is not one of"):
        validate(d, "r.json")
    d = copy.deepcopy(standard_doc)
    d["scenarios"][1]["variants"] = [v for v in d["scenarios"][1]["variants"] if v["name"] != "after"]
    d["scenarios"][1]["samples"] = [s for s in d["scenarios"][1]["samples"] if s["variant"] != "after"]
    d["scenarios"][1]["summaries"].pop("after")
    d["scenarios"][1]["comparisons"] = [c for c in d["scenarios"][1]["comparisons"] if c["variant"] != "after"]
    with pytest.raises(BadInput, match=r"scenarios\[1\]\.variants: no variant named \"after\""):
        validate(d, "r.json")


CASES = [
    ("not json", "{\"schema_version\": 1, ", "results.json: not JSON"),
    ("empty", "", "results.json: empty file, not JSON"),
    ("an array", "[1, 2]", "results.json: expected a JSON object at the top, got array"),
    ("version 2", json.dumps({"schema_version": 2, "run": {}}), "results.json: schema_version: 2 is not supported"),
    ("no version", json.dumps({"run": {}}), "results.json: schema_version: missing"),
    ("NaN", "{\"schema_version\": NaN}", "results.json: not JSON: NaN is not a JSON number"),
]


@pytest.mark.parametrize("name,text,message", CASES, ids=[c[0] for c in CASES])
def test_cli_bad_input_exits_2_and_writes_nothing(name, text, message, tmp_path, run_cli):
    (tmp_path / "results.json").write_text(text)
    r = run_cli("results.json", "-o", "out")
    assert r.returncode == 2, r.stderr
    assert message in r.stderr
    assert r.stdout == ""
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_cli_missing_field_message(standard_doc, tmp_path, run_cli, factory):
    del standard_doc["scenarios"][0]["samples"]
    factory.write(standard_doc, tmp_path / "results.json")
    r = run_cli("results.json")
    assert r.returncode == 2
    assert "results.json: scenarios[0].samples: missing" in r.stderr
    assert not (tmp_path / "report.md").exists()
    assert not (tmp_path / "plots").exists()


def test_cli_missing_file(tmp_path, run_cli):
    r = run_cli("nowhere.json")
    assert r.returncode == 2
    assert "nowhere.json: no such file" in r.stderr


def test_failed_validation_leaves_an_earlier_report_alone(standard_doc, tmp_path, run_cli, factory):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.md").write_text("earlier report\n")
    bad = copy.deepcopy(standard_doc)
    bad["schema_version"] = 3
    factory.write(bad, tmp_path / "results.json")
    r = run_cli("results.json", "-o", "out")
    assert r.returncode == 2
    assert (out / "report.md").read_text() == "earlier report\n"
    assert sorted(p.name for p in out.iterdir()) == ["report.md"]


def test_cli_usage_errors_exit_2(tmp_path, run_cli):
    assert run_cli().returncode == 2
    assert run_cli("a.json", "b.json", "c.json").returncode == 2
