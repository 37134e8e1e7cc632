// The HTTP client side of the remote blob store (remote_server.cpp), on Boost.Beast.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "perfgate/endpoint.hpp"

namespace blob_stampede {

using Endpoint = perfgate::Endpoint;

struct RemoteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// GET /blobs/<sha256>, streaming the body to `on_bytes` as it arrives. Returns the body
// size. Throws RemoteError on a refused connection, a non-200 status, or a body cut short.
std::uint64_t fetch_blob(const Endpoint& remote, const std::string& sha256,
                         const std::function<void(const char*, std::size_t)>& on_bytes);

struct RemoteStats {
  std::uint64_t fetches = 0;    // blob requests received
  std::uint64_t bytes = 0;      // body bytes sent
  std::uint64_t completed = 0;  // bodies sent whole
  std::uint64_t failed = 0;     // bodies cut short (injected failures, clients gone)
};

// GET /stats (not counted as a fetch).
RemoteStats fetch_stats(const Endpoint& remote);

}  // namespace blob_stampede
