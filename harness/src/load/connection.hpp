// One request and one keep-alive connection of the load engine (internal to perfgate::load).
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "load/body_parser.hpp"

namespace perfgate::load {

using Clock = std::chrono::steady_clock;

struct Request {
  std::uint64_t k = 0;
  std::size_t path = 0;
  Clock::time_point origin;  // latency origin: the write (closed loop) or the intended send time (open loop)
  bool measured = false;
  bool waited = false;  // open loop: found no free connection at its intended time
};

struct Conn {
  explicit Conn(boost::asio::io_context& io) : sock(io), backoff(io) {
    // The reader receives into the free capacity: with room up front a 16 KiB body takes one
    // recvmsg, not dozens.
    buf.reserve(64 * 1024);
  }
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

  boost::asio::ip::tcp::socket sock;
  boost::asio::steady_timer backoff;
  boost::beast::flat_buffer buf;
  std::optional<BodyParser> parser;
  std::string body;     // the response being read
  std::string headers;  // and its meaningful headers (BodyParser::meaningful_headers)
  std::string error;    // why the last request failed (for the response gate)
  bool open = false;
  bool busy = false;
  bool timed_out = false;
  Request req;
  Clock::time_point started;  // when this connection started on req (timeout origin)
};

}  // namespace perfgate::load
