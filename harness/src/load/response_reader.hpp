// Reading one HTTP/1.1 response with the time its bytes reached this host (internal to
// perfgate::load).
//
// The open loop reads responses only when it wakes (http_load.hpp, LoadOptions::tick_us): the
// moment the thread gets to a response says nothing about when it arrived. The kernel stamps
// every received segment (SO_TIMESTAMPNS) and recvmsg hands the stamp of the last one read
// back; that stamp, not the time the thread woke, ends a request's latency.
#pragma once

#include <boost/beast/core/flat_buffer.hpp>
#include <chrono>
#include <string>

#include "load/body_parser.hpp"

namespace perfgate::load {

// Asks the kernel to stamp what this socket receives; false when it cannot (then the time a
// response is read stands in for its arrival).
bool stamp_arrivals(int fd);

struct ReadStep {
  enum Kind {
    Done,    // the response is complete
    More,    // the socket has nothing more to read yet: wait until it is readable
    Failed,  // malformed, reset, or closed before the response was complete (error says which)
  };
  Kind kind = More;
  // Done: when the response's last bytes arrived (the kernel's stamp, on the steady clock).
  std::chrono::steady_clock::time_point arrived;
  std::string error;
};

// Reads what `fd` holds now (never blocks) into `buf` and parses it with `parser` (eager)
// until the response is complete or the socket is empty. Bytes after a complete response
// stay in `buf` for the next one.
ReadStep read_available(int fd, boost::beast::flat_buffer& buf, BodyParser& parser);

}  // namespace perfgate::load
