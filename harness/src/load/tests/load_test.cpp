// run_load against a small real HTTP server (Beast, 127.0.0.1:0, its own thread) that can
// stall, hang, close and answer any status on demand. Assertions are about relationships
// (counts, digests, latency against the stall), never absolute timings.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "load/http_load.hpp"
#include "load/probes.hpp"
#include "perfgate/sample.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using perfgate::load::LoadOptions;
using perfgate::load::LoadResult;
using perfgate::load::RequestSet;
using perfgate::load::run_load;

namespace {

// GET /echo/X -> "body:X"; /status/N -> status N; /counter -> a different body each time;
// /ae -> "gzip" or "identity" after Accept-Encoding; /close -> Connection: close; /hang ->
// never answers. With a stall configured, every request that arrives in
// [first request + stall_after, + stall_for) is answered at the end of that window.
struct StallConfig {
  double stall_after_s = -1;
  double stall_for_s = 0;
};

class TestServer {
 public:
  using Config = StallConfig;
  explicit TestServer(Config cfg = Config{})
      : cfg_(cfg), acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    port = acceptor_.local_endpoint().port();
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~TestServer() {
    io_.stop();
    thread_.join();
  }
  std::uint16_t port = 0;
  std::atomic<std::uint64_t> received{0};

 private:
  using Clock = std::chrono::steady_clock;
  struct Session : std::enable_shared_from_this<Session> {
    Session(TestServer* s, tcp::socket sock) : server(s), socket(std::move(sock)), timer(socket.get_executor()) {}
    TestServer* server;
    tcp::socket socket;
    asio::steady_timer timer;
    beast::flat_buffer buf;
    http::request<http::string_body> req;
    http::response<http::string_body> res;

    void read() {
      req = {};
      http::async_read(socket, buf, req, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (!ec) self->handle();
      });
    }
    void handle() {
      ++server->received;
      const std::string target(req.target());
      res = {};
      res.version(11);
      res.result(http::status::ok);
      bool close = false;
      if (target.rfind("/echo/", 0) == 0) {
        res.body() = "body:" + target.substr(6);
      } else if (target.rfind("/status/", 0) == 0) {
        res.result(static_cast<unsigned>(std::stoi(target.substr(8))));
        res.body() = "status " + target.substr(8);
      } else if (target == "/counter") {
        res.body() = std::to_string(server->counter_++);
      } else if (target == "/ae") {
        res.body() =
            std::string(req[http::field::accept_encoding]).find("gzip") != std::string::npos ? "gzip" : "identity";
      } else if (target == "/close") {
        res.body() = "closing";
        close = true;
      } else if (target == "/hang") {
        server->hung_.push_back(shared_from_this());  // keep the socket open, answer nothing
        return;
      } else {
        res.result(http::status::not_found);
      }
      res.keep_alive(!close && req.keep_alive());
      res.prepare_payload();
      const auto now = Clock::now();
      if (!server->first_) server->first_ = now;
      if (server->cfg_.stall_after_s >= 0) {
        const auto from = *server->first_ + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(server->cfg_.stall_after_s));
        const auto to =
            from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(server->cfg_.stall_for_s));
        if (now >= from && now < to) {
          timer.expires_at(to);
          timer.async_wait([self = shared_from_this()](beast::error_code) { self->write(); });
          return;
        }
      }
      write();
    }
    void write() {
      http::async_write(socket, res, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (ec) return;
        if (!self->res.keep_alive()) {
          beast::error_code ignored;
          self->socket.shutdown(tcp::socket::shutdown_send, ignored);
          return;
        }
        self->read();
      });
    }
  };

  void accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket s) {
      if (ec) return;
      s.set_option(tcp::no_delay(true));
      std::make_shared<Session>(this, std::move(s))->read();
      accept();
    });
  }

  Config cfg_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  std::uint64_t counter_ = 0;
  std::optional<Clock::time_point> first_;
  std::vector<std::shared_ptr<Session>> hung_;
};

std::vector<std::string> echo_paths(int n) {
  std::vector<std::string> p;
  for (int i = 0; i < n; ++i) p.push_back("/echo/" + std::to_string(i));
  return p;
}

LoadOptions count_mode(std::uint16_t port, std::uint64_t n, int connections) {
  LoadOptions o;
  o.port = port;
  o.connections = connections;
  o.max_requests = n;
  o.timeout_s = 5;
  return o;
}

std::size_t at_least(const LoadResult& r, double us) {
  return static_cast<std::size_t>(
      std::count_if(r.latencies_us.begin(), r.latencies_us.end(), [&](double v) { return v >= us; }));
}

}  // namespace

TEST(Load, ClosedLoopCountModeGetsEveryResponseOverKeepAlive) {
  TestServer server;
  const auto set = RequestSet::from_paths(echo_paths(10)).cycle();
  const LoadResult r = run_load(count_mode(server.port, 500, 4), set);
  EXPECT_EQ(r.requests, 500u);
  EXPECT_EQ(r.responses, 500u);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.timeouts, 0u);
  EXPECT_EQ(r.status.at(200), 500u);
  EXPECT_EQ(r.latencies_us.size(), 500u);
  EXPECT_EQ(server.received.load(), 500u);
  EXPECT_EQ(r.connects, 4u) << "keep-alive: one TCP connection per load connection";
  EXPECT_GT(r.rps, 0);
  EXPECT_GT(r.latency_ms(0.99), 0);
}

TEST(Load, RecordsEveryPathsBodyDigestAsPerfgateDigest) {
  TestServer server;
  const auto set = RequestSet::from_paths(echo_paths(10)).cycle();
  const LoadResult r = run_load(count_mode(server.port, 100, 3), set);
  ASSERT_EQ(r.body_digest.size(), 10u);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(r.body_digest.at("/echo/" + std::to_string(i)), perfgate::digest_of("body:" + std::to_string(i)));
  EXPECT_TRUE(r.inconsistent_paths.empty());
  EXPECT_EQ(r.body_bytes, 100u * 6);
  // The run digest depends on the (path, body) pairs only.
  const LoadResult again = run_load(count_mode(server.port, 30, 1), set);
  EXPECT_EQ(r.digest(), again.digest());
  const auto json = r.to_json();
  EXPECT_EQ(json.at("body_digest").size(), 10u);
  EXPECT_FALSE(r.to_json(false).contains("body_digest"));
}

TEST(Load, ListsPathsThatAnswerDifferentBodies) {
  TestServer server;
  const auto set = RequestSet::from_paths({"/counter", "/echo/a"}).cycle();
  const LoadResult r = run_load(count_mode(server.port, 20, 2), set);
  EXPECT_EQ(r.inconsistent_paths, std::vector<std::string>{"/counter"});
}

TEST(Load, ChecksEveryAnswerInTheResponseBook) {
  TestServer server;
  perfgate::load::ResponseBook book;
  auto o = count_mode(server.port, 40, 2);
  o.book = &book;
  book.begin("before", 1, "window");
  run_load(o, RequestSet::from_paths({"/echo/a", "/status/404", "/close"}).cycle());
  EXPECT_FALSE(book.failure()) << *book.failure();
  EXPECT_EQ(book.answers(), 40u);
  book.begin("after", 1, "window");
  run_load(o, RequestSet::from_paths({"/counter", "/echo/a"}).cycle());
  ASSERT_TRUE(book.failure());
  EXPECT_NE(book.failure()->find("GET /counter: after (round 1, window request #"), std::string::npos)
      << *book.failure();
  EXPECT_NE(book.failure()->find("first differing byte at offset 0"), std::string::npos) << *book.failure();
}

TEST(Load, CountsStatusCodes) {
  TestServer server;
  const auto set = RequestSet::from_paths({"/status/200", "/status/404", "/status/503", "/nowhere"}).cycle();
  const LoadResult r = run_load(count_mode(server.port, 400, 4), set);
  EXPECT_EQ(r.status.at(200), 100u);
  EXPECT_EQ(r.status.at(404), 200u);
  EXPECT_EQ(r.status.at(503), 100u);
  EXPECT_EQ(r.errors, 0u);
}

TEST(Load, SendsAcceptEncodingGzipOnRequest) {
  TestServer server;
  const auto set = RequestSet::from_paths({"/ae"});
  auto o = count_mode(server.port, 5, 1);
  EXPECT_EQ(run_load(o, set).body_digest.at("/ae"), perfgate::digest_of("identity"));
  o.accept_gzip = true;
  EXPECT_EQ(run_load(o, set).body_digest.at("/ae"), perfgate::digest_of("gzip"));
}

TEST(Load, CountsTimeoutsAndCarriesOn) {
  TestServer server;
  const auto set = RequestSet::from_paths({"/hang", "/echo/x"}).cycle();
  auto o = count_mode(server.port, 10, 2);
  o.timeout_s = 0.2;
  const LoadResult r = run_load(o, set);
  EXPECT_EQ(r.timeouts, 5u);
  EXPECT_EQ(r.responses, 5u);
  EXPECT_EQ(r.requests, 10u);
  EXPECT_EQ(r.errors, 0u);
}

TEST(Load, ReconnectsWhenTheServerClosesTheConnection) {
  TestServer server;
  const auto set = RequestSet::from_paths({"/close"});
  const LoadResult r = run_load(count_mode(server.port, 20, 2), set);
  EXPECT_EQ(r.responses, 20u);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.connects, 20u);
}

TEST(Load, WarmupResponsesAreNotCounted) {
  TestServer server;
  auto o = count_mode(server.port, 50, 2);
  o.warmup_s = 0.1;
  const LoadResult r = run_load(o, RequestSet::from_paths(echo_paths(3)));
  EXPECT_EQ(r.responses, 50u);
  EXPECT_GT(r.warmup_responses, 0u);
  EXPECT_EQ(server.received.load(), r.responses + r.warmup_responses);
}

// The open loop's point: a server that stalls shows up as latency for every request that was
// due during the stall, counted from its intended send time — not only for the few requests
// that happened to be in flight (coordinated omission).
TEST(Load, OpenLoopCountsLatencyFromIntendedSendTimeWhenTheServerStalls) {
  constexpr double stall_s = 0.4, rate = 200;
  TestServer server({.stall_after_s = 0.3, .stall_for_s = stall_s});
  LoadOptions o;
  o.port = server.port;
  o.connections = 2;
  o.rate_rps = rate;
  o.duration_s = 1.2;
  o.timeout_s = 5;
  const LoadResult r = run_load(o, RequestSet::from_paths(echo_paths(5)));
  EXPECT_EQ(r.requests, 240u) << "every scheduled request is sent and answered";
  EXPECT_EQ(r.responses, 240u);
  EXPECT_EQ(r.errors + r.timeouts, 0u);
  // The first request due after the stall began waited (almost) the whole stall.
  EXPECT_GE(r.latency_ms(1.0), (stall_s - 2.0 / rate) * 1000.0);
  // Every request due in the first half of the stall waited at least half of it: about
  // rate * stall / 2 = 40 of them, not just the 2 the connections had in flight.
  EXPECT_GE(at_least(r, stall_s / 2 * 1e6), 30u);
  EXPECT_GE(r.queued, 30u) << "requests due while both connections hung waited in the queue";
  EXPECT_GE(r.max_queue, 30u);
}

// The same stall under the closed loop hides itself: only the requests in flight see it.
TEST(Load, ClosedLoopUnderTheSameStallRecordsOnlyTheInFlightRequests) {
  constexpr double stall_s = 0.4;
  TestServer server({.stall_after_s = 0.3, .stall_for_s = stall_s});
  LoadOptions o;
  o.port = server.port;
  o.connections = 2;
  o.duration_s = 1.2;
  const LoadResult r = run_load(o, RequestSet::from_paths(echo_paths(5)));
  EXPECT_LE(at_least(r, stall_s / 2 * 1e6), 2u);
  EXPECT_GE(r.latency_ms(1.0), stall_s / 2 * 1000.0);
  EXPECT_EQ(r.queued, 0u);
}

TEST(Load, OpenLoopInCountModeSendsExactlyTheCount) {
  TestServer server;
  LoadOptions o = count_mode(server.port, 300, 4);
  o.rate_rps = 2000;
  const LoadResult r = run_load(o, RequestSet::from_paths(echo_paths(5)).zipf(1.0));
  EXPECT_EQ(r.responses, 300u);
  EXPECT_EQ(server.received.load(), 300u);
}

// In ticks the thread sleeps at least a tick between wake-ups, however many requests come due:
// 400 requests at 4,000/s (0.1 s) in 20 ms ticks take at most 0.1 s / 20 ms + a drain's few.
// Every request is still sent and answered.
TEST(Load, OpenLoopInTicksWakesOncePerTickNotPerRequest) {
  TestServer server;
  LoadOptions o = count_mode(server.port, 400, 100);
  o.rate_rps = 4000;
  o.tick_us = 20000;
  const LoadResult r = run_load(o, RequestSet::from_paths(echo_paths(5)));
  EXPECT_EQ(r.responses, 400u);
  EXPECT_EQ(server.received.load(), 400u);
  EXPECT_GE(r.wakeups, 1u);
  EXPECT_LE(r.wakeups, static_cast<std::uint64_t>(r.client_wall_s / 0.02) + 1);
  // A request due between two ticks went out at the next one: its latency counts the wait.
  EXPECT_GT(r.send_delay_us_p50, 0.0);
  EXPECT_GE(r.latency_ms(0.5) * 1000.0, r.send_delay_us_p50);
}

TEST(Load, PinsToTheRequestedCpu) {
  TestServer server;
  auto o = count_mode(server.port, 20, 1);
  o.cpus = {0};
  EXPECT_EQ(run_load(o, RequestSet::from_paths(echo_paths(2))).responses, 20u);
  o.cpus = {CPU_SETSIZE - 1};
  EXPECT_THROW(run_load(o, RequestSet::from_paths(echo_paths(2))), std::invalid_argument);
}

TEST(Load, RefusedConnectionFailsFastWithAMessage) {
  std::uint16_t port;
  {
    asio::io_context io;
    tcp::acceptor a(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    port = a.local_endpoint().port();
  }
  try {
    run_load(count_mode(port, 10, 1), RequestSet::from_paths({"/x"}));
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot connect"), std::string::npos);
  }
}

TEST(Load, RejectsBadOptions) {
  LoadOptions o;
  EXPECT_THROW(run_load(o, RequestSet::from_paths({"/x"})), std::invalid_argument);  // no port
  o.port = 1;
  o.connections = 0;
  EXPECT_THROW(run_load(o, RequestSet::from_paths({"/x"})), std::invalid_argument);
}

TEST(Probes, ParsesPathsAndMethodsAndRefusesOtherLines) {
  const auto p = perfgate::load::parse_probes({"# comment", "", "/a?x=1", "  POST /b  "});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].key(), "/a?x=1");
  EXPECT_EQ(p[1].method, "POST");
  EXPECT_EQ(p[1].key(), "POST /b");
  EXPECT_THROW(perfgate::load::parse_probes({"a/b"}), std::invalid_argument);
  EXPECT_THROW(perfgate::load::parse_probes({"FETCH /b"}), std::invalid_argument);
}

TEST(Probes, EachAnswerIsBookedUnderItsKeyAcrossVariants) {
  TestServer server;
  perfgate::load::ResponseBook book;
  const auto probes = perfgate::load::parse_probes({"/echo/a", "/status/404", "POST /echo/b", "/counter"});
  book.begin("before", 1, "probes");
  perfgate::load::ask_probes(server.port, probes, book);
  EXPECT_FALSE(book.failure()) << *book.failure();
  EXPECT_EQ(book.answers(), 4u);
  EXPECT_EQ(book.paths(), 4u);
  book.begin("after", 1, "probes");
  perfgate::load::ask_probes(server.port, probes, book);  // /counter answers "1" now
  ASSERT_TRUE(book.failure());
  EXPECT_NE(book.failure()->find("/counter: after (round 1, probes request #3"), std::string::npos) << *book.failure();
}
