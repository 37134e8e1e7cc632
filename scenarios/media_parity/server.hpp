// The media server: HTTP/1.1 (Boost.Beast) with keep-alive, one thread per connection, each
// request answered on a pooled SQLite connection.
//
//   GET <route>?<query>   JSON in Jellyfin's conventions (routes.hpp); every answer carries
//                         X-Perfgate-Statements: the SQL statements that request ran
//   GET /_stats           {"requests": n, "statements": n,
//                          "routes": {"/Artists": {"requests": r, "statements": s}, ...}}
//   anything else         404 (unknown path), 405 (not GET), 400 (bad parameter)
#pragma once

#include <string>

#include "request.hpp"

namespace media_parity {

struct ServerOptions {
  std::string fixture_dir;
  std::string listen = "127.0.0.1:0";
  ServeOptions answers;
};

// Serves until SIGTERM or SIGINT, then returns 0. Prints {"listen": "HOST:PORT"} on stdout
// once it accepts connections. Throws on a bad option or a missing fixture.
int serve(const ServerOptions& options);

// One request answered without a socket (the server's core, also used by the tests):
// status, body, statements run.
struct Answer {
  int status = 200;
  std::string body;
  std::uint64_t statements = 0;
};
class Pool;
Answer answer(Pool& pool, const std::string& target, const ServeOptions& options);

}  // namespace media_parity
