#include "run/server_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>

namespace perfgate::run {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;

std::optional<std::uint64_t> read_number(const fs::path& p) {
  std::ifstream in(p);
  std::uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}
}  // namespace

CgroupMemoryFile cgroup_memory_file(const measure::SampleCgroup& cgroup) {
  if (cgroup.v2_dir() && fs::exists(*cgroup.v2_dir() / "memory.current"))
    return {*cgroup.v2_dir() / "memory.current", "cgroup-v2-memory.current"};
  for (const auto& d : cgroup.v1_dirs())
    if (fs::exists(d / "memory.usage_in_bytes"))
      return {d / "memory.usage_in_bytes", "cgroup-v1-memory.usage_in_bytes"};
  return {};
}

std::uint64_t cgroup_rss_bytes(const measure::SampleCgroup& cgroup) {
  static const long page = ::sysconf(_SC_PAGESIZE);
  const auto pids = cgroup.pids();  // one list per hierarchy: the same process several times
  std::uint64_t total = 0;
  for (pid_t pid : std::set<pid_t>(pids.begin(), pids.end())) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/statm");
    std::uint64_t size = 0, resident = 0;
    if (in >> size >> resident) total += resident * static_cast<std::uint64_t>(page);
  }
  return total;
}

MemoryPoller::MemoryPoller(const measure::SampleCgroup& cgroup, const CgroupMemoryFile& file, int interval_ms)
    : cgroup_(cgroup), file_(file), interval_ms_(std::max(1, interval_ms)) {
  poll();
  thread_ = std::thread([this] {
    while (!stop_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms_));
      if (!stop_.load()) poll();
    }
  });
}

MemoryPoller::~MemoryPoller() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void MemoryPoller::poll() {
  const double rss = static_cast<double>(cgroup_rss_bytes(cgroup_)) / kMiB;
  rss_sum_ += rss;
  m_.rss_peak_mib = std::max(m_.rss_peak_mib, rss);
  if (file_.path)
    if (auto v = read_number(*file_.path)) {
      const double mib = static_cast<double>(*v) / kMiB;
      cg_sum_ += mib;
      ++cg_polls_;
      m_.cgroup_peak_mib = std::max(m_.cgroup_peak_mib.value_or(0), mib);
    }
  ++m_.polls;
}

PhaseMemory MemoryPoller::finish() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  poll();
  m_.rss_mean_mib = rss_sum_ / m_.polls;
  if (cg_polls_) m_.cgroup_mean_mib = cg_sum_ / cg_polls_;
  return m_;
}

}  // namespace perfgate::run
