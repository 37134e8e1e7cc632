"""`perfgate lies` over every bundled scenario (the README's test command runs it): each
declared lie — an AFTER that does less — must be caught as its manifest declares, by exit 3
or by its exact-count gate. PostgreSQL scenarios get the throwaway cluster a normal run uses.
Every bundled scenario's threat list answers every class, each threat with a lie (issue 28),
and the coverage table has no finding."""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from liar_catalog import THREAT_CLASSES  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_bundled_threat_list_answers_every_class_with_a_lie():
    for manifest in sorted((ROOT / "scenarios").glob("*/scenario.json")):
        doc = json.loads(manifest.read_text())
        threats = doc.get("threats", [])
        assert {t["class"] for t in threats} == set(THREAT_CLASSES), f"{manifest}: classes not answered"
        lies = {lie["name"] for lie in doc.get("lies", [])}
        for t in threats:
            assert "n/a" in t or t.get("lie") in lies, f"{manifest}: {t} has no declared lie"
        assert lies <= {t.get("lie") for t in threats}, f"{manifest}: a lie implements no listed threat"


def test_every_bundled_scenario_declares_two_lies_or_more():
    for manifest in sorted((ROOT / "scenarios").glob("*/scenario.json")):
        lies = json.loads(manifest.read_text()).get("lies", [])
        assert len(lies) >= 2, f"{manifest}: declares {len(lies)} lies"


def test_perfgate_lies_catches_every_declared_lie(perfgate, tmp_path):
    out = tmp_path / "lies.json"
    r = perfgate("lies", "--json", out, timeout=1800)
    doc = json.loads(out.read_text()) if out.exists() else {"lies": [], "coverage": {"findings": []}}
    rows = doc["lies"]
    missed = [f'{x["scenario"]}/{x["lie"]}: {x["how"]}' for x in rows if not x["caught"]]
    assert r.returncode == 0, "\n".join(missed) + "\n" + r.stdout[-3000:] + r.stderr[-3000:]
    assert rows and not missed
    assert "threat coverage" in r.stdout
    assert not doc["coverage"]["findings"], doc["coverage"]["findings"]
