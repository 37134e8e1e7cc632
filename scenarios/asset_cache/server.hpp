// The asset server: HTTP/1.1 (Boost.Beast) with keep-alive on one address.
//
//   GET /assets/<package>/<version>/<file>   the asset: gzip bytes with Content-Encoding: gzip
//                                            when the request accepts gzip, inflated otherwise
//   GET /_stats                              {"requests", "hits", "misses", "not_found", ...}
//   anything else                            404 (unknown path), 405 (not GET/HEAD),
//                                            400 (malformed request; the connection closes)
//
// Threads: `io_threads` connection threads run the sockets, parse requests and write (and
// inflate) responses; one actor thread owns the SQLite connection and the cache, so the
// cache has no lock. Connection threads hand it lookups through a queue and wake it once per
// round of ready sockets; it answers a whole batch in one post (see Actor in server.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace asset_cache {

struct ServerOptions {
  std::string fixture_dir;
  std::string listen = "127.0.0.1:0";
  std::string cache = "none";  // none | lru-scan | lru
  std::size_t capacity = 256;
  int io_threads = 1;
  // A declared lie (scenario.json `lies`), "" when honest: "empty-hit" answers every cache hit
  // with an empty body; "stale-hit" answers a hit with the body of the request answered before
  // it; "error-1pct" answers every 100th asset request 500 without looking it up;
  // "key-no-version" keys the cache by package and file (another version's body on a hit);
  // "hit-no-headers" answers a hit without Content-Type and Vary; "crossed-answers" hands a
  // batch's answers to its sessions one place off.
  std::string lie;
};

// Serves until SIGTERM or SIGINT, then returns 0. Prints {"listen": "HOST:PORT"} on stdout
// once it accepts connections. Throws on a bad option or a missing fixture.
int serve(const ServerOptions& options);

}  // namespace asset_cache
