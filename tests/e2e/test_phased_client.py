"""`service.load_client`: a service scenario that ships its own load client, run in phases,
with the server's cgroup sampled between phases (docs/scenario-contract.md, "Phased load
clients"). The server (tests/tools/phased_echo) seeds before it listens: 96 MiB held while it
hashes 40,000 x 64 KiB. Those figures must land in the harness's `startup` phase and in no
later one; the `agree` phase is gated across variants (exit 3 naming phase and variant)."""
import json
import os
import pathlib
import signal
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("PERFGATE_BUILD_DIR", ROOT / "build"))
ECHO = BUILD / "tests" / "tools" / "phased_echo"

PARAMS = {"seed_work": 40000, "seed_mib": 96,
          "phases": {"agree": {"work": 1, "requests": 3},
                     "small": {"work": 1, "requests": 5},
                     "big": {"work": 20000, "mib": 64, "requests": 2}}}


def manifest(**change):
    doc = {"name": "phased_echo", "title": "phased load client test", "source": "tests", "summary": "test",
           "kind": "service", "program": str(ECHO), "fixture": {"kind": "none"}, "policy": "no-regress",
           "primary_metric": "small_request_p50_ms",
           "service": {"ready_timeout_s": 30,
                       "load_client": {"phases": ["agree", "small", "big"], "agreement": ["agree"],
                                       "rss_interval_ms": 5}},
           "variants": [{"name": "before"}, {"name": "after"}],
           "lies": [{"name": "wrong-answer", "args": ["--lie", "wrong-answer"],
                     "what": "the server answers another hash", "caught_by": "equivalence"},
                    {"name": "wrong-answer-again", "args": ["--lie", "wrong-answer"],
                     "what": "the same lie, declared twice (a manifest needs two)", "caught_by": "equivalence"}],
           "profiles": {"quick": {"params": PARAMS, "min_rounds": 2, "max_rounds": 2, "warmup": 0,
                                  "timeout_s": 120}}}
    for path, value in change.items():
        node = doc
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return doc


def catalog(tmp_path, doc):
    folder = tmp_path / "catalog" / "phased_echo"
    folder.mkdir(parents=True)
    (folder / "scenario.json").write_text(json.dumps(doc))
    return tmp_path / "catalog", folder / "scenario.json"


def echo_processes():
    out = subprocess.run(["pgrep", "-f", str(ECHO)], capture_output=True, text=True).stdout
    return [p for p in out.split() if p]


@pytest.fixture(scope="module")
def honest_run(perfgate, tmp_path_factory):
    if not ECHO.exists():
        pytest.fail(f"{ECHO} is missing: build the target phased_echo")
    tmp = tmp_path_factory.mktemp("phased")
    cat, _ = catalog(tmp, manifest())
    r = perfgate("run", "phased_echo", "--catalog", cat, "--profile", "quick", "--json", tmp / "results.json",
                 "--baseline", "none", "--quiet")
    return r, json.loads((tmp / "results.json").read_text())


def measured(doc, metric):
    s = doc["scenarios"][0]
    return [x["metrics"][metric]["value"] for x in s["samples"] if not x["warmup"]]


def test_every_phase_is_run_and_prefixed(honest_run):
    r, doc = honest_run
    assert r.returncode == 0, r.stdout + r.stderr
    s = doc["scenarios"][0]
    assert s["phases"] == ["startup", "agree", "small", "big"]
    for phase in ("agree", "small", "big"):
        assert all(v == PARAMS["phases"][phase]["requests"] for v in measured(doc, f"{phase}_requests"))
        assert measured(doc, f"{phase}_request_p50_ms")
    for phase in ("startup", "agree", "small", "big"):
        for m in ("server_cpu_ms", "server_rss_mean_mib", "server_rss_peak_mib"):
            assert len(measured(doc, f"{phase}_{m}")) == 4, (phase, m)
    gates = {g["name"]: g for g in s["gates"]}
    assert gates["same agree answers"]["outcome"] == "passed", gates


def test_every_sample_carries_what_its_cpus_lost_to_steal(honest_run):
    # A phased sample is no single process: its steal is read over its phases, on the server's
    # and the load client's CPUs, and summarised per variant like a batch scenario's.
    _, doc = honest_run
    s = doc["scenarios"][0]
    for x in s["samples"]:
        assert x["steal_ms"] >= 0 and x["irq_ms"] >= 0 and isinstance(x["steal_flagged"], bool), x
    for variant in ("before", "after"):
        measured_samples = sum(1 for x in s["samples"] if x["variant"] == variant and not x["warmup"])
        assert s["steal"][variant]["samples"] == measured_samples > 0, s["steal"]
        assert "wall_variance_explained_by_steal" not in s["steal"][variant]


def test_seeding_lands_in_startup_and_in_no_later_phase(honest_run):
    _, doc = honest_run
    startup_cpu = measured(doc, "startup_server_cpu_ms")
    small_cpu = measured(doc, "small_server_cpu_ms")
    # 40,000 x 64 KiB of hashing happened before the listen line, 5 one-block requests after it.
    assert min(startup_cpu) > 20 * max(small_cpu), (startup_cpu, small_cpu)
    assert min(measured(doc, "startup_server_rss_peak_mib")) >= 90
    # The 96 MiB were freed before listening: no later phase's peak holds them.
    assert max(measured(doc, "small_server_rss_peak_mib")) < 40
    assert max(measured(doc, "agree_server_rss_peak_mib")) < 40
    # The big phase holds its own 64 MiB while it hashes: seen there, and only there.
    assert 60 <= min(measured(doc, "big_server_rss_peak_mib")) < 90
    assert min(measured(doc, "big_server_cpu_ms")) > 10 * max(small_cpu)


def test_an_after_that_answers_otherwise_is_exit_3_naming_phase_and_variant(perfgate, tmp_path):
    doc = manifest(variants=[{"name": "before"}, {"name": "after", "args": ["--lie", "wrong-answer"]}])
    cat, _ = catalog(tmp_path, doc)
    r = perfgate("run", "phased_echo", "--catalog", cat, "--profile", "quick", "--json", tmp_path / "r.json",
                 "--baseline", "none", "--quiet")
    assert r.returncode == 3, r.stdout + r.stderr
    message = json.loads((tmp_path / "r.json").read_text())["scenarios"][0]["error"]["message"]
    assert "phase agree:" in message and "after" in message, message
    assert "first differing line 1" in message, message
    assert not echo_processes()


def test_perfgate_lies_catches_it(perfgate, tmp_path):
    cat, _ = catalog(tmp_path, manifest())
    r = perfgate("lies", "phased_echo", "--catalog", cat, "--rounds", "2")
    assert r.returncode == 0, r.stdout + r.stderr


BAD = [
    ("service.load_client.phasez", {"service__load_client__phasez": ["a"]}),
    ("service.load_client.phases", {"service__load_client__phases": []}),
    ("service.load_client.phases", {"service__load_client__phases": ["startup"]}),
    ("service.load_client", {"service__load_client__agreement": ["nowhere"]}),
    ("service.load_client.rss_interval_ms", {"service__load_client__rss_interval_ms": 0}),
]


@pytest.mark.parametrize("key,change", BAD, ids=[f"{k}-{i}" for i, (k, _) in enumerate(BAD)])
def test_a_bad_load_client_key_is_exit_2_naming_file_and_key(perfgate, tmp_path, key, change):
    cat, path = catalog(tmp_path, manifest(**change))
    r = perfgate("list", "--catalog", cat)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{path}: {key}" in r.stderr, r.stderr


def test_no_server_or_client_is_left_behind(honest_run):
    assert not echo_processes()


def test_the_report_has_a_per_phase_table(perfgate, honest_run, tmp_path):
    _, doc = honest_run
    (tmp_path / "results.json").write_text(json.dumps(doc))
    r = perfgate("report", tmp_path / "results.json", "-o", tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    report = (tmp_path / "report.md").read_text()
    table = report[report.index("### Per phase"):]
    for phase in ("startup", "agree", "small", "big"):
        for variant in ("before", "after"):
            assert f"| {phase} | {variant} |" in table, table[:2000]
    assert "request_p50_ms" in table and "listening after" in table


def test_ctrl_c_mid_phase_is_130_and_leaves_nothing(perfgate_bin, tmp_path):
    slow = json.loads(json.dumps(PARAMS))
    slow["phases"]["big"] = {"work": 20000, "mib": 8, "requests": 10000}  # far longer than the test waits
    cat, _ = catalog(tmp_path, manifest(profiles__quick__params=slow))
    p = subprocess.Popen([perfgate_bin, "run", "phased_echo", "--catalog", str(cat), "--profile", "quick",
                          "--baseline", "none", "--quiet", "--json", str(tmp_path / "r.json")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    in_big = lambda: any("load --phase big" in l for l in echo_command_lines())
    deadline = time.time() + 60
    while time.time() < deadline and p.poll() is None and not in_big():
        time.sleep(0.1)
    if p.poll() is not None or not in_big():
        p.kill()
        pytest.fail("the big phase never ran while perfgate did: " + "".join(p.communicate()))
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, out + err
    assert not echo_processes()


def echo_command_lines():
    out = subprocess.run(["ps", "-eo", "args="], capture_output=True, text=True).stdout
    return [l for l in out.splitlines() if str(ECHO) in l]
