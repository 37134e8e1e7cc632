#include "server.hpp"

#include <signal.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "perfgate/sample.hpp"

namespace __NAME__ {
namespace {

namespace http = boost::beast::http;
using boost::asio::ip::tcp;

void session(tcp::socket socket, const Handler& answer) {
  boost::beast::flat_buffer buffer;
  boost::beast::error_code ec;
  for (;;) {
    http::request<http::string_body> req;
    http::read(socket, buffer, req, ec);
    if (ec) return;  // the client closed the connection (or sent garbage): nothing to answer
    http::response<http::string_body> res{http::status::ok, req.version()};
    const std::string target(req.target()), prefix = "/answer/";
    std::int64_t key = 0;
    const char* end = target.data() + target.size();
    if (target.size() > prefix.size() && target.compare(0, prefix.size(), prefix) == 0 &&
        std::from_chars(target.data() + prefix.size(), end, key).ptr == end) {
      res.body() = answer(key);
    } else {
      res.result(http::status::not_found);
      res.body() = "unknown path\n";
    }
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    http::write(socket, res, ec);
    if (ec || !res.keep_alive()) return;
  }
}

}  // namespace

void serve_http(const std::string& listen, const Handler& answer) {
  // Blocked in every thread (they inherit the mask), so only sigwait below sees them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  const perfgate::Endpoint at = perfgate::parse_endpoint(listen);
  boost::asio::io_context io;
  tcp::acceptor acceptor(io, {boost::asio::ip::make_address(at.host), at.port});
  perfgate::announce_listen(at.host, acceptor.local_endpoint().port());
  std::thread([&] {
    for (;;) {
      boost::beast::error_code ec;
      tcp::socket s = acceptor.accept(ec);
      if (ec) return;
      std::thread(session, std::move(s), std::cref(answer)).detach();
    }
  }).detach();
  int sig = 0;
  sigwait(&stop, &sig);
  // Exit here, not by unwinding: connection threads may still be inside `answer`, whose data
  // would be destroyed under them. Exit 0: the harness reads any other code as a failed run.
  std::cout.flush();
  std::_Exit(0);
}

}  // namespace __NAME__
