"""One description of a results file: docs/results.schema.json, checked by the C++ readers
(store/results_schema: valijson, the file compiled in) and by the report's Python (jsonschema).
A file that breaks it is refused by both, naming the same field: one field broken at a time,
every field of a committed results file in turn, and several at once."""
import copy
import json
import pathlib
import random
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "reports"))
from perfgate_report.errors import BadInput  # noqa: E402
from perfgate_report.load import load_results  # noqa: E402

GOOD = ROOT / "harness" / "src" / "store" / "testdata" / "results_v1_ab.json"


def field_named_by_python(path):
    try:
        load_results(path)
    except BadInput as e:
        return e.field
    return None


def field_named_by_cxx(perfgate, path):
    """`perfgate compare` reads the file as every C++ reader does (store/results_input)."""
    r = perfgate("compare", path, path)
    assert "json.exception" not in r.stderr, r.stderr
    prefix = f"perfgate: {path}: "
    named = [line[len(prefix):].split(": ", 1)[0] for line in r.stderr.splitlines() if line.startswith(prefix)]
    assert r.returncode == (2 if named else 0), r.stdout + r.stderr
    return named[0] if named else None


NAME_MAPS = ("summaries", "metrics", "steal", "commands", "workdirs")  # name -> the same shape


def fields(value, at=()):
    """Every field, an array's first element standing for the rest, and a map's first entry (a
    variant's summaries, a sample's metrics) for the others."""
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value)) if isinstance(value, list) else []
    if isinstance(value, list) or at[-1:] in [(m,) for m in NAME_MAPS] or at[-2:-1] == ("summaries",):
        items = items[:1]
    for key, x in items:
        yield at + (key,)
        yield from fields(x, at + (key,))


def name(path):
    out = ""
    for k in path:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else k)
    return out


def other_type(value):
    """A value of another JSON type than `value`."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, (int, float)):
        return f"{value}"
    if isinstance(value, str):
        return 42
    if isinstance(value, list):
        return {"not": "an array"}
    if isinstance(value, dict):
        return ["not", "an object"]
    return True  # null


def broken(doc, path, value=None, delete=False):
    doc = copy.deepcopy(doc)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return doc


@pytest.fixture(scope="module")
def good():
    doc = json.loads(GOOD.read_text())
    assert field_named_by_python(GOOD) is None
    return doc


def test_the_committed_file_is_read_by_both(perfgate, good):
    assert field_named_by_cxx(perfgate, GOOD) is None


def test_every_field_of_another_type_is_named_alike_by_both_readers(perfgate, good, tmp_path):
    bad = tmp_path / "bad.json"
    disagree, refused = [], 0
    for path in fields(good):
        if path == ("schema_version",):
            continue  # read before the schema, by each reader's version check
        parent = good
        for k in path[:-1]:
            parent = parent[k]
        bad.write_text(json.dumps(broken(good, path, other_type(parent[path[-1]]))))
        python, cxx = field_named_by_python(bad), field_named_by_cxx(perfgate, bad)
        refused += python is not None
        if python != cxx:
            disagree.append(f"{name(path)}: Python names {python}, C++ {cxx}")
    assert not disagree, "\n".join(disagree)
    assert refused > 100  # the test has something to agree on


def test_every_field_missing_is_named_alike_by_both_readers(perfgate, good, tmp_path):
    bad = tmp_path / "bad.json"
    disagree, refused = [], 0
    for path in fields(good):
        if path == ("schema_version",) or isinstance(path[-1], int):
            continue
        bad.write_text(json.dumps(broken(good, path, delete=True)))
        python, cxx = field_named_by_python(bad), field_named_by_cxx(perfgate, bad)
        refused += python == name(path)
        if python != cxx:
            disagree.append(f"{name(path)}: Python names {python}, C++ {cxx}")
    assert not disagree, "\n".join(disagree)
    assert refused > 30


def test_of_several_broken_fields_both_name_the_same_first(perfgate, good, tmp_path):
    rng = random.Random(37)
    paths = [p for p in fields(good) if p != ("schema_version",)]
    bad = tmp_path / "bad.json"
    for _ in range(25):
        doc = good
        for path in rng.sample(paths, 4):
            parent = doc
            try:
                for k in path[:-1]:
                    parent = parent[k]
                doc = broken(doc, path, other_type(parent[path[-1]]))
            except (KeyError, IndexError, TypeError):
                continue  # a field inside one broken already
        bad.write_text(json.dumps(doc))
        python = field_named_by_python(bad)
        assert python is not None and field_named_by_cxx(perfgate, bad) == python
