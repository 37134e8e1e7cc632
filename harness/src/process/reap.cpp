#include "process/reap.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "process/owner.hpp"

namespace perfgate::process {

namespace {

std::vector<pid_t> procs_of(const fs::path& cgroup) {
  std::vector<pid_t> out;
  std::ifstream in(cgroup / "cgroup.procs");
  pid_t p;
  while (in >> p) out.push_back(p);
  return out;
}

// Kills every process in `cgroup` and its descendants, then removes them, deepest first.
bool remove_cgroup_tree(const fs::path& cgroup, int& killed) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cgroup, ec))
    if (e.is_directory(ec)) remove_cgroup_tree(e.path(), killed);
  for (int attempt = 0; attempt < 200; ++attempt) {
    auto ps = procs_of(cgroup);
    if (ps.empty()) break;
    for (pid_t p : ps)
      if (::kill(p, SIGKILL) == 0 && attempt == 0) ++killed;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (int i = 0; i < 200; ++i) {
    if (::rmdir(cgroup.c_str()) == 0 || errno == ENOENT) return true;
    if (errno != EBUSY) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

bool dead_owner(const std::string& name, const std::string& prefix) {
  auto owner = owner_of(name, prefix);
  return owner && owner->pid != ::getpid() && owner_gone(*owner);
}

std::string names(const std::vector<fs::path>& paths) {
  std::string s;
  for (std::size_t i = 0; i < paths.size() && i < 4; ++i) s += (i ? ", " : "") + paths[i].string();
  if (paths.size() > 4) s += ", …";
  return s;
}

}  // namespace

Reaped reap_dead_owners(const std::vector<fs::path>& cgroup_parents, const fs::path& temp_base,
                        const std::vector<std::string>& temp_prefixes) {
  Reaped r;
  for (const auto& parent : cgroup_parents) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(parent, ec)) {
      const std::string name = e.path().filename().string();
      if (!e.is_directory(ec) || !dead_owner(name, "perfgate-")) continue;
      // A process of another PID namespace lists as 0: that cgroup belongs to a run we cannot
      // see (a container sharing the hierarchy), whatever its name says.
      const auto ps = procs_of(e.path());
      if (std::find(ps.begin(), ps.end(), 0) != ps.end()) continue;
      if (remove_cgroup_tree(e.path(), r.processes_killed)) r.cgroups.push_back(e.path());
    }
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(temp_base, ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_symlink(ec) || !e.is_directory(ec)) continue;
    bool dead = false;
    for (const auto& prefix : temp_prefixes) dead = dead || dead_owner(name, prefix);
    struct stat st {};
    if (!dead || ::lstat(e.path().c_str(), &st) != 0 || st.st_uid != ::geteuid()) continue;
    std::error_code rm;
    fs::remove_all(e.path(), rm);
    if (!fs::exists(e.path(), rm)) r.dirs.push_back(e.path());
  }
  return r;
}

std::string describe(const Reaped& r) {
  std::string s = "removed what runs killed earlier left behind:";
  if (!r.cgroups.empty())
    s += " " + std::to_string(r.cgroups.size()) + " cgroup" + (r.cgroups.size() == 1 ? "" : "s") + " (" +
         names(r.cgroups) + ")";
  if (r.processes_killed > 0) s += ", " + std::to_string(r.processes_killed) + " process(es) still running in them";
  if (!r.dirs.empty())
    s += std::string(r.cgroups.empty() ? " " : "; ") + std::to_string(r.dirs.size()) + " temporary director" +
         (r.dirs.size() == 1 ? "y" : "ies") + " (" + names(r.dirs) + ")";
  return s;
}

}  // namespace perfgate::process
