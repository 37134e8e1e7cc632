// A server perfgate starts for a parity run: spawned in its own cgroup, pinned to its CPUs,
// and timed from its creation to its first HTTP answer (the cold start). Its cgroup gives the
// CPU of a measured window and the memory; the destructor stops it (SIGTERM, then SIGKILL of
// everything left in its cgroup), so an exception leaves no server behind.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "measure/cgroup.hpp"
#include "parity/http_client.hpp"

namespace perfgate::run {
class ServiceProcess;
}

namespace perfgate::parity {

namespace fs = std::filesystem;

struct ServeSpec {
  std::string who;                // "server A", "media_parity (before) server"
  std::vector<std::string> argv;  // "{port}" in a word is replaced by a free port
  std::vector<int> cpus;
  fs::path dir;  // stdout and stderr go here
  fs::path cwd;  // empty: the caller's (relative paths in argv are the user's)
  std::map<std::string, std::string> env;
  double ready_timeout_s = 30;
};

class ServedServer {
 public:
  // Starts the program and waits for its first answer: on the port given as {port}, or else
  // the one its {"listen": "HOST:PORT"} stdout line names. Throws RunError when it exits or
  // does not answer within ready_timeout_s.
  explicit ServedServer(const ServeSpec& spec);
  ~ServedServer();
  ServedServer(const ServedServer&) = delete;
  ServedServer& operator=(const ServedServer&) = delete;

  const BaseUrl& url() const { return url_; }
  double cold_start_ms() const { return cold_start_ms_; }
  std::size_t cores() const { return spec_.cpus.size(); }
  std::optional<measure::CpuUsage> cpu() const { return cgroup_->cpu(); }
  std::optional<std::uint64_t> memory_peak_bytes() const { return cgroup_->memory_peak_bytes(); }
  // Resident memory now (VmRSS) and at its highest (VmHWM), summed over the server's processes.
  // RSS counts a page once per mapping: a database file mapped by 128 pooled connections is
  // counted up to 128 times. PSS (smaps_rollup) counts each page once, split among sharers.
  std::uint64_t rss_kib() const;
  std::uint64_t rss_peak_kib() const;
  std::uint64_t pss_kib() const;
  // Cold start, RSS idle (taken by the caller before any load) and peak, PSS now, cores and the
  // cgroup's memory peak where the host has a memory controller: the results' server measures.
  nlohmann::json memory_json(std::uint64_t rss_idle_kib) const;
  std::string stderr_tail() const;
  // SIGTERM, then SIGKILL after the grace; returns the exit code (-1 for a signal).
  int stop();

 private:
  ServeSpec spec_;
  std::unique_ptr<measure::SampleCgroup> cgroup_;
  std::unique_ptr<run::ServiceProcess> process_;
  BaseUrl url_;
  double cold_start_ms_ = 0;
  // `field` ("VmRSS:") of /proc/PID/`file`, summed over the server's processes.
  std::uint64_t proc_kib(const char* file, const char* field) const;
  std::uint64_t proc_file_kib(const char* file, const char* field) const;
};

}  // namespace perfgate::parity
