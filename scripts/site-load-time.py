#!/usr/bin/python3
"""How long each page of a published history site takes to load and draw in headless Chromium
(tests/e2e/browser.py: Debian's chromium, chromium-driver and python3-selenium): from the start of
the navigation to the frame after the one that painted the page's plots and tables (the page's own
performance.now(), written by its script). Every page of the site, from file:// and from a static
web server on 127.0.0.1 (Python's http.server), REPEAT times each in a fresh browser; prints each
series page's slowest load, then the slowest and the median of all.

  scripts/site-load-time.py SITE_DIR [--repeat 3]
"""
import argparse
import functools
import http.server
import pathlib
import statistics
import sys
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "e2e"))
import browser  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("site")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    site = pathlib.Path(args.site).resolve()
    pages = ["index.html", "regressions.html"] + sorted(p.name for p in site.glob("series-*.html"))
    if missing := browser.missing():
        sys.exit(f"site-load-time: missing {missing} (bash scripts/setup.sh installs them)")
    handler = functools.partial(browser.QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    bases = {"file": site.as_uri() + "/", "http": f"http://127.0.0.1:{server.server_address[1]}/"}
    times = {(how, page): [] for how in bases for page in pages}
    for _ in range(args.repeat):
        with browser.chromium() as d:
            for how, base in bases.items():
                for page in pages:
                    times[(how, page)].append(browser.open_page(d, base + page))
    server.shutdown()
    for page in pages:
        data = site / "data" / (page[:-len(".html")] + ".js")
        worst = max(max(times[(how, page)]) for how in bases)
        print(f"{worst:6d} ms  {data.stat().st_size / 1e6:6.2f} MB data  {page}")
    every = [t for ts in times.values() for t in ts]
    print(f"site-load-time: {len(pages)} pages x {len(bases)} ways x {args.repeat}: slowest {max(every)} ms, "
          f"median {statistics.median(every):.0f} ms")


if __name__ == "__main__":
    main()
