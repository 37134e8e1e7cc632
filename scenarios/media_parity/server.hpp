// The media server: HTTP/1.1 (Boost.Beast) with keep-alive, one thread per connection, each
// request answered on a pooled SQLite connection.
//
//   GET <route>?<query>   JSON in Jellyfin's conventions (routes.hpp); every answer carries
//                         X-Perfgate-Statements: the SQL statements that request ran
//   POST /Users/{UserId}/PlayedItems/{ItemId}   Jellyfin's mark played (played.hpp), on the
//                         server's private copy of the library
//   GET /_stats           {"requests": n, "statements": n,
//                          "routes": {"/Artists": {"requests": r, "statements": s}, ...}}
//   anything else         404 (unknown path), 405 (another method), 400 (bad parameter)
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

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

// Runs `body`, which fills `a`; an HttpError it throws becomes its status and {"error": ...},
// any other exception a 500: every route's one way of failing.
void answer_or_error(Answer& a, const std::function<void()>& body);

// The lie "played-cache": a response cache in front of every GET route, keyed by the request's
// canonical form (Request::key: the route and its parameters in name order) and never
// invalidated, so a write (mark played) is never seen by a question answered before it.
class ResponseCache {
 public:
  std::optional<std::string> find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = bodies_.find(key);
    return it == bodies_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  void keep(const std::string& key, const std::string& body) {
    std::lock_guard<std::mutex> lock(mutex_);
    bodies_.emplace(key, body);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::string> bodies_;  // 200 answers only
};

}  // namespace media_parity
