"""`perfgate lies` over every bundled scenario (the README's test command runs it): each
declared lie — an AFTER that does less — must be caught as its manifest declares, by exit 3
or by its exact-count gate. PostgreSQL scenarios get the throwaway cluster a normal run uses.
Every bundled scenario's threat list answers every class, each threat with a lie (issue 28) or
listed without one in a class of issue 49 (the workload does not ask it yet: "not asked yet: ...",
or asks it and the lie is still to write), and the coverage table's only findings are those."""
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from liar_catalog import ASKED_CLASSES, THREAT_CLASSES  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_bundled_threat_list_answers_every_class_with_a_lie():
    for manifest in sorted((ROOT / "scenarios").glob("*/scenario.json")):
        doc = json.loads(manifest.read_text())
        threats = doc.get("threats", [])
        assert {t["class"] for t in threats} == set(THREAT_CLASSES), f"{manifest}: classes not answered"
        lies = {lie["name"] for lie in doc.get("lies", [])}
        for t in threats:
            if "n/a" in t:
                continue
            if not_asked_yet(t):
                assert "lie" not in t, f"{manifest}: {t}: a lie for a request the workload does not make"
            else:
                assert t.get("lie") in lies or t["class"] in ASKED_CLASSES, f"{manifest}: {t} has no declared lie"
        assert lies <= {t.get("lie") for t in threats}, f"{manifest}: a lie implements no listed threat"


def not_asked_yet(threat):
    return threat.get("request", "").startswith("not asked yet: ")


def unasked_findings():
    """catalog/threats.cpp's finding for each threat of issue 49's classes still without a lie."""
    out = set()
    for manifest in sorted((ROOT / "scenarios").glob("*/scenario.json")):
        for i, t in enumerate(json.loads(manifest.read_text()).get("threats", [])):
            if "n/a" in t or "lie" in t:
                continue
            what = "is not asked by the workload yet" if not_asked_yet(t) else "has no lie"
            out.add(f'{manifest.parent.name}: threats[{i}] ({t["class"]}) {what}: {t["threat"]}')
    return out


def test_every_bundled_scenario_declares_two_lies_or_more():
    for manifest in sorted((ROOT / "scenarios").glob("*/scenario.json")):
        lies = json.loads(manifest.read_text()).get("lies", [])
        assert len(lies) >= 2, f"{manifest}: declares {len(lies)} lies"


@pytest.fixture(scope="module")
def bundled_lies(perfgate, tmp_path_factory):
    """One `perfgate lies` over the whole bundled catalog, read by every test below."""
    out = tmp_path_factory.mktemp("lies") / "lies.json"
    r = perfgate("lies", "--json", out, timeout=1800)
    doc = json.loads(out.read_text()) if out.exists() else {"lies": [], "coverage": {"findings": []}}
    return r, doc


def test_perfgate_lies_catches_every_declared_lie(bundled_lies):
    r, doc = bundled_lies
    rows = doc["lies"]
    missed = [f'{x["scenario"]}/{x["lie"]}: {x["how"]}' for x in rows if not x["caught"]]
    assert r.returncode == 0, "\n".join(missed) + "\n" + r.stdout[-3000:] + r.stderr[-3000:]
    assert rows and not missed
    assert "threat coverage" in r.stdout
    # A finding names the manifest perfgate read (the build's copy): compare by scenario.
    findings = {f'{pathlib.Path(f.split(": ")[0]).parent.name}: {f.split(": ", 1)[1]}' for f in doc["coverage"]["findings"]}
    assert findings == unasked_findings(), sorted(findings ^ unasked_findings())
    asked = {row["scenario"]: row["asked"] for row in doc["coverage"]["scenarios"]}
    assert set(asked) == {p.parent.name for p in (ROOT / "scenarios").glob("*/scenario.json")}
    assert all(a in ("n/a", "caught", "not asked", "no lie") for row in asked.values() for a in row.values()), asked


def test_named_batch_lies_exit_3_naming_what_differs(bundled_lies):
    """Issue 12's named batch lies, for the reason the digest covers: photos_timeline without the
    metadata join (width/height/camera NULL), keyset_listing with NULL AS size, auth_herd
    answering another user's id on a warm hit, and (issue 28) accepting a wrong password of a
    cached user."""
    r, doc = bundled_lies
    rows = {(x["scenario"], x["lie"]): x for x in doc["lies"]}
    assert rows, r.stdout[-3000:] + r.stderr[-3000:]
    photos = rows[("photos_timeline", "no-metadata-join")]
    assert photos["caught"] and photos["exit_code"] == 3, photos
    assert "first differing line 1" in photos["how"], photos  # the very first row: its metadata columns
    keyset = rows[("keyset_listing", "null-size")]
    assert keyset["caught"] and keyset["exit_code"] == 3, keyset
    assert "T4:file" in keyset["how"], keyset  # a file row differs (its size), not a folder row
    auth = rows[("auth_herd", "one-slot-cache")]
    assert auth["caught"] and auth["exit_code"] == 3, auth
    assert "answered user_id=" in auth["how"] and "expected user_id=" in auth["how"], auth  # another user's id
    key = rows[("auth_herd", "key-by-user")]  # issue 28: a cached user with a wrong password
    assert key["caught"] and "'probe wrong password' answered user_id=" in key["how"], key
