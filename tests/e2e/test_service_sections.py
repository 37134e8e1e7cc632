"""The service contract's manifest sections are typed: a misspelt or wrong-typed key in
`service`, `workloads.<name>` or `profiles.<name>.load` is exit 2 naming the file and the key,
never a default silently taken."""
import json
import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("PERFGATE_BUILD_DIR", ROOT / "build"))
SCENARIO = BUILD / "share" / "perfgate" / "scenarios" / "asset_cache"


def catalog_with(tmp_path, change):
    folder = tmp_path / "catalog" / "asset_cache"
    shutil.copytree(SCENARIO, folder, symlinks=True)
    doc = json.loads((folder / "scenario.json").read_text())
    change(doc)
    (folder / "scenario.json").unlink()
    (folder / "scenario.json").write_text(json.dumps(doc))
    return tmp_path / "catalog", folder / "scenario.json"


def test_the_bundled_service_manifest_is_accepted(perfgate):
    r = perfgate("list")
    assert r.returncode == 0 and "asset_cache" in r.stdout, r.stderr


CHANGES = [
    ("service.stats_pth", lambda d: d["service"].__setitem__("stats_pth", d["service"].pop("stats_path", "/stats"))),
    ("service.ready_timeout_s", lambda d: d["service"].__setitem__("ready_timeout_s", "30")),
    ("profiles.quick.load.duraton_s", lambda d: d["profiles"]["quick"].setdefault("load", {}).__setitem__("duraton_s", 2)),
    ("profiles.quick.load.connections", lambda d: d["profiles"]["quick"].setdefault("load", {}).__setitem__("connections", 0)),
    ("workloads.{w}.hot_fractoin", lambda d: next(iter(d["workloads"].values())).__setitem__("hot_fractoin", 0.5)),
    ("workloads.{w}.mix", lambda d: next(iter(d["workloads"].values())).__setitem__("mix", "zipfian")),
]


@pytest.mark.parametrize("key,change", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_bad_service_key_is_exit_2_naming_file_and_key(perfgate, tmp_path, key, change):
    catalog, manifest = catalog_with(tmp_path, change)
    first_workload = next(iter(json.loads(manifest.read_text())["workloads"]))
    r = perfgate("list", "--catalog", catalog)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{manifest}: {key.format(w=first_workload)}:" in r.stderr, r.stderr
