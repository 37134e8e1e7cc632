#include "server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "access.hpp"
#include "db.hpp"
#include "perfgate/sample.hpp"
#include "played.hpp"
#include "routes.hpp"
#include "schema.hpp"

namespace media_parity {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// --test-empty-lists: every top-level list answered empty, counts left as they are.
void empty_lists(Json& body) {
  if (body.is_array()) body = Json::array();
  if (!body.is_object()) return;
  for (auto& [key, value] : body.items())
    if (value.is_array()) value = Json::array();
}

class Stats {
 public:
  void add(const std::string& route, std::uint64_t statements) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& r = routes_[route];
    ++r.first;
    r.second += statements;
  }
  std::string json() {
    std::lock_guard<std::mutex> lock(mutex_);
    nlohmann::json routes = nlohmann::json::object();
    std::uint64_t requests = 0, statements = 0;
    for (const auto& [route, n] : routes_) {
      routes[route] = {{"requests", n.first}, {"statements", n.second}};
      requests += n.first;
      statements += n.second;
    }
    return nlohmann::json{{"requests", requests}, {"statements", statements}, {"routes", routes}}.dump();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> routes_;  // requests, statements
};

// The open connections, so that SIGTERM can end their threads.
class Sessions {
 public:
  std::shared_ptr<tcp::socket> add(tcp::socket s) {
    std::lock_guard<std::mutex> lock(mutex_);
    return sockets_.emplace_back(std::make_shared<tcp::socket>(std::move(s)));
  }
  void remove(const std::shared_ptr<tcp::socket>& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    sockets_.remove(s);
  }
  void shutdown_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& s : sockets_) {
      beast::error_code ignored;
      s->shutdown(tcp::socket::shutdown_both, ignored);
    }
  }

 private:
  std::mutex mutex_;
  std::list<std::shared_ptr<tcp::socket>> sockets_;
};

void session(std::shared_ptr<tcp::socket> socket, Pool& pool, Stats& stats, const ServeOptions& options) {
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    beast::error_code ec;
    http::read(*socket, buffer, req, ec);
    if (ec) break;
    http::response<http::string_body> res{http::status::ok, req.version()};
    res.set(http::field::server, "media_parity");
    const std::string target(req.target());
    if (target == "/_stats") {
      res.set(http::field::content_type, "application/json");
      res.body() = stats.json();
    } else {
      const bool get = req.method() == http::verb::get, post = req.method() == http::verb::post;
      Answer a = get    ? answer(pool, target, options)
                 : post ? answer_post(pool, target, options)
                        : Answer{405, "{\"error\":\"GET or POST only\"}", 0};
      res.result(static_cast<unsigned>(a.status));
      res.set(http::field::content_type, "application/json; charset=utf-8");
      res.set("X-Perfgate-Statements", std::to_string(a.statements));
      res.body() = std::move(a.body);
      const std::string path = target.substr(0, target.find('?'));
      stats.add(post && is_played_path(path) ? kPlayedRoute : route(path) ? path : "other", a.statements);
    }
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    http::write(*socket, res, ec);
    if (ec || !req.keep_alive()) break;
  }
  beast::error_code ignored;
  socket->shutdown(tcp::socket::shutdown_both, ignored);
}

}  // namespace

void answer_or_error(Answer& a, const std::function<void()>& body) {
  try {
    body();
  } catch (const HttpError& e) {
    a.status = e.status;
    a.body = nlohmann::json{{"error", e.what()}}.dump();
  } catch (const std::exception& e) {
    a.status = 500;
    a.body = nlohmann::json{{"error", e.what()}}.dump();
  }
}

Answer answer(Pool& pool, const std::string& target, const ServeOptions& options) {
  // The lie "played-cache": a question asked before, in any parameter order, answered as then.
  std::string key;
  if (options.response_cache) {
    key = Request(target).key();
    if (auto body = options.response_cache->find(key)) return Answer{200, std::move(*body), 0};
  }
  Answer a;
  auto lease = pool.take();
  Connection& db = *lease;
  const std::uint64_t before = db.statements();
  const std::size_t prepared_before = db.prepared();
  answer_or_error(a, [&] {
    const Request request(target);
    const Handler handler = route(request.path());
    if (!handler) throw HttpError(404, "no route " + request.path());
    Json body = handler(db, request, options);
    if (options.empty_lists) empty_lists(body);
    a.body = body.dump();
  });
  a.statements = db.statements() - before;
  // The lie "prepared-count": statements counted where they are prepared, so one prepared on an
  // earlier request (every statement of a warm pooled connection) is never counted again.
  if (options.lie_prepared_count) a.statements = db.prepared() - prepared_before;
  if (options.response_cache && a.status == 200) options.response_cache->keep(key, a.body);
  return a;
}

int serve(const ServerOptions& o) {
  Pool pool(o.fixture_dir + "/" + kDatabaseFile, o.answers.after);
  ServeOptions answers = o.answers;
  if (answers.lie_precompute_libraries) answers.precomputed = Access::precompute(*pool.take(), answers);
  if (answers.lie_played_cache) answers.response_cache = std::make_shared<ResponseCache>();
  const perfgate::Endpoint at = perfgate::parse_endpoint(o.listen);
  asio::io_context io;
  tcp::acceptor acceptor(io);
  const tcp::endpoint ep(asio::ip::make_address(at.host), at.port);
  acceptor.open(ep.protocol());
  acceptor.set_option(tcp::acceptor::reuse_address(true));
  acceptor.bind(ep);
  acceptor.listen(asio::socket_base::max_listen_connections);

  Stats stats;
  Sessions sessions;
  // Connection threads are detached (a long run opens thousands of connections); stopping
  // waits until the last one has left.
  std::mutex threads_mutex;
  std::condition_variable threads_done;
  int running = 0;
  asio::signal_set signals(io, SIGTERM, SIGINT);
  signals.async_wait([&](beast::error_code, int) {
    beast::error_code ignored;
    acceptor.close(ignored);
    sessions.shutdown_all();
    io.stop();
  });
  std::function<void()> accept = [&] {
    acceptor.async_accept([&](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
      if (!ec) {
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        auto s = sessions.add(std::move(socket));
        {
          std::lock_guard<std::mutex> lock(threads_mutex);
          ++running;
        }
        std::thread([s, &pool, &stats, &sessions, &answers, &threads_mutex, &threads_done, &running]() mutable {
          session(s, pool, stats, answers);
          sessions.remove(s);
          s.reset();  // the socket is closed before the io_context can go
          std::lock_guard<std::mutex> lock(threads_mutex);
          if (--running == 0) threads_done.notify_all();
        }).detach();
      }
      accept();
    });
  };
  accept();
  perfgate::announce_listen(at.host, acceptor.local_endpoint().port());
  io.run();
  sessions.shutdown_all();  // a connection accepted while stopping
  std::unique_lock<std::mutex> lock(threads_mutex);
  threads_done.wait(lock, [&] { return running == 0; });
  return 0;
}

}  // namespace media_parity
