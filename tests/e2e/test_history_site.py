"""End-to-end tests of `perfgate history publish` in a real browser (headless Chromium, tests/e2e/
browser.py): a history built by real `perfgate ab` runs and `history add`, published and read back
from the DOM — its pages, its points, its change point at the commit that made it, the run's
reproduce line and report link — with screenshots that must not be blank; and a generated history
of two host classes with three injected steps, whose site shows exactly those three change points
on the right series and the ones `history show --host-class` prints."""
import functools
import http.server
import io
import json
import os
import pathlib
import subprocess
import sys
import threading

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import browser  # noqa: E402
from conftest import BUILD, ROOT  # noqa: E402

WORK = BUILD / "libexec" / "perfgate" / "calibration_work"  # N one-byte writes: an exact syscall count
SEED = ROOT / "scripts" / "seed-history.py"


@pytest.fixture(scope="module")
def chromium():
    if browser.missing():
        pytest.fail(f"missing {browser.missing()}: bash scripts/setup.sh installs chromium, chromium-driver and "
                    "python3-selenium")
    with browser.chromium() as driver:
        yield driver


def shot(driver, path):
    """A screenshot that shows something: many colours, not a blank page."""
    from PIL import Image

    png = driver.get_screenshot_as_png()
    path.write_bytes(png)
    if os.environ.get("PERFGATE_SITE_SHOTS"):  # to keep them: a folder of your own
        (pathlib.Path(os.environ["PERFGATE_SITE_SHOTS"]) / path.name).write_bytes(png)
    image = Image.open(io.BytesIO(png)).convert("RGB").resize((320, 275))
    pixels = list(image.getdata())
    ink = sum(1 for p in pixels if min(p) < 200) / len(pixels)
    assert len(set(pixels)) > 20 and ink > 0.02, f"{path.name}: looks blank ({len(set(pixels))} colours, {ink:.1%} ink)"


def commit(repo, message):
    git = ["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", message], check=True)
    return subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


WRITES = [200, 200, 200, 200, 600, 600, 600, 600]  # from the fifth run on AFTER does three times the writes


@pytest.fixture(scope="module")
def real_site(tmp_path_factory, perfgate):
    tmp = tmp_path_factory.mktemp("site")
    repo = tmp / "project"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    commits, files = [], []
    for i, writes in enumerate(WRITES):
        commits.append(commit(repo, f"change {i}"))
        out = tmp / f"run{i}"
        r = perfgate("ab", "--metric", "syscalls", "--name", "spool", "--min-rounds", "3", "--max-rounds", "3",
                     "--before", f"{WORK} syscall 200", "--after", f"{WORK} syscall {writes}", "--out", out,
                     cwd=repo, env={"GITHUB_REF_NAME": "main", "GITHUB_HEAD_REF": "", "CI_COMMIT_REF_NAME": "",
                                      "PERFGATE_CANNOT_TELL": "fail"})
        # Exact syscall counts: three times the writes is worse (exit 1). The same writes are the
        # same, but three rounds cannot decide the wall-time guard at 95%: cannot tell (exit 5).
        assert r.returncode == (1 if writes > 200 else 5), r.stdout + r.stderr
        if writes == 200:
            assert "too few rounds for a 95% interval" in r.stdout + r.stderr, r.stdout + r.stderr
        files.append(out / "results.json")
    r = perfgate("report", files[-1])  # report.md beside the newest run's results
    assert r.returncode == 0, r.stdout + r.stderr
    db = tmp / "history.sqlite"
    r = perfgate("history", "add", *files, "--db", db)
    assert r.returncode == 0 and r.stdout.count("added") == len(WRITES), r.stdout + r.stderr
    site = tmp / "site"
    r = perfgate("history", "publish", "--db", db, "-o", site, "--baseline", "none")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "published 1 series (1 host class(es), 8 points) with 1 change point(s), 1 for the worse" in r.stdout
    return {"tmp": tmp, "db": db, "site": site, "commits": commits, "files": files}


def test_a_real_history_published_and_read_in_the_browser(real_site, chromium, perfgate):
    site, commits = real_site["site"], real_site["commits"]
    d = chromium
    browser.open_page(d, (site / "index.html").as_uri())
    rows = d.find_elements("css selector", "tbody tr")
    assert len(rows) == 1 and "spool" in rows[0].text and "syscalls" in rows[0].text
    assert d.find_elements("css selector", "tbody svg.spark polyline")
    shot(d, real_site["tmp"] / "index.png")
    rows[0].find_element("tag name", "a").click()
    browser.open_page(d, d.current_url)
    assert d.current_url.startswith((site / "series-spool.").as_uri())
    assert len(d.find_elements("css selector", "#plot circle.run")) == len(WRITES)
    changes = d.find_elements("css selector", "#plot line.change")
    assert len(changes) == 1
    assert changes[0].get_attribute("data-good-commit") == commits[3]
    assert changes[0].get_attribute("data-bad-commit") == commits[4]
    assert "worse" in changes[0].get_attribute("class")
    y_label = d.find_element("css selector", "#plot .axis-label.y").text
    assert y_label == "after/before ratio of syscalls (x)", y_label
    assert "ratio of syscalls (count ÷ count), lower is better" in d.find_element("css selector", "p.sub").text
    assert d.find_element("id", "better-arrow").text == "▼ lower is better"
    # The newest run is chosen when the page opens: its commit, branch, reproduce line and report.
    details = d.find_element("id", "details").text
    assert commits[-1] in details and "main" in details and "perfgate ab" in details, details
    link = d.find_element("id", "report-link").get_attribute("href")
    assert link.startswith("file://") and pathlib.Path(link[len("file://"):]) == real_site["files"][-1].parent / "report.md"
    # Choosing another run with the keyboard shows that run.
    plot = d.find_element("id", "plot")
    plot.send_keys("\ue012")  # ArrowLeft
    assert commits[-2] in d.find_element("id", "details").text
    assert "no report.md beside its results file" in d.find_element("id", "details").text
    shot(d, real_site["tmp"] / "series.png")
    # The same change point as `history show` prints for the class.
    cls = d.find_element("css selector", "h1").text.split(" · ")[-1]
    show = perfgate("history", "show", "spool", "syscalls", "--db", real_site["db"], "--host-class", cls)
    assert show.returncode == 0, show.stdout + show.stderr
    assert f"run #5: " in show.stdout and f"at commit {commits[4]}" in show.stdout
    # The same page from a static web server.
    handler = functools.partial(browser.QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = pathlib.Path(d.current_url).name
        browser.open_page(d, f"http://127.0.0.1:{server.server_address[1]}/{page}")
        assert len(d.find_elements("css selector", "#plot circle.run")) == len(WRITES)
    finally:
        server.shutdown()
    browser.open_page(d, (site / "regressions.html").as_uri())
    rows = d.find_elements("css selector", "tr.regression")
    assert len(rows) == 1 and rows[0].get_attribute("data-bad") == commits[4]
    assert f"perfgate bisect --good {commits[3]} --bad {commits[4]}" in rows[0].text
    shot(d, real_site["tmp"] / "regressions.png")


def test_publish_replaces_its_own_site_and_refuses_another_folder(real_site, perfgate, tmp_path):
    site = real_site["site"]
    (site / "stale.html").write_text("from an older publish")
    r = perfgate("history", "publish", "--db", real_site["db"], "-o", site, "--baseline", "none")
    assert r.returncode == 0, r.stderr
    assert not (site / "stale.html").exists() and (site / "index.html").exists()
    assert not [p for p in site.parent.iterdir() if ".staged-" in p.name]
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "todo.txt").write_text("mine")
    r = perfgate("history", "publish", "--db", real_site["db"], "-o", mine)
    assert r.returncode == 2 and "a folder with other files in it" in r.stderr and r.stderr.startswith("perfgate:")
    assert (mine / "todo.txt").read_text() == "mine" and len(list(mine.iterdir())) == 1


# asset_cache gates cpu_ms, auth_herd wall_ms, dto_mapping a throughput (higher is better): class 0's
# asset_cache gets 30% slower, class 1's auth_herd 25% faster, class 0's dto_mapping loses 30%.
STEPS = ["asset_cache:0:40:1.3", "auth_herd:1:30:0.75", "dto_mapping:0:55:0.7"]


def test_three_injected_steps_are_exactly_the_change_points_of_the_site(chromium, perfgate, perfgate_bin, tmp_path):
    db, truth = tmp_path / "h.sqlite", tmp_path / "truth.json"
    r = subprocess.run([sys.executable, str(SEED), "--db", str(db), "--runs", "90", "--scenarios", "5",
                        "--quiet-history", "--truth", str(truth), "--perfgate", perfgate_bin,
                        *[a for s in STEPS for a in ("--step", s)]], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    steps = json.loads(truth.read_text())["steps"]
    assert len(steps) == 3
    baseline = tmp_path / "baseline.json"  # every class's newest accepted runs: each series gets its band
    r = perfgate("baseline", "update", "--from-history", db, "--branch", "main", "--baseline", baseline)
    assert r.returncode == 0, r.stdout + r.stderr
    site = tmp_path / "site"
    r = perfgate("history", "publish", "--db", db, "-o", site, "--baseline", baseline)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "published 10 series (2 host class(es)" in r.stdout and "with 3 change point(s), 2 for the worse" in r.stdout
    d = chromium
    browser.open_page(d, (site / "index.html").as_uri())
    series = [(a.get_attribute("href"), a.text) for a in d.find_elements("css selector", "tbody th a")]
    assert len(series) == 10
    found, points = {}, {}
    for href, title in series:
        browser.open_page(d, href)
        scenario, metric, profile, cls = d.find_element("css selector", "h1").text.split(" · ")
        runs = len(d.find_elements("css selector", "#plot circle.run"))
        points[scenario] = points.get(scenario, 0) + runs
        assert d.find_elements("id", "band"), f"{title}: no accepted band: {d.find_element('id', 'band-text').text}"
        for line in d.find_elements("css selector", "#plot line.change"):
            found[(scenario, cls)] = found.get((scenario, cls), []) + [
                (line.get_attribute("data-bad-commit"), "worse" in line.get_attribute("class"))]
        show = perfgate("history", "show", scenario, metric, "--db", db, "--host-class", cls)
        assert show.returncode == 0, show.stderr
        shown = [l.split("at commit ")[1].split()[0] for l in show.stdout.splitlines() if l.startswith("  run #")]
        assert shown == [c for c, _ in found.get((scenario, cls), [])], (title, show.stdout)
    expected = {(s["scenario"], s["host_class"]): [(s["commit"], s["factor"] > 1 if s["scenario"] != "dto_mapping"
                                                    else s["factor"] < 1)] for s in steps}
    assert found == expected
    assert points == {name: 90 for name in ("asset_cache", "auth_herd", "blob_stampede", "carddav_report", "dto_mapping")}
    browser.open_page(d, (site / "regressions.html").as_uri())
    rows = d.find_elements("css selector", "tr.regression")
    worse = sorted((s for s in steps if s["scenario"] != "auth_herd"), key=lambda s: -s["run"])  # newest first
    assert [r.get_attribute("data-bad") for r in rows] == [s["commit"] for s in worse]
    assert all("perfgate bisect --good " in r.text for r in rows)
