"""imap_select's independent reference: a private Dovecot (scenarios/imap_select/dovecot/)
serving a Maildir of the fixture's INBOX. It must agree with the proxy on what a SELECT and
`FETCH 1:* (UID FLAGS)` mean (the agree phase's extra.semantic, gated across variants), be
timed like the proxies, and leave no process or directory behind: stopped by SIGTERM, SIGINT,
or its owner SIGKILLed."""
import glob
import imaplib
import json
import os
import pathlib
import shutil
import signal
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("PERFGATE_BUILD_DIR", ROOT / "build"))
SCENARIO = BUILD / "share" / "perfgate" / "scenarios" / "imap_select"
PROGRAM = SCENARIO / "imap_select"

pytestmark = pytest.mark.skipif(not pathlib.Path("/usr/sbin/dovecot").exists(),
                                reason="dovecot-imapd is not installed (scripts/setup.sh installs it)")


def private_dirs():
    return glob.glob("/dev/shm/perfgate-*-dovecot-*") + glob.glob("/tmp/perfgate-*-dovecot-*")


def live_dovecots(marker):
    """Dovecot processes (zombies aside) whose command line names `marker`."""
    out = subprocess.run(["ps", "-eo", "stat=,args="], capture_output=True, text=True).stdout
    return [l for l in out.splitlines() if marker in l and not l.lstrip().startswith("Z")]


@pytest.fixture(scope="module")
def fixture_dir(tmp_path_factory):
    if not PROGRAM.exists():
        pytest.fail(f"{PROGRAM} is missing: build the target scenario_imap_select")
    d = tmp_path_factory.mktemp("imapfx")
    subprocess.run([str(PROGRAM), "seed", "--target", str(d), "--params", json.dumps({"messages": 600})],
                   check=True, capture_output=True, timeout=120)
    return d


def start(fixture_dir, tmp_path):
    out = tmp_path / "serve.out"
    p = subprocess.Popen([str(PROGRAM), "serve", "--variant", "dovecot", "--fixture", str(fixture_dir)],
                         stdout=open(out, "w"), stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        text = out.read_text()
        if "listen" in text:
            return p, json.loads(text.splitlines()[0])
        assert p.poll() is None, p.stderr.read()
        time.sleep(0.05)
    p.kill()
    pytest.fail("serve --variant dovecot did not listen within 60 s")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_dovecot_serves_the_fixture_and_leaves_nothing_behind(fixture_dir, tmp_path, how):
    before = set(private_dirs())
    p, line = start(fixture_dir, tmp_path)
    assert line["maildir_messages"] == 600
    mine = set(private_dirs()) - before
    assert len(mine) == 1, mine
    host, port = line["listen"].split(":")
    m = imaplib.IMAP4(host, int(port))
    m.login("alice@example.test", "imap-select-pw")
    typ, data = m.select("INBOX")
    assert typ == "OK" and data == [b"600"]
    typ, fetched = m.fetch("1:*", "(UID FLAGS)")
    assert typ == "OK" and len(fetched) == 600
    m.logout()
    p.send_signal(how)
    assert p.wait(timeout=30) == 0, p.stderr.read()
    private = mine.pop()
    assert not os.path.exists(private)
    assert not live_dovecots(private)


def test_a_sigkilled_owner_leaves_no_dovecot_and_its_directory_is_swept(fixture_dir, tmp_path):
    before = set(private_dirs())
    p, _ = start(fixture_dir, tmp_path)
    private = (set(private_dirs()) - before).pop()
    p.kill()
    p.wait()
    deadline = time.time() + 10
    while live_dovecots(private) and time.time() < deadline:
        time.sleep(0.1)
    assert not live_dovecots(private), "the master dies with its owner (PR_SET_PDEATHSIG)"
    if private.startswith("/dev/shm/"):  # /tmp is the harness's sweep; /dev/shm the next instance's
        q, _ = start(fixture_dir, tmp_path)
        assert not os.path.exists(private)
        q.terminate()
        q.wait(timeout=30)
    else:
        shutil.rmtree(private, ignore_errors=True)


def test_dovecot_agrees_with_both_proxies_and_is_timed(perfgate, tmp_path):
    if not PROGRAM.exists():
        pytest.fail(f"{PROGRAM} is missing: build the target scenario_imap_select")
    folder = tmp_path / "catalog" / "imap_select"
    shutil.copytree(SCENARIO, folder, symlinks=True)
    doc = json.loads((folder / "scenario.json").read_text())
    for v in doc["variants"]:
        v.pop("profiles", None)  # the bundled manifest runs Dovecot at 10k and 100k only
    doc["profiles"]["quick"]["params"]["messages"] = 600
    # The SELECT timings' check against the phase wall allows 5% of BEFORE's sum: at 600 messages
    # that is under 0.5 ms, less than the phase's other costs move between two rounds (seen: 2 ms).
    # This test asks whether Dovecot agrees, not whether the load client's clock is believed.
    doc.pop("self_reported", None)
    (folder / "scenario.json").unlink()
    (folder / "scenario.json").write_text(json.dumps(doc))
    before, masters = set(private_dirs()), set(live_dovecots("-dovecot-"))
    r = perfgate("run", "imap_select", "--catalog", tmp_path / "catalog", "--profile", "quick",
                 "--min-rounds", "2", "--max-rounds", "2", "--warmup", "0", "--policy", "no-regress",
                 "--baseline", "none", "--quiet", "--json", tmp_path / "results.json", timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    sc = json.loads((tmp_path / "results.json").read_text())["scenarios"][0]
    gate = next(g for g in sc["gates"] if g["name"] == "same agree answers")
    assert gate["outcome"] == "passed", gate
    views = {v: sc["extra"][v]["phases"]["agree"]["semantic"] for v in ("before", "after", "dovecot")}
    assert views["dovecot"] == views["before"] == views["after"], views
    assert "EXISTS=600 " in views["dovecot"]
    dovecot = [s for s in sc["samples"] if s["variant"] == "dovecot"]
    assert len(dovecot) == 2 and all(s["metrics"]["serial_select_p50_ms"]["value"] > 0 for s in dovecot)
    assert set(private_dirs()) <= before, "every private instance's directory is removed"
    assert set(live_dovecots("-dovecot-")) <= masters, "no private Dovecot outlives its sample"
