// Where a server listens: what a scenario's `serve` is given (`--listen HOST:PORT`), what it
// announces once ready (announce_listen: {"listen": "HOST:PORT"}) and what the harness and
// perfgate/server_process.hpp read back. The one parser of that text: `HOST:PORT`, or
// `[V6]:PORT` for an IPv6 address (the brackets are not part of `host`).
//
//   const perfgate::Endpoint at = perfgate::parse_endpoint(inv.listen);  // "127.0.0.1:0"
//   tcp::acceptor acceptor(io, {boost::asio::ip::make_address(at.host), at.port});
//   perfgate::announce_listen(at.host, acceptor.local_endpoint().port());
#pragma once

#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace perfgate {

struct Endpoint {
  std::string host = "127.0.0.1";
  unsigned short port = 0;

  // "HOST:PORT", with an IPv6 host in brackets so parse_endpoint reads it back.
  std::string to_string() const {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
  }
};

// Throws std::invalid_argument saying what is wrong with `text`: no port, a port that is not a
// number from 0 to 65535, no host, or an IPv6 address without brackets.
inline Endpoint parse_endpoint(std::string_view text) {
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument("'" + std::string(text) + "' is not HOST:PORT or [IPv6]:PORT: " + why);
  };
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) throw fail("no port");
  std::string_view host = text.substr(0, colon);
  const std::string_view port = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos || host.find_first_of("[]") != std::string_view::npos) {
    throw fail("an IPv6 address goes in brackets, as [::1]:PORT");
  }
  if (host.empty()) throw fail("no host");
  if (port.empty()) throw fail("no port");
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
    throw fail("the port '" + std::string(port) + "' is not a number from 0 to 65535");
  const unsigned long number = std::stoul(std::string(port));
  if (number > 65535) throw fail("the port " + std::string(port) + " is above 65535");
  return Endpoint{std::string(host), static_cast<unsigned short>(number)};
}

// `serve`: tell the harness where we listen, once ready (the line perfgate waits for).
inline void announce_listen(const Endpoint& at) {
  std::cout << nlohmann::json{{"listen", at.to_string()}}.dump() << std::endl;
}
inline void announce_listen(const std::string& host, unsigned port) {
  announce_listen(Endpoint{host, static_cast<unsigned short>(port)});
}

}  // namespace perfgate
