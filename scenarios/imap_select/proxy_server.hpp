// `imap_select serve`: the IMAP proxy on 127.0.0.1, one thread per connection (Boost.Asio,
// blocking sockets), until SIGTERM or SIGINT; then every connection is shut down, the writer
// stopped, the private cache removed. With `workers` > 1 it also starts that many minus one
// more proxy processes (its children, each with its own copy of the cache) and announces
// them all: {"listen": "127.0.0.1:P0", "targets": ["127.0.0.1:P0", "127.0.0.1:P1", ...]}.
#pragma once

#include <string>

#include "proxy.hpp"

namespace imap_select {

struct ServeOptions {
  ProxyOptions proxy;
  std::string listen = "127.0.0.1:0";
  std::string profile;
  int workers = 1;            // processes in all
  bool worker_child = false;  // started by another proxy process: announce only itself
};

int serve(const ServeOptions& o);

}  // namespace imap_select
