// What a perfgate killed by SIGKILL leaves behind (it cannot clean up): its sample cgroups and
// its temporary directories. Both carry the owner's tag (see owner.hpp), so any later run can
// find those whose owner is gone and remove them, killing what still runs inside.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgate::process {

namespace fs = std::filesystem;

struct Reaped {
  std::vector<fs::path> cgroups, dirs;
  int processes_killed = 0;
  bool empty() const { return cgroups.empty() && dirs.empty(); }
};

// Removes, directly under each of `cgroup_parents`, every "perfgate-<pid>-…" cgroup whose owner
// is gone, and, directly under `temp_base`, every directory "<prefix><pid>-…" (one of
// `temp_prefixes`) whose owner is gone and which belongs to our user.
Reaped reap_dead_owners(const std::vector<fs::path>& cgroup_parents, const fs::path& temp_base,
                        const std::vector<std::string>& temp_prefixes);

// One line for stderr: "perfgate: reaped what dead runs left: 3 cgroups (…), 1 temporary directory (…)".
std::string describe(const Reaped& r);

}  // namespace perfgate::process
