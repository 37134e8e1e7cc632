"""media_parity over HTTP: the program seeds, serves both variants on real sockets, answers the
request set alike with X-Perfgate-Statements on every answer, keeps per-route /_stats, refuses
bad input with a message, and leaves nothing behind on SIGTERM."""
import http.client
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from statements import BIN, Server, requests_of  # noqa: E402  (one copy of the server driver)

PARAMS = {"movies": 30, "series": 3, "seasons_per_series": 2, "episodes_per_season": 4, "artists": 60,
          "albums_per_artist": 1, "tracks_per_album": 3, "persons": 80, "studios": 6, "user_data_rows": 200}


@pytest.fixture(scope="module")
def fixture_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("media_parity")
    out = subprocess.run([str(BIN), "seed", "--profile", "quick", "--target", str(d), "--params", json.dumps(PARAMS)],
                         capture_output=True, text=True, timeout=120, check=True)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["requests"] >= 40
    return d


@pytest.fixture
def servers(fixture_dir):
    started = []

    def start(variant, *flags):
        s = Server(fixture_dir, variant, *flags)
        started.append(s)
        return s
    yield start
    for s in started:
        s.kill()


def test_both_variants_answer_every_request_alike_and_count_statements(fixture_dir, servers):
    before, after = servers("before"), servers("after")
    header_sum = {"before": {}, "after": {}}
    for _, path in requests_of(fixture_dir):
        sb, bb, nb = before.get(path)
        sa, ba, na = after.get(path)
        assert sb == 200, (path, bb[:200])
        assert (sa, ba) == (sb, bb), path
        json.loads(ba)  # JSON, not just bytes
        assert nb is not None and na is not None and int(na) >= 1
        route = path.split("?", 1)[0]
        for name, n in (("before", nb), ("after", na)):
            header_sum[name][route] = header_sum[name].get(route, 0) + int(n)
    for name, server in (("before", before), ("after", after)):
        status, body, statements = server.get("/_stats")
        assert status == 200 and statements is None  # /_stats is not a counted request
        stats = json.loads(body)
        routes = stats["routes"]
        assert {r: v["statements"] for r, v in routes.items()} == header_sum[name]
        assert stats["requests"] == len(requests_of(fixture_dir))
        assert stats["statements"] == sum(header_sum[name].values())
    after_stats = json.loads(after.get("/_stats")[1])["routes"]
    before_stats = json.loads(before.get("/_stats")[1])["routes"]
    for route, limit in (("/Artists", 20), ("/Items/Counts", 9)):
        assert after_stats[route]["statements"] <= limit * after_stats[route]["requests"], route
        assert before_stats[route]["statements"] > 3 * after_stats[route]["statements"], route
    assert before.stop() == 0 and after.stop() == 0


def test_jellyfin_conventions(fixture_dir, servers):
    s = servers("after")
    status, body, _ = s.get("/Items?IncludeItemTypes=Movie&Limit=3&StartIndex=2&Fields=People,Overview,Genres"
                            "&UserId=user00")
    page = json.loads(body)
    assert list(page) == ["Items", "TotalRecordCount", "StartIndex"]
    assert page["TotalRecordCount"] == 30 and page["StartIndex"] == 2 and len(page["Items"]) == 3
    item = page["Items"][0]
    assert item["Type"] == "Movie" and len(item["Id"]) == 32
    assert all(v is not None for v in item.values())  # nulls omitted
    assert {"People", "Overview", "Genres", "UserData", "ImageTags"} <= set(item)
    assert item["People"][0]["Type"] in ("Actor", "Director", "Writer")
    plain = json.loads(s.get("/Items?IncludeItemTypes=Movie&Limit=3&UserId=user00")[1])["Items"][0]
    assert "People" not in plain and "Overview" not in plain


def test_bad_input_is_refused_naming_it(fixture_dir, servers, tmp_path):
    s = servers("after")
    assert s.get("/Items?UserId=user00&Limit=-1")[0] == 400
    status, body, _ = s.get("/Items?IncludeItemTypes=Movie")
    assert status == 400 and b"UserId" in body
    assert s.get("/Nowhere?UserId=user00")[0] == 404
    missing = subprocess.run([str(BIN), "serve", "--variant", "after", "--fixture", str(tmp_path / "absent"),
                              "--listen", "127.0.0.1:0"], capture_output=True, text=True, timeout=30)
    assert missing.returncode != 0 and "library.db" in missing.stderr
    unknown = subprocess.run([str(BIN), "serve", "--variant", "sideways", "--fixture", str(fixture_dir)],
                             capture_output=True, text=True, timeout=30)
    assert unknown.returncode == 2 and "sideways" in unknown.stderr
    bad = subprocess.run([str(BIN), "seed", "--target", str(tmp_path / "x"), "--params", '{"users": 2}'],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode != 0 and "params.users" in bad.stderr


def test_sigterm_with_open_connections_exits_zero(fixture_dir, servers):
    s = servers("before")
    idle = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
    idle.request("GET", "/UserViews?UserId=user01")
    idle.getresponse().read()  # keep-alive: the connection stays open
    assert s.stop() == 0
    idle.close()
