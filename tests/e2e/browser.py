"""Headless Chromium for the history site's tests (test_history_site.py) and its page-load figures
(scripts/site-load-time.py): Debian's chromium and chromium-driver, driven by Debian's
python3-selenium (scripts/setup.sh installs all three). The machine has no network, and the site
needs none: every background service of the browser is off, and each browser has a fresh profile."""
import contextlib
import http.server
import pathlib
import shutil
import tempfile

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1100"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static web server's handler that keeps its request log to itself."""

    def log_message(self, *args):
        pass


def missing():
    """What of the browser is not installed (empty when everything is)."""
    out = [p for p in (CHROMIUM, DRIVER) if not pathlib.Path(p).exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        out.append("python3-selenium")
    return out


@contextlib.contextmanager
def chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="perfgate-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # script errors, for open_page
    for f in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(f)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def open_page(driver, url, timeout=30):
    """Loads a page and waits (until a deadline) for its script to say it has drawn it; returns the
    milliseconds from navigation start to that moment (the page's own performance.now()). A
    script error in the console fails, naming it."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    try:
        drawn = WebDriverWait(driver, timeout).until(
            lambda d: d.execute_script("return document.body && document.body.dataset.drawnMs || null"))
    except TimeoutException:
        raise AssertionError(f"{url}: not drawn within {timeout} s: {console_errors(driver)} "
                             f"(body: {driver.find_element('tag name', 'body').text[:300]!r})") from None
    errors = console_errors(driver)
    assert not errors, f"{url}: {errors}"
    return int(drawn)


def console_errors(driver):
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
