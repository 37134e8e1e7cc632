#include "server.hpp"

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "gzip.hpp"
#include "make_cache.hpp"
#include "perfgate/sample.hpp"
#include "store.hpp"

namespace asset_cache {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using beast::error_code;

namespace {

struct Counters {
  std::atomic<std::uint64_t> requests{0};      // every request answered, /_stats excepted
  std::atomic<std::uint64_t> hits{0};          // cache hits (actor)
  std::atomic<std::uint64_t> misses{0};        // lookups that went to SQLite (actor)
  std::atomic<std::uint64_t> not_found{0};     // 404s: unknown asset or path
  std::atomic<std::uint64_t> bad_requests{0};  // malformed requests answered 4xx and closed
  std::atomic<std::uint64_t> cache_entries{0};
};

class Session;

// A lookup handed to the actor. The views point into the session's request, which stays
// untouched until the answer comes back.
struct Job {
  std::shared_ptr<Session> session;
  std::string_view key, package, version, file;
};

// The actor's answer to a Job: the asset's gzip bytes (nullptr: no such asset), or a failure.
struct Answer {
  std::shared_ptr<Session> session;
  Blob blob;
  bool failed = false;  // the error-1pct lie: 500 Internal Server Error
  bool bare = false;    // the hit-no-headers lie: no Content-Type, no Vary
};

enum class Lie {
  None,
  EmptyHit,
  StaleHit,
  ErrorOnePercent,
  KeyNoVersion,
  HitNoHeaders,
  CrossedAnswers,
  GuessVersion,
  PreloadCatalogue
};

Lie parse_lie(const std::string& name) {
  if (name.empty()) return Lie::None;
  if (name == "empty-hit") return Lie::EmptyHit;
  if (name == "stale-hit") return Lie::StaleHit;
  if (name == "error-1pct") return Lie::ErrorOnePercent;
  if (name == "key-no-version") return Lie::KeyNoVersion;
  if (name == "hit-no-headers") return Lie::HitNoHeaders;
  if (name == "crossed-answers") return Lie::CrossedAnswers;
  if (name == "guess-version") return Lie::GuessVersion;
  if (name == "preload-catalogue") return Lie::PreloadCatalogue;
  throw std::invalid_argument("unknown --lie '" + name +
                              "': expected empty-hit, stale-hit, error-1pct, key-no-version, hit-no-headers, "
                              "crossed-answers, guess-version or preload-catalogue");
}

// The actor: the only thread that touches the SQLite connection and the cache.
//
// Hand-off cost is what decides whether the actor or the hand-off is the bottleneck: with the
// server on one core, every wake-up of the actor and of the connection thread is a context
// switch (~5-10 µs here, more than a SQLite lookup). So both directions are batched: the
// connection thread wakes the actor at most once per round of ready sockets (a flush handler
// posted behind them), and the actor hands a whole batch of answers back in one post.
class Actor {
 public:
  Actor(asio::io_context& io, AssetStore& store, Cache& cache, Counters& counters, bool strands, Lie lie)
      : io_(io), store_(store), cache_(cache), counters_(counters), strands_(strands), lie_(lie) {
    thread_ = std::thread([this] { loop(); });
  }
  ~Actor() { stop(); }
  // On a connection thread.
  void post(Job job) {
    bool flush = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      inbox_.push_back(std::move(job));
      flush = !flush_posted_;
      flush_posted_ = true;
    }
    // Behind the handlers that are ready now: their jobs join this batch.
    if (flush) asio::post(io_, [this] { wake(); });
  }
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void wake() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      flush_posted_ = false;
    }
    wake_.notify_one();
  }
  void loop();
  void deliver();

  asio::io_context& io_;
  AssetStore& store_;
  Cache& cache_;
  Counters& counters_;
  const bool strands_;  // more than one connection thread: answers go through each session's strand
  const Lie lie_;
  std::uint64_t served_ = 0;  // lookups answered (the error-1pct lie's clock)
  Blob previous_;             // the last answer's body (the stale-hit lie)
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Job> inbox_;
  bool flush_posted_ = false;
  bool stopping_ = false;
  std::mutex out_mutex_;
  std::vector<Answer> outbox_;
  bool deliver_posted_ = false;
  std::thread thread_;
};

thread_local std::optional<Inflater> tls_inflater;

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Actor& actor, Counters& counters)
      : socket_(std::move(socket)), actor_(actor), counters_(counters) {}

  void start() { read(); }
  tcp::socket::executor_type get_executor() { return socket_.get_executor(); }

  // Back from the actor (posted to this session's strand).
  void answer(Blob blob, bool failed, bool bare) {
    if (failed) return reply(http::status::internal_server_error, "internal error\n", "text/plain");
    if (!blob) {
      counters_.not_found.fetch_add(1, std::memory_order_relaxed);
      return reply(http::status::not_found, "not found\n", "text/plain");
    }
    auto res = make_response(http::status::ok);
    if (!bare) {
      res.set(http::field::content_type, "application/javascript; charset=utf-8");
      res.set(http::field::vary, "Accept-Encoding");
    }
    const auto ae = req().base()[http::field::accept_encoding];
    if (accepts_gzip(std::string_view(ae.data(), ae.size()))) {
      res.set(http::field::content_encoding, "gzip");
      res.body() = *blob;
    } else {
      if (!tls_inflater) tls_inflater.emplace();
      res.body() = tls_inflater->inflate(*blob);
    }
    send(std::move(res));
  }

 private:
  http::request<http::string_body>& req() { return parser_->get(); }

  void read() {
    parser_.emplace();
    parser_->header_limit(16 * 1024);
    parser_->body_limit(64 * 1024);
    http::async_read(socket_, buffer_, *parser_,
                     [self = shared_from_this()](error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(error_code ec) {
    if (ec) {
      const bool parse_error = ec.category() == http::make_error_code(http::error::bad_method).category() &&
                               ec != http::error::end_of_stream && ec != http::error::partial_message;
      if (!parse_error) return close();  // the peer went away (or the server stops)
      counters_.bad_requests.fetch_add(1, std::memory_order_relaxed);
      close_after_ = true;
      const auto status = ec == http::error::header_limit ? http::status::request_header_fields_too_large
                          : ec == http::error::body_limit ? http::status::payload_too_large
                                                          : http::status::bad_request;
      return reply(status, "malformed request: " + ec.message() + "\n", "text/plain");
    }
    auto& r = req();
    const std::string_view target(r.target().data(), r.target().size());
    if (target == "/_stats") return reply(http::status::ok, stats() + "\n", "application/json", /*counted=*/false);
    if (r.method() != http::verb::get) return reply(http::status::method_not_allowed, "GET only\n", "text/plain");
    // /assets/<package>/<version>/<file>: exactly three non-empty segments.
    constexpr std::string_view prefix = "/assets/";
    std::string_view rest = target.substr(0, target.find_first_of("?#"));
    std::string_view segs[3];
    bool ok = rest.substr(0, prefix.size()) == prefix;
    rest.remove_prefix(std::min(rest.size(), prefix.size()));
    for (int i = 0; ok && i < 3; ++i) {
      const auto slash = rest.find('/');
      segs[i] = rest.substr(0, i < 2 ? slash : std::string_view::npos);
      ok = !segs[i].empty() && (i < 2 ? slash != std::string_view::npos : segs[i].find('/') == std::string_view::npos);
      if (ok && i < 2) rest.remove_prefix(slash + 1);
    }
    if (!ok) {
      counters_.not_found.fetch_add(1, std::memory_order_relaxed);
      return reply(http::status::not_found, "not found\n", "text/plain");
    }
    actor_.post(Job{shared_from_this(), target.substr(0, target.find_first_of("?#")), segs[0], segs[1], segs[2]});
  }

  std::string stats() const {
    auto n = [](const std::atomic<std::uint64_t>& a) { return a.load(std::memory_order_relaxed); };
    return nlohmann::json{{"requests", n(counters_.requests)},
                          {"hits", n(counters_.hits)},
                          {"misses", n(counters_.misses)},
                          {"not_found", n(counters_.not_found)},
                          {"bad_requests", n(counters_.bad_requests)},
                          {"cache_entries", n(counters_.cache_entries)}}
        .dump();
  }

  http::response<http::string_body> make_response(http::status status) {
    http::response<http::string_body> res{status, 11};
    res.set(http::field::server, "asset_cache");
    return res;
  }

  void reply(http::status status, std::string body, const char* type, bool counted = true) {
    auto res = make_response(status);
    res.set(http::field::content_type, type);
    res.body() = std::move(body);
    send(std::move(res), counted);
  }

  void send(http::response<http::string_body>&& res, bool counted = true) {
    if (counted) counters_.requests.fetch_add(1, std::memory_order_relaxed);
    const bool keep = !close_after_ && req().keep_alive();
    res.keep_alive(keep);
    res.prepare_payload();
    response_ = std::move(res);
    http::async_write(socket_, response_, [self = shared_from_this(), keep](error_code ec, std::size_t) {
      if (ec || !keep) return self->close();
      self->read();
    });
  }

  void close() {
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    socket_.close(ignored);
  }

  tcp::socket socket_;
  Actor& actor_;
  Counters& counters_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  bool close_after_ = false;
};

void Actor::loop() {
  static const Blob empty = std::make_shared<const std::string>(gzip(""));
  std::vector<Job> batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !inbox_.empty(); });
      if (stopping_) return;
      batch.swap(inbox_);
    }
    std::vector<Answer> answers;
    answers.reserve(batch.size());
    for (Job& job : batch) {
      Answer& a = answers.emplace_back(Answer{std::move(job.session), nullptr, false, false});
      if (lie_ == Lie::ErrorOnePercent && served_++ % 100 == 99) {
        a.failed = true;
        continue;
      }
      // The lie "key-no-version": one entry per package file, whichever version filled it.
      std::string versionless;
      std::string_view key = job.key;
      if (lie_ == Lie::KeyNoVersion) key = versionless = std::string(job.package) + "/" + std::string(job.file);
      a.blob = cache_.get(key);
      if (a.blob) {
        counters_.hits.fetch_add(1, std::memory_order_relaxed);
        if (lie_ == Lie::EmptyHit) a.blob = empty;
        a.bare = lie_ == Lie::HitNoHeaders;
        if (lie_ == Lie::StaleHit) std::swap(a.blob, previous_);  // previous_: this hit's true body
        if (!a.blob) a.blob = previous_;
      } else {
        counters_.misses.fetch_add(1, std::memory_order_relaxed);
        auto gz = store_.fetch(job.package, job.version, job.file);
        // The lie "guess-version": an unknown version of a known package file answered with its newest.
        if (!gz && lie_ == Lie::GuessVersion) gz = store_.fetch_newest(job.package, job.file);
        if (gz) {
          a.blob = std::make_shared<const std::string>(std::move(*gz));
          cache_.put(key, a.blob);
          counters_.cache_entries.store(cache_.size(), std::memory_order_relaxed);
          if (lie_ == Lie::StaleHit) previous_ = a.blob;
        }
      }
    }
    batch.clear();
    // The lie "crossed-answers": a batch's answers handed to its sessions one place off, as a
    // hand-off that matches answers to callers by position after reordering them would.
    if (lie_ == Lie::CrossedAnswers && answers.size() >= 2)
      for (std::size_t i = 0; i + 1 < answers.size(); ++i) std::swap(answers[i].session, answers[i + 1].session);
    bool post = false;
    {
      std::lock_guard<std::mutex> lock(out_mutex_);
      if (outbox_.empty()) {
        outbox_.swap(answers);
      } else {
        for (auto& a : answers) outbox_.push_back(std::move(a));
      }
      post = !deliver_posted_;
      deliver_posted_ = true;
    }
    if (post) asio::post(io_, [this] { deliver(); });
  }
}

// On a connection thread: every answer the actor has ready, in one handler.
void Actor::deliver() {
  std::vector<Answer> delivering;
  {
    std::lock_guard<std::mutex> lock(out_mutex_);
    delivering.swap(outbox_);
    deliver_posted_ = false;
  }
  for (Answer& a : delivering) {
    if (strands_) {
      auto executor = a.session->get_executor();
      asio::post(executor, [a = std::move(a)]() mutable { a.session->answer(std::move(a.blob), a.failed, a.bare); });
    } else {
      a.session->answer(std::move(a.blob), a.failed, a.bare);
    }
  }
}

// The lie "preload-catalogue": the cache filled before the server listens, from the fixture's
// URL list (its first, hottest, paths up to the capacity), so the window never pays those misses.
void preload(AssetStore& store, Cache& cache, const std::string& dir) {
  std::ifstream urls(dir + "/urls.txt");
  for (std::string path; cache.size() < cache.capacity() && std::getline(urls, path);) {
    const auto v = path.find('/', 8), f = path.find('/', v + 1);  // /assets/<package>/<version>/<file>
    if (v == std::string::npos || f == std::string::npos) continue;
    if (auto gz = store.fetch(path.substr(8, v - 8), path.substr(v + 1, f - v - 1), path.substr(f + 1)))
      cache.put(path, std::make_shared<const std::string>(std::move(*gz)));
  }
}

}  // namespace

int serve(const ServerOptions& o) {
  if (o.io_threads < 1) throw std::invalid_argument("--io-threads must be >= 1");
  auto cache = make_cache(o.cache, o.capacity);
  const Lie lie = parse_lie(o.lie);
  AssetStore store(o.fixture_dir);
  Counters counters;
  const perfgate::Endpoint at = perfgate::parse_endpoint(o.listen);

  asio::io_context io(o.io_threads);
  tcp::acceptor acceptor(io);
  const tcp::endpoint ep(asio::ip::make_address(at.host), at.port);
  acceptor.open(ep.protocol());
  acceptor.set_option(tcp::acceptor::reuse_address(true));
  acceptor.bind(ep);
  acceptor.listen(asio::socket_base::max_listen_connections);

  if (lie == Lie::PreloadCatalogue) preload(store, *cache, o.fixture_dir);
  Actor actor(io, store, *cache, counters, /*strands=*/o.io_threads > 1, lie);
  asio::signal_set signals(io, SIGTERM, SIGINT);
  signals.async_wait([&](error_code, int) {
    error_code ignored;
    acceptor.close(ignored);
    io.stop();
  });

  std::function<void()> accept = [&] {
    // One connection thread needs no strands (each would cost a post per answer).
    auto executor = o.io_threads > 1 ? asio::any_io_executor(asio::make_strand(io)) : io.get_executor();
    acceptor.async_accept(executor, [&](error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
      if (!ec) {
        error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        std::make_shared<Session>(std::move(socket), actor, counters)->start();
      }
      accept();
    });
  };
  accept();
  perfgate::announce_listen(at.host, acceptor.local_endpoint().port());

  std::vector<std::thread> extra;
  for (int i = 1; i < o.io_threads; ++i) extra.emplace_back([&] { io.run(); });
  io.run();
  for (auto& t : extra) t.join();
  actor.stop();
  return 0;
}

}  // namespace asset_cache
