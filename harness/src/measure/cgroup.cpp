#include "measure/cgroup.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "measure/keyed_values.hpp"
#include "process/owner.hpp"

namespace perfgate::measure {
namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The kernel refuses rmdir while a dying process still holds the cgroup; retry briefly.
void remove_cgroup_dir(const fs::path& dir) {
  for (int i = 0; i < 200; ++i) {
    if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

bool try_create_child(const fs::path& parent) {
  fs::path probe = parent / ("perfgate-" + process::owner_tag() + "-probe");
  if (::mkdir(probe.c_str(), 0755) != 0) return errno == EEXIST;
  remove_cgroup_dir(probe);
  return true;
}

struct Mount {
  std::string fstype, options;
  fs::path point;
};

std::vector<Mount> cgroup_mounts() {
  std::vector<Mount> out;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root mountpoint options [optional...] - fstype source superoptions
    auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream pre(line.substr(0, dash)), post(line.substr(dash + 3));
    std::string id, parent, dev, root, point, opts, fstype, source, super;
    pre >> id >> parent >> dev >> root >> point >> opts;
    post >> fstype >> source >> super;
    if (fstype == "cgroup2" || fstype == "cgroup") out.push_back({fstype, super, point});
  }
  return out;
}

// /proc/self/cgroup: "0::/path" for v2, "N:ctrl,ctrl:/path" for v1.
std::string own_path(const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::string ctrls = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (controller.empty() ? (line.substr(0, a) == "0" && ctrls.empty()) : false) return path;
    std::istringstream cs(ctrls);
    std::string c;
    while (std::getline(cs, c, ','))
      if (!controller.empty() && c == controller) return path;
  }
  return "/";
}

bool has_option(const std::string& options, const std::string& opt) {
  std::istringstream ss(options);
  std::string o;
  while (std::getline(ss, o, ','))
    if (o == opt) return true;
  return false;
}

CgroupLayout detect() {
  CgroupLayout l;
  if (const char* force = std::getenv("PERFGATE_CGROUP"); force && std::string(force) == "none") {
    l.note = "PERFGATE_CGROUP=none: cgroups disabled, CPU and memory from rusage";
    return l;
  }
  std::optional<fs::path> v2_mount, cpuacct_mount, memory_mount;
  for (const auto& m : cgroup_mounts()) {
    if (m.fstype == "cgroup2")
      v2_mount = m.point;
    else if (has_option(m.options, "cpuacct"))
      cpuacct_mount = m.point;
    else if (has_option(m.options, "memory"))
      memory_mount = m.point;
  }
  const bool any_v1 = cpuacct_mount || memory_mount;
  l.layout = v2_mount ? (any_v1 ? "hybrid" : "v2") : (any_v1 ? "v1" : "none");

  std::vector<std::string> why;
  // Where perfgate's cgroups go under `mount` (beneath this process's own cgroup of `controller`
  // there), if it may create one; else why not.
  auto parent_under = [&](const fs::path& mount, const std::string& controller) -> std::optional<fs::path> {
    fs::path parent = mount / own_path(controller).substr(1);
    if (try_create_child(parent)) return parent;
    why.push_back("cannot create a cgroup under " + parent.string());
    return std::nullopt;
  };
  if (v2_mount) {
    l.v2_parent = parent_under(*v2_mount, "");
    if (l.v2_parent) {
      l.cpu_source = "cgroup-v2";
      std::string sub = read_all(*l.v2_parent / "cgroup.subtree_control");
      l.v2_memory = sub.find("memory") != std::string::npos;
      if (l.v2_memory) l.memory_source = "cgroup-v2";
    }
  }
  if (cpuacct_mount && !l.v2_parent) {
    l.cpuacct_parent = parent_under(*cpuacct_mount, "cpuacct");
    if (l.cpuacct_parent) l.cpu_source = "cgroup-v1-cpuacct";
  }
  if (memory_mount && !l.v2_memory) {
    l.memory_parent = parent_under(*memory_mount, "memory");
    if (l.memory_parent) l.memory_source = "cgroup-v1-memory";
  }
  if (l.v2_parent && !l.v2_memory && !l.memory_parent)
    why.push_back("no memory controller delegated to " + l.v2_parent->string());
  l.writable = l.v2_parent || l.cpuacct_parent || l.memory_parent;
  if (l.layout == "none") why.push_back("no cgroup file system mounted");
  for (std::size_t i = 0; i < why.size(); ++i) l.note += (i ? "; " : "") + why[i];
  return l;
}

}  // namespace

const CgroupLayout& cgroup_layout() {
  static const CgroupLayout layout = detect();
  return layout;
}

std::vector<fs::path> cgroup_parents() {
  const auto& l = cgroup_layout();
  std::vector<fs::path> out;
  for (const auto& p : {l.v2_parent, l.cpuacct_parent, l.memory_parent})
    if (p) out.push_back(*p);
  return out;
}

SampleCgroup::SampleCgroup(const std::string& name) {
  const auto& l = cgroup_layout();
  const std::string leaf = "perfgate-" + process::owner_tag() + "-" + name;
  auto make = [&](const fs::path& parent) -> std::optional<fs::path> {
    fs::path d = parent / leaf;
    if (::mkdir(d.c_str(), 0755) != 0 && errno != EEXIST) return std::nullopt;
    dirs_.push_back(d);
    procs_files_.push_back((d / "cgroup.procs").string());
    if (l.v2_parent && parent == *l.v2_parent)
      v2_dir_ = d;
    else
      v1_dirs_.push_back(d);
    return d;
  };
  if (l.v2_parent) {
    if (auto d = make(*l.v2_parent)) {
      cpu_dir_ = d;
      cpu_is_v2_ = true;
      if (l.v2_memory) {
        memory_dir_ = d;
        memory_is_v2_ = true;
      }
    }
  } else if (l.cpuacct_parent) {
    cpu_dir_ = make(*l.cpuacct_parent);
  }
  if (!memory_dir_ && l.memory_parent) memory_dir_ = make(*l.memory_parent);
}

SampleCgroup::~SampleCgroup() {
  kill_all();
  for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) remove_cgroup_dir(*it);
}

std::string SampleCgroup::cpu_source() const {
  return !cpu_dir_ ? "rusage" : cpu_is_v2_ ? "cgroup-v2:cpu.stat" : "cgroup-v1:cpuacct";
}

std::string SampleCgroup::memory_source() const {
  return !memory_dir_ ? "rusage" : memory_is_v2_ ? "cgroup-v2:memory.peak" : "cgroup-v1:memory.max_usage_in_bytes";
}

std::optional<CpuUsage> SampleCgroup::cpu() const {
  if (!cpu_dir_) return std::nullopt;
  CpuUsage u;
  if (cpu_is_v2_) {
    std::istringstream in(read_all(*cpu_dir_ / "cpu.stat"));
    read_keyed_values(in,
                      {{"usage_usec", &u.usage_usec}, {"user_usec", &u.user_usec}, {"system_usec", &u.system_usec}});
    return u;
  }
  // v1: cpuacct.usage in ns; cpuacct.stat in USER_HZ ticks.
  u.usage_usec = std::strtoull(read_all(*cpu_dir_ / "cpuacct.usage").c_str(), nullptr, 10) / 1000;
  std::istringstream in(read_all(*cpu_dir_ / "cpuacct.stat"));
  std::uint64_t user_ticks = 0, system_ticks = 0;
  read_keyed_values(in, {{"user", &user_ticks}, {"system", &system_ticks}});
  const double usec_per_tick = 1e6 / static_cast<double>(::sysconf(_SC_CLK_TCK));
  u.user_usec = static_cast<std::uint64_t>(user_ticks * usec_per_tick);
  u.system_usec = static_cast<std::uint64_t>(system_ticks * usec_per_tick);
  return u;
}

std::optional<std::uint64_t> SampleCgroup::memory_peak_bytes() const {
  if (!memory_dir_) return std::nullopt;
  fs::path f = *memory_dir_ / (memory_is_v2_ ? "memory.peak" : "memory.max_usage_in_bytes");
  std::string s = read_all(f);
  if (s.empty()) return std::nullopt;
  return std::strtoull(s.c_str(), nullptr, 10);
}

std::vector<pid_t> SampleCgroup::pids() const {
  std::vector<pid_t> out;
  for (const auto& d : dirs_) {
    std::istringstream in(read_all(d / "cgroup.procs"));
    pid_t p;
    while (in >> p) out.push_back(p);
  }
  return out;
}

void SampleCgroup::kill_all() const {
  for (int attempt = 0; attempt < 400; ++attempt) {
    auto ps = pids();
    if (ps.empty()) return;
    for (pid_t p : ps) ::kill(p, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::optional<double> cpu_wait_ms(const SampleCgroup& cgroup) {
  if (!cgroup.v2_dir()) return std::nullopt;
  std::ifstream in(*cgroup.v2_dir() / "cpu.pressure");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("some ", 0) != 0) continue;
    auto at = line.find("total=");
    if (at == std::string::npos) return std::nullopt;
    return std::strtod(line.c_str() + at + 6, nullptr) / 1e3;
  }
  return std::nullopt;
}

}  // namespace perfgate::measure
