// __NAME__'s HTTP server: GET /answer/<key> answers 200 with the variant's answer (404 for any
// other path), HTTP/1.1 keep-alive, one thread per connection.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace __NAME__ {

using Handler = std::function<std::string(std::int64_t key)>;

// Listens on `listen` (HOST:PORT, port 0: any), prints the contract's {"listen": "HOST:PORT"}
// line once it accepts connections and serves until SIGTERM or SIGINT; then the process exits 0.
[[noreturn]] void serve_http(const std::string& listen, const Handler& answer);

}  // namespace __NAME__
