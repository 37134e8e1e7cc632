#include "proxy_server.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <boost/process/pipe.hpp>
#include <filesystem>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <thread>

#include "imap_format.hpp"
#include "perfgate/endpoint.hpp"

namespace imap_select {

namespace asio = boost::asio;
namespace bp = boost::process;
using asio::ip::tcp;

namespace {

constexpr std::size_t kMaxConnections = 256;

void serve_connection(tcp::socket& socket, Proxy& proxy) {
  try {
    ProxyBackend backend(proxy);
    ImapSession session(backend);
    auto send = [&](std::string_view s) { asio::write(socket, asio::buffer(s.data(), s.size())); };
    if (proxy.streams_select()) {  // the lie "early-stop-clock": SELECT's first line goes out alone
      socket.set_option(tcp::no_delay(true));
      backend.stream_to(send);
    }
    CommandReader reader(
        [&](char* p, std::size_t n) -> std::size_t {
          boost::system::error_code ec;
          const std::size_t got = socket.read_some(asio::buffer(p, n), ec);
          return ec ? 0 : got;
        },
        send);
    send(ImapSession::greeting());
    RawCommand raw;
    for (CommandReader::Status st; (st = reader.next(raw)) != CommandReader::Status::Closed;) {
      std::string answer = st == CommandReader::Status::TooLong ? ImapSession::too_long() : session.handle(raw);
      if (backend.take_streamed() && answer.rfind(flags_line(), 0) == 0) answer.erase(0, flags_line().size());
      send(answer);
      if (session.logged_out()) break;
    }
  } catch (const std::exception&) {
    // The peer went away mid-answer (a reset, a broken pipe): this connection only.
  }
  boost::system::error_code ec;
  socket.shutdown(tcp::socket::shutdown_both, ec);
}

// One thread per open connection; shutdown wakes their blocked reads and joins them all.
class Connections {
 public:
  explicit Connections(Proxy& proxy) : proxy_(proxy) {}
  bool start(tcp::socket& socket) {  // moves the socket only when it takes it
    std::lock_guard lock(m_);
    for (auto it = live_.begin(); it != live_.end();)  // join the connections that ended
      if (it->second.done) {
        it->second.thread.join();
        it = live_.erase(it);
      } else {
        ++it;
      }
    if (live_.size() >= kMaxConnections) return false;
    const std::uint64_t id = next_++;
    Entry& e = live_[id];
    e.fd = socket.native_handle();
    e.thread = std::thread([this, id, s = std::move(socket)]() mutable {
      serve_connection(s, proxy_);
      boost::system::error_code ec;
      s.close(ec);
      std::lock_guard lock(m_);
      live_[id].done = true;
    });
    return true;
  }
  void shutdown_all_and_join() {
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(m_);
      for (auto& [id, e] : live_) {
        if (!e.done) ::shutdown(e.fd, SHUT_RDWR);
        threads.push_back(std::move(e.thread));
      }
    }
    for (auto& t : threads) t.join();
    live_.clear();
  }

 private:
  struct Entry {
    int fd = -1;
    std::thread thread;
    bool done = false;
  };
  Proxy& proxy_;
  std::mutex m_;
  std::map<std::uint64_t, Entry> live_;
  std::uint64_t next_ = 0;
};

// The other worker processes: this program again, `serve --worker-child`, dying with us.
struct Worker {
  bp::ipstream out;
  bp::child child;
  std::string listen;
};

void start_workers(const ServeOptions& o, std::list<Worker>& workers) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const pid_t parent = ::getpid();
  for (int i = 1; i < o.workers; ++i) {
    auto& w = workers.emplace_back();
    std::vector<std::string> args = {
        "serve",       "--variant",         o.proxy.variant, "--profile",           o.profile,
        "--fixture",   o.proxy.fixture_dir, "--params",      o.proxy.params.dump(), "--listen",
        "127.0.0.1:0", "--worker-child"};
    if (!o.proxy.lie.empty()) args.insert(args.end(), {"--lie", o.proxy.lie});
    w.child = bp::child(
        self, bp::args(args), bp::std_out > w.out, bp::extend::on_exec_setup = [parent](auto&) {
          ::prctl(PR_SET_PDEATHSIG, SIGKILL);
          if (::getppid() != parent) ::_exit(1);
        });
    std::string line;
    if (!std::getline(w.out, line))
      throw std::runtime_error("worker " + std::to_string(i) + " exited before it listened");
    w.listen = nlohmann::json::parse(line).at("listen").get<std::string>();
  }
}

void stop_workers(std::list<Worker>& workers) {
  for (auto& w : workers)
    if (w.child.valid() && w.child.running()) ::kill(w.child.id(), SIGTERM);
  for (auto& w : workers) {
    std::error_code ec;
    if (w.child.valid()) w.child.wait(ec);
  }
}

}  // namespace

int serve(const ServeOptions& o) {
  std::list<Worker> workers;
  struct Reap {
    std::list<Worker>& w;
    ~Reap() { stop_workers(w); }
  } reap{workers};
  Proxy proxy(o.proxy);
  asio::io_context io;
  const perfgate::Endpoint at = perfgate::parse_endpoint(o.listen);
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address(at.host), at.port));
  asio::signal_set signals(io, SIGTERM, SIGINT);
  signals.async_wait([&](const boost::system::error_code&, int) {
    boost::system::error_code ec;
    acceptor.close(ec);
  });
  if (!o.worker_child) start_workers(o, workers);
  const std::string me = perfgate::Endpoint{at.host, acceptor.local_endpoint().port()}.to_string();
  nlohmann::json announce = {{"listen", me}};
  if (!o.worker_child && o.workers > 1) {
    announce["targets"] = {me};
    for (const auto& w : workers) announce["targets"].push_back(w.listen);
  }
  std::cout << announce.dump() << std::endl;

  Connections open(proxy);
  std::function<void()> accept_next = [&] {
    acceptor.async_accept([&](const boost::system::error_code& ec, tcp::socket socket) {
      if (ec) return;  // closed by the signal
      if (!open.start(socket)) {
        boost::system::error_code ignored;
        asio::write(socket, asio::buffer(std::string_view("* BYE Too many connections\r\n")), ignored);
      }
      accept_next();
    });
  };
  accept_next();
  io.run();
  open.shutdown_all_and_join();
  return 0;
}

}  // namespace imap_select
