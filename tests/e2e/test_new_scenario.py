"""`perfgate new`: the scenario it writes builds, passes its tests and runs as it is, both
- in a perfgate tree's catalog: a scratch tree (this tree's top level linked, scenarios/ a real
  folder linking every bundled scenario), so nothing is written to this tree's scenarios/; the
  scratch build makes only the new scenario's targets;
- outside any tree, against the SDK installed into a temporary prefix (`cmake --install
  --component sdk`): find_package(perfgate) for the generated CMakeLists.txt, pkg-config for a
  one-file program; neither links libxxhash, and the digests are the linked library's.
About 50 s on the 2-core VM (70 s while another build ran), nearly all of it compiling the
two builds of the scenario."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import BUILD  # noqa: E402
from liar_catalog import THREAT_CLASSES  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOP = ["CMakeLists.txt", "cmake", "docs", "harness", "fixtures", "seeders", "tests", "reports", "baseline.json"]


def sh(*cmd, cwd=None, env=None, timeout=300):
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, **(env or {})})
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}: exit {r.returncode}\n{r.stdout[-3000:]}{r.stderr[-3000:]}"
    return r


def build_and_test(source, build, *configure, targets=()):
    sh("cmake", "-S", source, "-B", build, *configure)
    sh("cmake", "--build", build, "-j2", *(["--target", *targets] if targets else []), timeout=600)
    r = sh("ctest", "--test-dir", build, "-R", r"^demo\.", "--output-on-failure")  # TEST_PREFIX demo.
    assert "100% tests passed" in r.stdout and "0 tests failed out of 4" in r.stdout, r.stdout


def run_passes(perfgate, catalog, out):
    r = perfgate("run", "demo", "--catalog", catalog, "--profile", "quick", "--baseline", "none", "--seed", "1",
                 "--json", out, "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["scenarios"][0]
    assert all(g["outcome"] == "passed" for g in s["gates"]), s["gates"]
    assert [g for g in s["gates"] if g["kind"] == "equivalence"], s["gates"]  # the digest was compared
    return s


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    t = tmp_path_factory.mktemp("tree")
    for name in TOP:
        (t / name).symlink_to(ROOT / name)
    (t / "scenarios").mkdir()
    shutil.copy(ROOT / "scenarios" / "CMakeLists.txt", t / "scenarios")
    for d in (ROOT / "scenarios").iterdir():
        if d.is_dir():
            (t / "scenarios" / d.name).symlink_to(d)
    return t


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    p = tmp_path_factory.mktemp("prefix")
    sh("cmake", "--install", BUILD, "--prefix", p, "--component", "sdk")
    return p


def test_refusals_are_exit_2_and_write_nothing(perfgate, tree, tmp_path):
    before = sorted(os.listdir(tree / "scenarios"))
    for name, why in [("9lives", "bad scenario name"), ("class", "bad scenario name"), ("a__b", "bad scenario name"),
                      ("has-dash", "bad scenario name"), ("upload_spool", "already exists")]:
        r = perfgate("new", name, cwd=tree)
        assert r.returncode == 2 and why in r.stderr, (name, r.stdout, r.stderr)
    r = perfgate("new", "demo", cwd=tmp_path)  # no tree around, no --out
    assert r.returncode == 2 and "give --out DIR" in r.stderr, r.stderr
    r = perfgate("new", "demo", "--kind", "daemon", "--out", tmp_path)
    assert r.returncode == 2, r.stderr
    assert sorted(os.listdir(tree / "scenarios")) == before and os.listdir(tmp_path) == []


def test_in_the_tree_it_is_picked_up_builds_passes_and_runs(perfgate, tree, tmp_path):
    r = perfgate("new", "demo", cwd=tree)
    assert r.returncode == 0, r.stdout + r.stderr
    demo = tree / "scenarios" / "demo"
    assert not (ROOT / "scenarios" / "demo").exists()
    assert "perfgate_scenario(NAME demo" in (demo / "CMakeLists.txt").read_text()
    assert json.loads((demo / "scenario.json").read_text())["program"] == "demo"
    readme = (demo / "README.md").read_text()
    assert "## Threat list" in readme and "no-size" in readme
    manifest = json.loads((demo / "scenario.json").read_text())  # the threat list: every class answered
    assert {t["class"] for t in manifest["threats"]} == set(THREAT_CLASSES)
    assert {t["lie"] for t in manifest["threats"] if "lie" in t} == {lie["name"] for lie in manifest["lies"]}
    assert "__" not in "".join(p.read_text() for p in demo.rglob("*") if p.is_file())  # every key replaced
    build = tree / "build"
    build_and_test(tree, build, targets=["scenario_demo", "scenario_demo_test"])
    catalog = build / "share" / "perfgate" / "scenarios"
    assert (catalog / "demo" / "sources.sha256").exists()  # fingerprinted like a bundled scenario
    s = run_passes(perfgate, catalog, tmp_path / "r.json")
    assert [c for c in s["comparisons"] if c["gated"]][0]["verdict"] == "better"


def test_outside_a_tree_it_builds_against_the_installed_sdk(perfgate, prefix, tmp_path):
    assert (prefix / "include" / "perfgate" / "scenario_main.hpp").exists()
    out = tmp_path / "perf"
    r = perfgate("new", "demo", "--out", out, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    demo = out / "demo"
    assert "find_package(perfgate REQUIRED)" in (demo / "CMakeLists.txt").read_text()
    build = demo / "build"  # where the manifest's program is: build/demo
    build_and_test(demo, build, f"-DCMAKE_PREFIX_PATH={prefix}")
    cache = (build / "CMakeCache.txt").read_text()
    assert f"perfgate_DIR:PATH={prefix}/share/cmake/perfgate" in cache, "found another perfgate than the install"
    needed = sh("readelf", "-d", build / "demo").stdout
    assert "NEEDED" in needed and "xxhash" not in needed
    assert " XXH" not in sh("nm", "-u", build / "demo").stdout  # XXH3 compiled in, nothing to link
    run_passes(perfgate, out, tmp_path / "r.json")


def test_pkg_config_compiles_a_program_with_the_libraries_digests(prefix, tmp_path):
    env = {"PKG_CONFIG_PATH": str(prefix / "share" / "pkgconfig")}
    cflags = sh("pkg-config", "--cflags", "perfgate", env=env).stdout.split()
    assert [os.path.normpath(f[2:]) for f in cflags if f.startswith("-I")] == [str(prefix / "include")]
    assert sh("pkg-config", "--libs", "perfgate", env=env).stdout.strip() == ""  # header-only
    src = tmp_path / "pin.cpp"
    src.write_text('#include "perfgate/sample.hpp"\nint main() { std::puts(perfgate::digest_of("perfgate").c_str()); }\n')
    sh("g++", "-std=c++17", *cflags, src, "-o", tmp_path / "pin")
    # XXH3-128 of "perfgate" by the linked libxxhash 0.8.1 (tests/ of upload_spool pin more).
    assert sh(tmp_path / "pin").stdout.strip() == "95b381ff2e3de403c8f5a3f1c0f7382b"
