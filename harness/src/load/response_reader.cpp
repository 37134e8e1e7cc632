#include "load/response_reader.hpp"

#include <sys/socket.h>
#include <time.h>

#include <algorithm>
#include <boost/beast/http/error.hpp>
#include <cerrno>
#include <cstring>

namespace perfgate::load {
namespace {

using Clock = std::chrono::steady_clock;

// A realtime stamp on the steady clock: both clocks are read now and the stamp's age carried
// over (the kernel stamps with CLOCK_REALTIME).
Clock::time_point on_steady_clock(const timespec& stamp) {
  timespec real{};
  clock_gettime(CLOCK_REALTIME, &real);
  const auto steady_now = Clock::now();
  const auto age =
      std::chrono::seconds(real.tv_sec - stamp.tv_sec) + std::chrono::nanoseconds(real.tv_nsec - stamp.tv_nsec);
  // A stamp "from the future" (the realtime clock stepped back) is taken as now.
  return steady_now - std::max(std::chrono::duration_cast<Clock::duration>(age), Clock::duration::zero());
}

}  // namespace

bool stamp_arrivals(int fd) {
  const int on = 1;
  return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0;
}

ReadStep read_available(int fd, boost::beast::flat_buffer& buf, BodyParser& parser) {
  namespace http = boost::beast::http;
  ReadStep step;
  bool stamped = false;
  timespec stamp{};
  auto done = [&] {
    step.kind = ReadStep::Done;
    step.arrived = stamped ? on_steady_clock(stamp) : Clock::now();
    return step;
  };
  auto failed = [&](std::string why) {
    step.kind = ReadStep::Failed;
    step.error = std::move(why);
    return step;
  };
  parser.eager(true);
  for (;;) {
    if (buf.size() > 0) {
      boost::system::error_code ec;
      const std::size_t used = parser.put(buf.data(), ec);
      buf.consume(used);
      if (ec == http::error::need_more)
        ec = {};
      else if (ec)
        return failed("the response could not be read: " + ec.message());
      if (parser.is_done()) return done();
      if (used > 0 && buf.size() > 0) continue;
    }
    // Room for a large body in few calls (the connection's buffer keeps its capacity).
    const auto room = buf.prepare(std::max<std::size_t>(buf.capacity() - buf.size(), 16 * 1024));
    iovec iov{room.data(), room.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t n = recvmsg(fd, &msg, MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        step.kind = ReadStep::More;
        return step;
      }
      return failed(std::string("the response could not be read: ") + std::strerror(errno));
    }
    if (n == 0) {
      boost::system::error_code ec;
      parser.put_eof(ec);
      if (!ec && parser.is_done()) return done();
      return failed("the response could not be read: the server closed the connection before it was complete");
    }
    buf.commit(static_cast<std::size_t>(n));
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
        std::memcpy(&stamp, CMSG_DATA(c), sizeof stamp);
        stamped = true;
      }
    }
  }
}

}  // namespace perfgate::load
