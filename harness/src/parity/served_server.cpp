#include "parity/served_server.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"
#include "run/child.hpp"
#include "run/service_sampler.hpp"

namespace perfgate::parity {

namespace {

// A port nothing listens on right now, for a program that takes its port as an argument.
unsigned free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw RunError("cannot open a socket to find a free port");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  ::close(fd);
  if (!ok) throw RunError("cannot bind a loopback socket to find a free port");
  return ntohs(a.sin_port);
}

bool has_port_placeholder(const std::vector<std::string>& argv) {
  for (const auto& w : argv)
    if (w.find("{port}") != std::string::npos) return true;
  return false;
}

}  // namespace

ServedServer::ServedServer(const ServeSpec& spec) : spec_(spec) {
  fs::create_directories(spec_.dir);
  run::ChildSpec child;
  child.argv = spec_.argv;
  const bool given_port = has_port_placeholder(child.argv);
  const unsigned port = given_port ? free_port() : 0;
  for (auto& w : child.argv)
    for (auto at = w.find("{port}"); at != std::string::npos; at = w.find("{port}"))
      w.replace(at, 6, std::to_string(port));
  child.cwd = spec_.cwd.empty() ? fs::current_path() : spec_.cwd;
  child.stdout_path = spec_.dir / "stdout";
  child.stderr_path = spec_.dir / "stderr";
  child.cpus = spec_.cpus;
  child.env = spec_.env;
  static int serial = 0;
  cgroup_ = std::make_unique<measure::SampleCgroup>("parity-" + std::to_string(++serial));
  const auto started = std::chrono::steady_clock::now();
  process_ = std::make_unique<run::ServiceProcess>(child, *cgroup_);
  const unsigned listening = given_port ? port
                                        : run::wait_for_listen(*process_, child.stdout_path, child.stderr_path,
                                                               spec_.ready_timeout_s, spec_.who);
  url_ = parse_base_url("http://127.0.0.1:" + std::to_string(listening), spec_.who);
  // The cold start ends at the first complete HTTP answer, whatever its status.
  Client probe(url_, 1.0);
  const auto deadline = started + std::chrono::milliseconds(static_cast<long>(spec_.ready_timeout_s * 1000));
  while (probe.get("/").status == 0) {
    check_interrupted();
    if (!process_->running()) throw RunError(spec_.who + " exited before it answered; its stderr:\n" + stderr_tail());
    if (std::chrono::steady_clock::now() > deadline)
      throw RunError(spec_.who + " did not answer on port " + std::to_string(listening) + " within " +
                     std::to_string(spec_.ready_timeout_s) + " s; its stderr:\n" + stderr_tail());
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  cold_start_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

ServedServer::~ServedServer() {
  if (process_) process_->stop(2);
  process_.reset();
  cgroup_.reset();
}

int ServedServer::stop() { return process_->stop(); }

std::string ServedServer::stderr_tail() const { return tail_of_file(spec_.dir / "stderr"); }

std::uint64_t ServedServer::proc_kib(const char* file, const char* field) const {
  std::vector<pid_t> pids = cgroup_->pids();
  if (pids.empty()) pids.push_back(process_->pid());
  std::uint64_t sum = 0;
  for (pid_t p : pids) {
    // A cgroup lists threads too on some hierarchies; every thread reports its process's
    // memory, so only a process's main thread (Tgid == pid, from status) is counted.
    const std::string dir = "/proc/" + std::to_string(p) + "/";
    std::ifstream status(dir + "status");
    std::string key;
    long long tgid = -1, kib = 0;
    while (status >> key)
      if (key == "Tgid:" && status >> tgid) break;
    if (tgid != p) continue;
    std::ifstream in(dir + file);
    while (in >> key)
      if (key == field && in >> kib) break;
    sum += static_cast<std::uint64_t>(kib);
  }
  return sum;
}

std::uint64_t ServedServer::rss_kib() const { return proc_kib("status", "VmRSS:"); }
std::uint64_t ServedServer::rss_peak_kib() const { return proc_kib("status", "VmHWM:"); }
std::uint64_t ServedServer::pss_kib() const { return proc_kib("smaps_rollup", "Pss:"); }

nlohmann::json ServedServer::memory_json(std::uint64_t rss_idle_kib) const {
  nlohmann::json j = {{"cold_start_ms", cold_start_ms()},
                      {"rss_idle_kib", rss_idle_kib},
                      {"rss_peak_kib", rss_peak_kib()},
                      {"pss_kib", pss_kib()},
                      {"cores", cores()}};
  if (auto peak = memory_peak_bytes()) j["cgroup_memory_peak_kib"] = *peak / 1024;
  return j;
}

}  // namespace perfgate::parity
