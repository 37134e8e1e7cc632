"""`perfgate parity`: two HTTP servers compared on the same work (docs/parity.md).

The servers are tests/tools/parity_server.py, a small library server in Jellyfin's listing shape
whose flags make it diverge (--fill-people), do nothing (--empty-lists), go hollow after the
agreement pass (--hollow-after), burn CPU before the timed window (--burn-first) or add a clock
(noise). Runs are short (2 rounds of 0.25 s windows, no capacity sweep unless asked)."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests" / "tools" / "parity_server.py"
PY = "/usr/bin/python3"
QUICK = ["--rounds", "2", "--window-s", "0.25", "--warmup-s", "0.05", "--no-capacity", "--connections", "2"]

# Items 0, 3, 6, 9, 12, 30 have no cast; 1, 2, 4, 10, 11 have. --fill-people fills People where
# Fields=People was not asked: exactly requests 5, 7 and 10 below change.
REQUESTS = [
    "/Items?StartIndex=0&Limit=1",
    "/Items?StartIndex=3&Limit=1",
    "/Items?StartIndex=6&Limit=1&Fields=People",
    "/Items?StartIndex=0&Limit=5&Fields=People",
    "/Items?StartIndex=1&Limit=2",
    "/Items?StartIndex=9&Limit=1",
    "/Items?StartIndex=10&Limit=3",
    "/Items?StartIndex=12&Limit=1",
    "/Artists?StartIndex=30&Limit=1",
    "/Genres?StartIndex=4&Limit=1",
]
AFFECTED = {REQUESTS[4], REQUESTS[6], REQUESTS[9]}


@pytest.fixture
def requests_file(tmp_path):
    f = tmp_path / "requests.txt"
    f.write_text("# parity test set\n" + "\n".join(REQUESTS) + "\n")
    return f


@pytest.fixture
def tag():
    return "parity-test-" + uuid.uuid4().hex[:12]


def serve(tag, *flags):
    return f"{PY} {SERVER} --port {{port}} --tag {tag} " + " ".join(flags)


def servers_with(tag):
    """PIDs of live processes whose command line carries the tag."""
    found = []
    for d in pathlib.Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if tag.encode() in (d / "cmdline").read_bytes():
                    found.append(int(d.name))
            except OSError:
                pass
    return found


def doc_of(out):
    return json.loads((out / "parity.json").read_text())


def test_two_running_servers_that_agree_are_compared(perfgate, requests_file, tmp_path, tag):
    procs = [subprocess.Popen([PY, str(SERVER), "--port", "0", "--clock", "--tag", tag], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    try:
        urls = ["http://" + json.loads(p.stdout.readline())["listen"] for p in procs]
        out = tmp_path / "out"
        r = perfgate("parity", *urls, "--requests", requests_file, "--out", out, *QUICK)
        assert r.returncode == 0, r.stdout + r.stderr
        doc = doc_of(out)
        ag = doc["agreement"]
        assert ag["agreeing"] == len(REQUESTS) and ag["dropped"] == 0
        assert ag["leaves_compared_agreeing"] > 50
        # The clock differs between two answers of one server as much as between servers: noise.
        assert "ServerTime" in ag["noise_fields"] and "ServerTime" not in ag["blamed_fields"]
        # Perfgate did not start them: no CPU figures, the wall time per response instead.
        assert doc["comparison"]["metric"] == "wall_us_per_response"
        assert len(doc["comparison"]["a"]) == 2 and "ratio_b_over_a" in doc["comparison"]
        assert "## Parity" in (out / "parity.md").read_text()
    finally:
        for p in procs:
            p.terminate()
            p.wait()


def test_divergent_field_drops_exactly_the_affected_requests_and_names_it(perfgate, requests_file, tmp_path, tag):
    out = tmp_path / "out"
    r = perfgate("parity", "--serve-a", serve(tag), "--serve-b", serve(tag, "--fill-people"), "--requests",
                 requests_file, "--max-dropped", "0.4", "--out", out, *QUICK)
    assert r.returncode == 0, r.stdout + r.stderr
    ag = doc_of(out)["agreement"]
    dropped = {d["path"]: d for d in ag["dropped_requests"]}
    assert set(dropped) == AFFECTED
    assert all(d["fields"] == ["Items[].People"] for d in dropped.values())
    assert "Items[].People" in ag["blamed_fields"]
    md = (out / "parity.md").read_text()
    assert "`Items[].People`" in md and REQUESTS[4] in md
    # Over the stated share, the same divergence refuses the comparison.
    r = perfgate("parity", "--serve-a", serve(tag), "--serve-b", serve(tag, "--fill-people"), "--requests",
                 requests_file, "--max-dropped", "0.2", "--out", tmp_path / "out2", *QUICK)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "comparison" not in doc_of(tmp_path / "out2")
    assert not servers_with(tag)


def test_a_server_answering_every_list_empty_is_refused_never_timed(perfgate, requests_file, tmp_path, tag):
    out = tmp_path / "out"
    r = perfgate("parity", "--serve-a", serve(tag), "--serve-b", serve(tag, "--empty-lists"), "--requests",
                 requests_file, "--max-dropped", "0.5", "--out", out, *QUICK)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "not doing the work" in r.stderr
    doc = doc_of(out)
    assert "comparison" not in doc and "windows" not in doc
    assert doc["agreement"]["not_doing_the_work"] >= 8
    assert not servers_with(tag)


def test_a_body_that_goes_hollow_after_the_agreement_pass_is_caught(perfgate, requests_file, tmp_path, tag):
    # B answers the start-up probe and both agreement answers of each request (1 + 2 x 10), then
    # every list empty: the fingerprint of the bodies sampled while timed no longer matches.
    out = tmp_path / "out"
    r = perfgate("parity", "--serve-a", serve(tag), "--serve-b", serve(tag, "--hollow-after", "21"), "--noise-source", "answer",
                 "--requests", requests_file, "--out", out, *QUICK)
    assert r.returncode == 3, r.stdout + r.stderr
    doc = doc_of(out)
    assert doc["agreement"]["dropped"] == 0
    assert doc["hollow"] and doc["hollow"][0].startswith("B round 1:")
    assert "key-path fingerprint" in doc["hollow"][0]
    assert not servers_with(tag)


def test_cpu_windows_exclude_start_up_and_the_agreement_pass(perfgate, requests_file, tmp_path, tag):
    # A burns 60 ms of CPU on each of its first 21 answers (the probe and the agreement pass):
    # 1.26 s of CPU before any window. A window of 0.25 s on one core cannot hold that.
    out = tmp_path / "out"
    r = perfgate("parity", "--serve-a", serve(tag, "--burn-first", "21", "--burn-ms", "60"), "--serve-b", serve(tag),
                 "--noise-source", "answer", "--requests", requests_file, "--out", out, *QUICK)
    assert r.returncode == 0, r.stdout + r.stderr
    doc = doc_of(out)
    assert doc["comparison"]["metric"] == "cpu_us_per_request"
    for w in doc["windows"]["A"]:
        assert 0 < w["cpu_ms"] < 700, w
        assert w["cpu_us_per_request"] > 0
    assert not servers_with(tag)


def test_capacity_steps_wait_for_work_that_outlives_the_previous_step(perfgate, requests_file, tmp_path, tag):
    # Each server keeps a core busy for 1 s after its latest answer: every concurrency step and
    # offered rate after the first must start only once that is over (drained_s), or it is billed
    # the backlog (the first follows the other server's sweep: its linger may be long over).
    out = tmp_path / "out"
    r = perfgate("parity", "--serve-a", serve(tag, "--linger-ms", "1000"), "--serve-b", serve(tag, "--linger-ms", "1000"),
                 "--requests", requests_file, "--out", out, "--rounds", "2", "--window-s", "0.25", "--warmup-s", "0.05",
                 "--step-s", "0.15", "--max-concurrency", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = doc_of(out)
    for name in ("A", "B"):
        s = doc["per_server"][name]
        for step in s["concurrency"][1:] + s["offered"]:
            assert 0.8 <= step["drained_s"] < 10, (name, step)
    assert not servers_with(tag)


def test_capacity_measures_per_server(perfgate, requests_file, tmp_path, tag):
    out = tmp_path / "out"
    r = perfgate("parity", "--serve-a", serve(tag), "--serve-b", serve(tag), "--requests", requests_file, "--out", out,
                 "--rounds", "2", "--window-s", "0.25", "--warmup-s", "0.05", "--step-s", "0.15", "--max-concurrency", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = doc_of(out)
    assert doc["noise"] == "instance"  # both started by perfgate: a second instance of each
    for name in ("A", "B"):
        s = doc["per_server"][name]
        assert [c["concurrency"] for c in s["concurrency"]] == [1, 2]
        assert s["plateau"]["rps"] > 0 and s["arithmetic"]["predicted_rps"] > 0
        assert len(s["offered"]) == 3 and all(o["achieved_rps"] > 0 for o in s["offered"])
        assert s["cold_start_ms"] > 0 and s["rss_idle_kib"] > 0 and s["rss_peak_kib"] >= s["rss_idle_kib"]
        assert s["pss_kib"] > 0  # a page once, where RSS counts it once per mapping
        assert all(c["window_s"] >= 0.15 for c in s["concurrency"])
        assert s["bytes_per_response"] > 100
    assert not servers_with(tag)


def wait_for_marks(p, marks, prefix, count):
    """Waits (60 s at most) until `count` servers have left a `prefix` mark (parity_server.py
    --mark-dir) while perfgate still runs."""
    deadline = time.monotonic() + 60
    while len(list(marks.glob(prefix + "-*"))) < count and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    if len(list(marks.glob(prefix + "-*"))) < count or p.poll() is not None:
        p.kill()
        pytest.fail(f"no {count} server(s) marked {prefix} while perfgate ran: " + "".join(p.communicate()))


def test_interrupt_leaves_no_server_behind(perfgate_bin, requests_file, tmp_path, tag):
    marks = tmp_path / "marks"
    marks.mkdir()
    server = serve(tag, "--mark-dir", str(marks))
    p = subprocess.Popen([perfgate_bin, "parity", "--serve-a", server, "--serve-b", server, "--requests",
                          str(requests_file), "--out", str(tmp_path / "out"), "--rounds", "50", "--window-s", "0.5",
                          "--no-capacity"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Both servers up and answering: the agreement pass is under way.
    wait_for_marks(p, marks, "answered", 2)
    assert len(servers_with(tag)) >= 2
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert not servers_with(tag)
    assert not list(pathlib.Path(os.environ.get("TMPDIR", "/tmp")).glob(f"perfgate-run-{p.pid}-*"))


def test_interrupt_mid_window_does_not_wait_for_the_window_to_end(perfgate_bin, requests_file, tmp_path, tag):
    # 120 s windows: Ctrl-C must end the load at once, not after the window.
    marks = tmp_path / "marks"
    marks.mkdir()
    server = serve(tag, "--mark-dir", str(marks))
    p = subprocess.Popen([perfgate_bin, "parity", "--serve-a", server, "--serve-b", server, "--requests",
                          str(requests_file), "--out", str(tmp_path / "out"), "--rounds", "2", "--window-s", "120",
                          "--warmup-s", "0", "--no-capacity"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The agreement pass is over and the first window under way: a server answered the load generator.
    wait_for_marks(p, marks, "loaded", 1)
    sent = time.time()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert time.time() - sent < 20, f"took {time.time() - sent:.1f} s to stop"
    assert not servers_with(tag)


@pytest.mark.parametrize("content,needle", [
    ("/Items?ParentId=0123456789abcdef0123456789abcdef\n", "carries an id"),
    ("# nothing\n", "--requests"),
])
def test_bad_request_set_is_exit_2_naming_the_file(perfgate, tmp_path, content, needle):
    f = tmp_path / "bad.txt"
    f.write_text(content)
    r = perfgate("parity", "http://127.0.0.1:9", "http://127.0.0.1:9", "--requests", f, "--out", tmp_path / "o")
    assert r.returncode == 2, r.stdout + r.stderr
    assert str(f) in r.stderr and needle in r.stderr


def test_unreachable_server_is_exit_4(perfgate, requests_file, tmp_path):
    r = perfgate("parity", "http://127.0.0.1:9", "http://127.0.0.1:9", "--requests", requests_file,
                 "--out", tmp_path / "o")
    assert r.returncode == 4, r.stdout + r.stderr
    assert "URL_A" in r.stderr


def test_a_bad_parity_manifest_key_is_exit_2(perfgate, tmp_path):
    build = pathlib.Path(os.environ.get("PERFGATE_BUILD_DIR", ROOT / "build"))
    src = build / "share" / "perfgate" / "scenarios" / "asset_cache"
    import shutil
    folder = tmp_path / "catalog" / "asset_cache"
    shutil.copytree(src, folder, symlinks=True)
    doc = json.loads((folder / "scenario.json").read_text())
    doc["service"]["parity"] = {"statment_limits": {"/Artists": 20}}
    (folder / "scenario.json").unlink()
    (folder / "scenario.json").write_text(json.dumps(doc))
    r = perfgate("list", "--catalog", tmp_path / "catalog")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "service.parity.statment_limits: unknown key" in r.stderr
    doc["service"]["parity"] = {"statement_limits": {"Artists": 20}}
    (folder / "scenario.json").write_text(json.dumps(doc))
    r = perfgate("list", "--catalog", tmp_path / "catalog")
    assert r.returncode == 2 and "service.parity.statement_limits: must map routes" in r.stderr, r.stderr
    doc["service"]["parity"] = {"statement_counter": "mysql"}
    (folder / "scenario.json").write_text(json.dumps(doc))
    r = perfgate("list", "--catalog", tmp_path / "catalog")
    assert r.returncode == 2 and "service.parity.statement_counter" in r.stderr, r.stderr


# media_parity's own server (scenarios/media_parity): its test flags, over a tiny seeded library.
MEDIA = pathlib.Path(os.environ.get("PERFGATE_BUILD_DIR", ROOT / "build")) / "share" / "perfgate" / "scenarios" \
    / "media_parity" / "media_parity"
TINY = {"movies": 40, "series": 4, "seasons_per_series": 2, "episodes_per_season": 4, "artists": 6,
        "albums_per_artist": 2, "tracks_per_album": 3, "persons": 80, "studios": 5, "users": 4,
        "user_data_rows": 100, "movie_cast": 5, "episode_cast": 2, "seed": 3}


@pytest.fixture(scope="module")
def media_library(tmp_path_factory):
    if not MEDIA.exists():
        pytest.fail(f"{MEDIA} is missing: build the scenario_media_parity target first")
    target = tmp_path_factory.mktemp("media") / "library"
    subprocess.run([str(MEDIA), "seed", "--profile", "quick", "--target", str(target), "--params", json.dumps(TINY)],
                   check=True, capture_output=True, timeout=120)
    return target


def test_media_fill_people_drops_exactly_the_requests_without_fields_people(perfgate, media_library, tmp_path):
    out = tmp_path / "out"
    r = perfgate("parity", "--serve-a", f"{MEDIA} serve --variant after --fixture {media_library} --listen 127.0.0.1:0",
                 "--serve-b", f"{MEDIA} serve --variant after --fixture {media_library} --listen 127.0.0.1:0 "
                 "--test-fill-people", "--requests", media_library / "requests.txt", "--noise-source", "answer",
                 "--max-dropped", "0.9", "--out", out, *QUICK)
    assert r.returncode == 0, r.stdout + r.stderr
    ag = doc_of(out)["agreement"]
    assert ag["requests"] >= 40 and 0 < ag["dropped"] < ag["requests"]
    for d in ag["dropped_requests"]:
        assert set(d["fields"]) <= {"Items[].People", "[].People"}, d
        # --test-fill-people fills People only where Fields=People was not asked.
        assert "People" not in d["path"], d
    assert set(ag["blamed_fields"]) <= {"Items[].People", "[].People"} and ag["blamed_fields"]


def test_media_empty_lists_is_refused_as_not_doing_the_work(perfgate, media_library, tmp_path):
    out = tmp_path / "out"
    r = perfgate("parity", "--serve-a", f"{MEDIA} serve --variant after --fixture {media_library} --listen 127.0.0.1:0",
                 "--serve-b", f"{MEDIA} serve --variant after --fixture {media_library} --listen 127.0.0.1:0 "
                 "--test-empty-lists", "--requests", media_library / "requests.txt", "--noise-source", "answer",
                 "--out", out, *QUICK)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "not doing the work" in r.stderr
    assert "comparison" not in doc_of(out)
