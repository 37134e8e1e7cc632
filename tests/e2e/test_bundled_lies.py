"""`perfgate lies` over every bundled scenario (the README's test command runs it): each
declared lie — an AFTER that does less — must be caught as its manifest declares, by exit 3
or by its exact-count gate. PostgreSQL scenarios get the throwaway cluster a normal run uses."""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_bundled_scenario_declares_two_lies_or_more():
    for manifest in sorted((ROOT / "scenarios").glob("*/scenario.json")):
        lies = json.loads(manifest.read_text()).get("lies", [])
        assert len(lies) >= 2, f"{manifest}: declares {len(lies)} lies"


def test_perfgate_lies_catches_every_declared_lie(perfgate, tmp_path):
    out = tmp_path / "lies.json"
    r = perfgate("lies", "--json", out, timeout=1800)
    rows = json.loads(out.read_text()) if out.exists() else []
    missed = [f'{x["scenario"]}/{x["lie"]}: {x["how"]}' for x in rows if not x["caught"]]
    assert r.returncode == 0, "\n".join(missed) + "\n" + r.stdout[-3000:] + r.stderr[-3000:]
    assert rows and not missed
