// Where a server listens: what a scenario's `serve` announces (sample.hpp's announce_listen)
// and what perfgate/server_process.hpp reads back from a server the program starts itself.
#pragma once

#include <string>

namespace perfgate {

struct Endpoint {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
};

}  // namespace perfgate
