// blob_remote: the remote blob store of blob_stampede, a separate process on loopback.
//
//   blob_remote --root DIR [--ttfb-ms 15] [--bandwidth-mib-s 1024] [--chunk-kib 256]
//               [--fail-after-bytes N --fail-fetches 1,3] [--parent-pid PID] [--witness-blob SHA256]
//
// Serves GET /blobs/<sha256> (the files of DIR, named by their SHA-256) and GET /stats
// (fetches, bytes sent, bodies completed and cut short, as JSON). Binds 127.0.0.1 port 0 and
// prints {"listen": "127.0.0.1:PORT"} once it accepts connections; stops on SIGTERM/SIGINT
// and dies with its parent (PR_SET_PDEATHSIG).
//
// The witness (docs/scenario-contract.md, "Witnesses"): when $PERFGATE_WITNESS_DIR is set, on
// SIGTERM it writes blob_remote.json there with what it served of --witness-blob over its life
// (remote_served_fetches, remote_served_mib), so perfgate holds the figures the program relays
// from /stats to the remote's own word.
//
// The network model, identical for every client: each response starts after a time to first
// byte, then its body goes out in chunks over ONE shared link of the given bandwidth: a chunk
// reserves the next free slot of the link, so k concurrent streams get 1/k of it each. The
// link keeps its schedule when this process is scheduled late (see Server::reserve).
// clang-format off
// First: Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
// clang-format on

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "perfgate/endpoint.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  std::filesystem::path root;
  double ttfb_ms = 15;
  double bandwidth_mib_s = 1024;  // 0: unlimited
  std::size_t chunk = 256 * 1024;
  std::uint64_t fail_after_bytes = 0;
  std::set<std::uint64_t> fail_fetches;  // 1-based numbers of the blob fetches to cut short
  long parent_pid = 0;
  std::string witness_blob;  // the blob whose fetches and bytes the witness file states
};

struct Blob {
  const char* data = nullptr;
  std::size_t size = 0;
};

struct Server {
  Options opt;
  std::map<std::string, Blob, std::less<>> blobs;
  std::uint64_t fetches = 0, bytes = 0, completed = 0, failed = 0;
  std::uint64_t witness_fetches = 0, witness_bytes = 0;  // of opt.witness_blob
  Clock::time_point link_free_at{};                      // when the shared link has sent everything reserved so far
  int sending = 0;                                       // bodies in progress: the link's busy period

  // The link models a REMOTE store: its throughput must not depend on how promptly this
  // process is scheduled on the (shared) local CPUs. So within a busy period the link keeps
  // its schedule: a chunk is due at link_free_at even if we wake up late, and a late server
  // catches up. Only when no body is in progress does the link go idle and restart at now.
  void begin_body(Clock::time_point now) {
    if (sending++ == 0) link_free_at = std::max(link_free_at, now);
  }
  void end_body() { --sending; }
  // Reserves the link for `n` bytes; returns when they have gone through it.
  Clock::time_point reserve(std::size_t n, Clock::time_point now) {
    if (opt.bandwidth_mib_s <= 0) return now;
    const auto duration =
        std::chrono::duration<double>(static_cast<double>(n) / (opt.bandwidth_mib_s * 1024.0 * 1024.0));
    link_free_at += std::chrono::duration_cast<Clock::duration>(duration);
    return link_free_at;
  }
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Server& server)
      : socket_(std::move(socket)), timer_(socket_.get_executor()), server_(server) {}
  ~Session() { leave_body(); }

  void start() {
    http::async_read(socket_, buffer_, request_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (!ec) self->on_request();
    });
  }

 private:
  void on_request() {
    const std::string_view target(request_.target().data(), request_.target().size());
    if (target == "/stats") {
      std::ostringstream body;
      body << R"({"fetches": )" << server_.fetches << R"(, "bytes": )" << server_.bytes << R"(, "completed": )"
           << server_.completed << R"(, "failed": )" << server_.failed << "}";
      return send_small(http::status::ok, body.str(), "application/json");
    }
    constexpr std::string_view prefix = "/blobs/";
    if (target.substr(0, prefix.size()) != prefix)
      return send_small(http::status::not_found, "no such path\n", "text/plain");
    const auto it = server_.blobs.find(target.substr(prefix.size()));
    if (it == server_.blobs.end()) return send_small(http::status::not_found, "no such blob\n", "text/plain");
    blob_ = it->second;
    witnessed_ = it->first == server_.opt.witness_blob;
    fetch_no_ = ++server_.fetches;
    if (witnessed_) ++server_.witness_fetches;
    fail_ = server_.opt.fail_fetches.count(fetch_no_) != 0;
    timer_.expires_after(
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(server_.opt.ttfb_ms)));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->send_header();
    });
  }

  void send_small(http::status status, std::string body, const char* type) {
    auto res = std::make_shared<http::response<http::string_body>>(status, 11);
    res->set(http::field::content_type, type);
    res->set(http::field::connection, "close");
    res->body() = std::move(body);
    res->prepare_payload();
    http::async_write(socket_, *res,
                      [self = shared_from_this(), res](beast::error_code, std::size_t) { self->close(); });
  }

  void send_header() {
    header_ = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\nContent-Length: " +
              std::to_string(blob_.size) + "\r\n\r\n";
    asio::async_write(socket_, asio::buffer(header_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->abort();
      self->server_.begin_body(Clock::now());
      self->in_body_ = true;
      self->next_chunk();
    });
  }

  void next_chunk() {
    if (offset_ == blob_.size) {
      ++server_.completed;
      leave_body();
      return close();
    }
    std::size_t n = std::min(server_.opt.chunk, blob_.size - offset_);
    if (fail_) {
      const std::uint64_t limit = server_.opt.fail_after_bytes;
      if (offset_ >= limit) return cut_short();  // the injected failure: the body stops mid-stream
      n = static_cast<std::size_t>(std::min<std::uint64_t>(n, limit - offset_));
    }
    timer_.expires_at(server_.reserve(n, Clock::now()));
    timer_.async_wait([self = shared_from_this(), n](beast::error_code ec) {
      if (ec) return self->abort();
      asio::async_write(self->socket_, asio::buffer(self->blob_.data + self->offset_, n),
                        [self, n](beast::error_code ec2, std::size_t) {
                          if (ec2) return self->abort();
                          self->server_.bytes += n;
                          if (self->witnessed_) self->server_.witness_bytes += n;
                          self->offset_ += n;
                          self->next_chunk();
                        });
    });
  }

  void leave_body() {
    if (in_body_) server_.end_body();
    in_body_ = false;
  }

  void close() {
    beast::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    socket_.close(ec);
  }

  // The injected failure: the connection ends (FIN) before Content-Length bytes were sent,
  // after exactly --fail-after-bytes body bytes, as a backend dying mid-stream would.
  void cut_short() {
    ++server_.failed;
    leave_body();
    close();
  }

  // A write failed (the client went away): drop the connection.
  void abort() {
    ++server_.failed;
    leave_body();
    beast::error_code ec;
    socket_.set_option(asio::socket_base::linger(true, 0), ec);
    socket_.close(ec);
  }

  tcp::socket socket_;
  asio::steady_timer timer_;
  Server& server_;
  beast::flat_buffer buffer_;
  http::request<http::empty_body> request_;
  Blob blob_;
  std::string header_;
  std::size_t offset_ = 0;
  std::uint64_t fetch_no_ = 0;
  bool fail_ = false;
  bool in_body_ = false;
  bool witnessed_ = false;  // a fetch of opt.witness_blob
};

void accept(tcp::acceptor& acceptor, Server& server) {
  acceptor.async_accept([&acceptor, &server](beast::error_code ec, tcp::socket socket) {
    if (ec) return;
    socket.set_option(tcp::no_delay(true), ec);
    std::make_shared<Session>(std::move(socket), server)->start();
    accept(acceptor, server);
  });
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--root")
      o.root = value();
    else if (a == "--ttfb-ms")
      o.ttfb_ms = std::stod(value());
    else if (a == "--bandwidth-mib-s")
      o.bandwidth_mib_s = std::stod(value());
    else if (a == "--chunk-kib")
      o.chunk = std::stoul(value()) * 1024;
    else if (a == "--fail-after-bytes")
      o.fail_after_bytes = std::stoull(value());
    else if (a == "--fail-fetches") {
      std::stringstream ss(value());
      for (std::string n; std::getline(ss, n, ',');)
        if (!n.empty()) o.fail_fetches.insert(std::stoull(n));
    } else if (a == "--parent-pid")
      o.parent_pid = std::stol(value());
    else if (a == "--witness-blob")
      o.witness_blob = value();
    else
      throw std::runtime_error("unknown flag " + a);
  }
  if (o.root.empty()) throw std::runtime_error("--root DIR is required");
  if (o.chunk == 0) throw std::runtime_error("--chunk-kib must be positive");
  return o;
}

// Maps every file of root named by 64 hex digits.
void load_blobs(Server& server) {
  for (const auto& entry : std::filesystem::directory_iterator(server.opt.root)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.size() != 64 ||
        name.find_first_not_of("0123456789abcdef") != std::string::npos)
      continue;
    const int fd = ::open(entry.path().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open " + entry.path().string());
    struct stat st {};
    ::fstat(fd, &st);
    Blob b;
    b.size = static_cast<std::size_t>(st.st_size);
    if (b.size) {
      void* p = ::mmap(nullptr, b.size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (p == MAP_FAILED) throw std::runtime_error("cannot map " + entry.path().string());
      b.data = static_cast<const char*>(p);
    }
    ::close(fd);
    server.blobs.emplace(name, b);
  }
}

// What this remote served of --witness-blob, for perfgate to read after the sample (no-op
// without $PERFGATE_WITNESS_DIR or --witness-blob).
void write_witness(const Server& server) {
  const char* dir = std::getenv("PERFGATE_WITNESS_DIR");
  if (!dir || !*dir || server.opt.witness_blob.empty()) return;
  std::ofstream out(std::filesystem::path(dir) / "blob_remote.json");
  out << R"({"metrics": {"remote_served_fetches": {"value": )" << server.witness_fetches
      << R"(, "unit": "count", "exact": true}, "remote_served_mib": {"value": )" << std::setprecision(17)
      << static_cast<double>(server.witness_bytes) / (1 << 20) << R"(, "unit": "MiB"}}})" << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Never outlive the program that started us (also set between fork and exec by it).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    Server server;
    server.opt = parse(argc, argv);
    if (server.opt.parent_pid && ::getppid() != server.opt.parent_pid) return 1;  // the parent is already gone
    load_blobs(server);

    asio::io_context io(1);
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    asio::signal_set signals(io, SIGTERM, SIGINT);
    signals.async_wait([&](beast::error_code, int) { io.stop(); });
    accept(acceptor, server);
    perfgate::announce_listen("127.0.0.1", acceptor.local_endpoint().port());
    io.run();
    write_witness(server);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "blob_remote: " << e.what() << std::endl;
    return 1;
  }
}
