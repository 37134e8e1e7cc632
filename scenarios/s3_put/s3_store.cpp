// s3_store: the S3-style object store of the s3_put scenario, a separate process on 127.0.0.1
// that the scenario program starts and owns. Objects live in memory under /chunks/<name>.
//
//   s3_store --latency-ms MS [--parent-pid PID]
//
// Prints {"listen": "127.0.0.1:PORT"} once ready. Every object request (HEAD, PUT, GET) is
// answered --latency-ms after it arrived: the write-up's stub of a remote store, the same for
// both variants. One thread per connection, so concurrent requests wait concurrently, as they
// would on a real link. Two admin requests answer at once and are not counted:
//   GET /_admin/stats  {"head": N, "put": N, "get": N}
//   GET /_admin/list   [[name, sha256 of the stored bytes, size], ...] sorted by name
//   GET /_admin/stored [[name, CLOCK_MONOTONIC ns when it was stored], ...] sorted by name,
//                      answered once no other connection is open (every request sent to the
//                      store has been served, answer read or not), or after 10 s
// The witness (docs/scenario-contract.md, "Witnesses"): on SIGTERM, when $PERFGATE_WITNESS_DIR is
// set, it writes s3_store.json there with the object requests it served over its life
// (store_head_requests, store_put_requests, store_requests), so perfgate holds the counts the
// program relays from /_admin/stats to the store's own word.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "chunks.hpp"
#include "perfgate/endpoint.hpp"

namespace {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct Store {
  std::mutex mu;
  std::map<std::string, std::string> objects;
  std::map<std::string, long long> stored_ns;  // when each object was last stored (CLOCK_MONOTONIC)
  std::atomic<long> heads{0}, puts{0}, gets{0};
  std::atomic<int> open{0};  // connections being served
  std::chrono::microseconds latency{0};
};

using s3_put::sha256_hex;  // the one hex SHA-256 (chunks.cpp), over the bytes the store holds

nlohmann::json listing(Store& store) {
  std::lock_guard<std::mutex> lock(store.mu);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [name, bytes] : store.objects) list.push_back({name, sha256_hex(bytes), bytes.size()});
  return list;
}

// Waits until the asking connection is the only one open: the uploaders' connections are
// closed and every request they sent is stored, whether its answer was read or not.
nlohmann::json stored_times(Store& store) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (store.open.load() > 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::lock_guard<std::mutex> lock(store.mu);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [name, ns] : store.stored_ns) list.push_back({name, ns});
  return list;
}

long long monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

http::response<http::string_body> answer(Store& store, http::request<http::string_body>& req) {
  http::response<http::string_body> res{http::status::ok, req.version()};
  res.keep_alive(req.keep_alive());
  const std::string target(req.target());
  const std::string prefix = "/chunks/";
  if (req.method() == http::verb::get && target == "/_admin/stats") {
    res.body() =
        nlohmann::json{{"head", store.heads.load()}, {"put", store.puts.load()}, {"get", store.gets.load()}}.dump();
  } else if (req.method() == http::verb::get && target == "/_admin/list") {
    res.body() = listing(store).dump();
  } else if (req.method() == http::verb::get && target == "/_admin/stored") {
    res.body() = stored_times(store).dump();
  } else if (target.rfind(prefix, 0) == 0 && target.size() > prefix.size()) {
    const std::string name = target.substr(prefix.size());
    std::this_thread::sleep_for(store.latency);  // the remote's per-request latency model
    std::lock_guard<std::mutex> lock(store.mu);
    const auto it = store.objects.find(name);
    if (req.method() == http::verb::head) {
      ++store.heads;
      if (it == store.objects.end()) res.result(http::status::not_found);
      res.content_length(it == store.objects.end() ? 0 : it->second.size());
      return res;
    } else if (req.method() == http::verb::put) {
      ++store.puts;
      store.objects[name] = std::move(req.body());  // content addressed: an overwrite stores the same bytes
      store.stored_ns[name] = monotonic_ns();
    } else if (req.method() == http::verb::get) {
      ++store.gets;
      if (it == store.objects.end())
        res.result(http::status::not_found);
      else
        res.body() = it->second;
    } else {
      res.result(http::status::method_not_allowed);
    }
  } else {
    res.result(http::status::not_found);
  }
  res.prepare_payload();
  return res;
}

void serve_connection(Store& store, tcp::socket socket) {
  struct Closed {
    Store& store;
    ~Closed() { --store.open; }
  } closed{store};
  beast::flat_buffer buffer;
  beast::error_code ec;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(std::uint64_t{1} << 30);
    http::read(socket, buffer, parser, ec);
    if (ec) return;  // the client closed (or sent garbage): nothing to answer
    auto req = parser.release();
    auto res = answer(store, req);
    http::write(socket, res, ec);
    if (ec || !res.keep_alive()) return;
  }
}

// What this store served, for perfgate to read after the sample (no-op without the variable).
void write_witness(const Store& store) {
  const char* dir = std::getenv("PERFGATE_WITNESS_DIR");
  if (!dir || !*dir) return;
  const auto count = [](long n) { return nlohmann::json{{"value", n}, {"unit", "count"}, {"exact", true}}; };
  const long heads = store.heads.load(), puts = store.puts.load(), gets = store.gets.load();
  std::ofstream(std::filesystem::path(dir) / "s3_store.json")
      << nlohmann::json{{"metrics",
                         {{"store_head_requests", count(heads)},
                          {"store_put_requests", count(puts)},
                          {"store_requests", count(heads + puts + gets)}}}}
             .dump()
      << '\n';
}

// SIGTERM and SIGINT, blocked in every thread, are taken here: the witness, then exit.
void stop_on_signal(const Store& store, sigset_t signals) {
  int sig = 0;
  ::sigwait(&signals, &sig);
  write_witness(store);
  std::_Exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  Store store;
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before any thread: they all inherit it
  std::thread(stop_on_signal, std::cref(store), signals).detach();
  pid_t parent = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--latency-ms")
      store.latency = std::chrono::microseconds(static_cast<long>(std::stod(argv[i + 1]) * 1000));
    else if (flag == "--parent-pid")
      parent = static_cast<pid_t>(std::stol(argv[i + 1]));
    else {
      std::cerr << "s3_store: unknown flag " << flag << std::endl;
      return 2;
    }
  }
  try {
    asio::io_context io;
    tcp::acceptor acceptor(io);
    const tcp::endpoint local(asio::ip::make_address("127.0.0.1"), 0);
    acceptor.open(local.protocol());
    // A whole chunk fits the receive window, so a PUT's body is sent without waiting for this
    // process to be scheduled between segments (set before listen: accepted sockets inherit it).
    acceptor.set_option(asio::socket_base::receive_buffer_size(1 << 20));
    acceptor.bind(local);
    acceptor.listen();
    perfgate::announce_listen("127.0.0.1", acceptor.local_endpoint().port());
    for (;;) {
      tcp::socket socket(io);
      acceptor.accept(socket);
      if (parent && ::getppid() != parent) return 0;  // the program that owns us is gone
      socket.set_option(tcp::no_delay(true));
      ++store.open;
      std::thread(serve_connection, std::ref(store), std::move(socket)).detach();
    }
  } catch (const std::exception& e) {
    std::cerr << "s3_store: " << e.what() << std::endl;
    return 1;
  }
}
